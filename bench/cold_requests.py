"""The first request of each function in the cold-start benchmark, served by a moto server.

The server runs in this (the benchmark's) process on loopback, provisioned from template.yaml, so the
measured process imports nothing of the emulator: it sees only AWS_ENDPOINT_URL, creates its own boto3
clients and makes real HTTP calls, as a Lambda container would against AWS. Its CPU time therefore
leaves out the emulator's work, while its wall time includes it. Each function answers one
representative event from events/ (the authorizer a freshly minted token, the ingest a new version of
a note each run); the bare handler answers its own GET /hello. One more row runs the turn with
tracing on as in Lambda (the X-Ray SDK loaded, botocore patched, subsegments sent by UDP to a
loopback port where no daemon listens), to show what tracing adds to a deployed cold start.
"""

import copy
import json
import logging
import os
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import boto3

from bench.aws_env import FUNCTIONS, REGION, patched_env
from bench.report import REPO_ROOT

EVENTS = REPO_ROOT / "events"
FIXTURES = REPO_ROOT / "bench" / "fixtures"
BARE = FIXTURES / "hello_app.py"
BARE_WITH_AWS = FIXTURES / "hello_aws_app.py"
REFERENCE_PREFIX = "reference: "
LAYER = REPO_ROOT / "layers" / "pandora"
API_METHOD_ARN = "arn:aws:execute-api:us-east-1:123456789012:abcdef1234/dev/POST/api/memory/adaptive/turn"
NOTE = (
    "# Pandora API deploy plan\n\n"
    "We deploy the Pandora API through SAM to the dev stage first, then prod, after the smoke tests.\n\n"
    "## Open points\n\nThe memory API keeps its own alarm on 5xx answers.\n"
)

Check = Callable[[Any], bool]
# As Lambda's runtime sets them for a sampled request; the daemon address is a loopback port.
TRACING_ON = (
    ("POWERTOOLS_TRACE_DISABLED", "false"),
    ("LAMBDA_TASK_ROOT", "/var/task"),
    ("_X_AMZN_TRACE_ID", "Root=1-6749a1b2-0f1e2d3c4b5a69788796a5b4;Parent=53995c3f42cd8ad8;Sampled=1"),
    ("AWS_XRAY_DAEMON_ADDRESS", "127.0.0.1:2000"),
    ("AWS_XRAY_CONTEXT_MISSING", "LOG_ERROR"),
)
TRACED_LABEL = "adaptive_turn (pre_answer), tracing on"


@dataclass(frozen=True)
class FirstRequest:
    label: str  # the row of the report
    app: Path
    event: Callable[[], dict[str, Any]]  # called before each run: an ingest needs a new S3 version
    check: Check  # a good answer, so a failed request is never timed as a fast one
    extra_env: tuple[tuple[str, str], ...] = ()  # on top of the function's environment


def _http_ok(result: Any) -> bool:
    return isinstance(result, dict) and result.get("statusCode") == 200


def _allowed(result: Any) -> bool:
    return isinstance(result, dict) and result["policyDocument"]["Statement"][0]["Effect"] == "Allow"


def _ingested(result: Any) -> bool:
    return isinstance(result, dict) and [o["outcome"] for o in result["outcomes"]] == ["ingested"]


def _event(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return event


def _env_for(stack_env: dict[str, str], endpoint: str, function_env: dict[str, str]) -> dict[str, str]:
    return {
        **stack_env,
        **function_env,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(LAYER),
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "AWS_EC2_METADATA_DISABLED": "true",
        "POWERTOOLS_TRACE_DISABLED": "true",
    }


@dataclass(frozen=True)
class ColdStack:
    requests: list[FirstRequest]
    environments: dict[Path, dict[str, str]]  # the app file -> the environment its process gets

    def env(self, request: FirstRequest) -> dict[str, str]:
        return {**self.environments[request.app], **dict(request.extra_env)}


def _note_event(session: boto3.Session, bucket: str) -> Callable[[], dict[str, Any]]:
    template = _event("markdown_ingest_created")
    record = template["Records"][0]
    key = unquote_plus(record["s3"]["object"]["key"])
    s3 = session.client("s3")
    runs = iter(range(1_000_000))

    def fresh_version() -> dict[str, Any]:
        body = f"{NOTE}\nRevision {next(runs)}.\n".encode()
        version = s3.put_object(Bucket=bucket, Key=key, Body=body)["VersionId"]
        event = copy.deepcopy(template)
        obj = event["Records"][0]["s3"]
        obj["bucket"]["name"], obj["bucket"]["arn"] = bucket, f"arn:aws:s3:::{bucket}"
        obj["object"].update(size=len(body), versionId=version)
        return event

    return fresh_version


def _token_event(session: boto3.Session, tokens_path: str) -> Callable[[], dict[str, Any]]:
    from pandora_memory.namespaces import Namespace
    from pandora_memory.storage.token_store import TokenStore
    from pandora_memory.tokens import mint_token

    minted = mint_token([Namespace.REAL_LIFE], label="cold start benchmark")
    TokenStore(session.client("ssm"), tokens_path).put(minted.record)
    event = {"type": "TOKEN", "authorizationToken": f"Bearer {minted.token}", "methodArn": API_METHOD_ARN}
    return lambda: event


@contextmanager
def cold_stack() -> Iterator[ColdStack]:
    """moto on a free loopback port, provisioned and seeded; the first requests and their environments."""
    from moto.server import ThreadedMotoServer
    from pandora_devstack.lambda_runtime import function_specs
    from pandora_devstack.provision import LOCAL_STACK_NAME, function_environment, provision
    from pandora_devstack.template import TEMPLATE_PATH, Resolver, load_template

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per AWS call otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    _reset(endpoint)  # moto keeps its state in module globals: an earlier stack's tables are still there
    offline = {k: v for k, v in _env_for({}, endpoint, {}).items() if k not in ("PATH", "PYTHONPATH")}
    try:
        with patched_env(offline):
            session = boto3.Session(region_name=REGION)
            stack = provision(session, stack_name=LOCAL_STACK_NAME)
            template = load_template()
            resolver = Resolver(
                template, stack_name=LOCAL_STACK_NAME, region=REGION, parameters={"Stage": "dev"}
            )
            specs = function_specs(template, TEMPLATE_PATH.parent, LOCAL_STACK_NAME, REGION, "123456789012")
            environments = {
                BARE: _env_for(stack.env, endpoint, {}),
                BARE_WITH_AWS: _env_for(stack.env, endpoint, {}),
            }
            for logical_id, spec in specs.items():
                own = function_environment(template, resolver, logical_id)
                environments[spec.handler_file] = _env_for(stack.env, endpoint, own)
            # Ingested by the untimed warm-up run, so every timed turn finds the note in its search.
            note = _note_event(session, stack.bucket)
            turn_app = FUNCTIONS / "adaptive_turn" / "app.py"
            requests = [
                FirstRequest("bare Powertools handler", BARE, lambda: _event_file("hello_event"), _http_ok),
                FirstRequest(
                    f"{REFERENCE_PREFIX}bare handler + boto3 and one client",
                    BARE_WITH_AWS,
                    lambda: _event_file("hello_event"),
                    _http_ok,
                ),
                FirstRequest(
                    "adaptive_turn (pre_answer)",
                    turn_app,
                    lambda: _event("adaptive_turn_pre_answer"),
                    _http_ok,
                ),
                FirstRequest(
                    TRACED_LABEL,
                    turn_app,
                    lambda: _event("adaptive_turn_pre_answer"),
                    _http_ok,
                    TRACING_ON,
                ),
                FirstRequest(
                    "adaptive_turn (post_answer)",
                    turn_app,
                    lambda: _event("adaptive_turn_post_answer"),
                    _http_ok,
                ),
                FirstRequest(
                    "candidate_review",
                    FUNCTIONS / "candidate_review" / "app.py",
                    lambda: _event("candidate_review_list"),
                    _http_ok,
                ),
                FirstRequest("markdown_ingest", FUNCTIONS / "markdown_ingest" / "app.py", note, _ingested),
                FirstRequest(
                    "token_authorizer",
                    FUNCTIONS / "token_authorizer" / "app.py",
                    _token_event(session, stack.tokens_path),
                    _allowed,
                ),
            ]
            yield ColdStack(requests, environments)
    finally:
        _reset(endpoint)
        server.stop()


def _reset(endpoint: str) -> None:
    # The URL is the loopback emulator started above, never user input.
    request = urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        response.read()


def _event_file(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return event
