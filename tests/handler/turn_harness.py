"""Helpers for the adaptive turn handler tests: the handler loaded from its file, sample events from
events/ (re-aimed at the search route too), seeded memories and notes, and capture of AWS calls, log
lines and EMF metrics."""

import copy
import importlib.util
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

import boto3
from aws_lambda_powertools.utilities import parameters
from botocore.awsrequest import AWSResponse, HTTPHeaders
from pandora_devstack.lambda_runtime import LambdaContext
from pandora_memory.hashing import content_hash
from pandora_memory.ingest.config import load_ingest_settings
from pandora_memory.ingest.events import ObjectEvent, parse_record
from pandora_memory.ingest.factory import build_pipeline
from pandora_memory.ingest.outcomes import OutcomeKind
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.settings import get_settings
from pandora_memory.storage.records import MemoryRecord, MemoryStatus, utc_timestamp

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

REPO = Path(__file__).resolve().parents[2]
TURN_APP = REPO / "functions" / "adaptive_turn" / "app.py"
EVENTS = REPO / "events"
MODULE_NAME = "adaptive_turn_app_under_test"
SEARCH_PATH = "/api/memory/search"


def load_event(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"adaptive_turn_{name}.json").read_text(encoding="utf-8"))
    return event


def turn_event(
    body: dict[str, Any] | str | None,
    namespaces: str | None = "real_life",
    base: str = "pre_answer",
) -> dict[str, Any]:
    """A sample API Gateway event with this body and this token scope (None: no authorizer context)."""
    event = copy.deepcopy(load_event(base))
    event["body"] = body if isinstance(body, str) or body is None else json.dumps(body)
    if namespaces is None:
        event["requestContext"].pop("authorizer", None)
    else:
        event["requestContext"]["authorizer"]["namespaces"] = namespaces
    return event


def search_event(body: dict[str, Any] | str | None, namespaces: str | None = "real_life") -> dict[str, Any]:
    """The sample turn event re-aimed at POST /api/memory/search."""
    event = turn_event(body, namespaces)
    event["resource"] = event["path"] = SEARCH_PATH
    event["requestContext"]["resourcePath"] = SEARCH_PATH
    event["requestContext"]["path"] = f"/dev{SEARCH_PATH}"
    return event


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    raw: str

    @classmethod
    def of(cls, result: dict[str, Any]) -> "Reply":
        raw = str(result.get("body") or "")
        headers = {k: str(v) for k, v in (result.get("headers") or {}).items()}
        for name, values in (result.get("multiValueHeaders") or {}).items():
            headers.setdefault(name, ",".join(str(v) for v in values))
        return cls(int(result["statusCode"]), json.loads(raw) if raw else {}, headers, raw)


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@dataclass
class TurnHarness:
    app: ModuleType
    stack: "ProvisionedStack"
    log: _Lines
    aws_calls: list[str] = field(default_factory=list)

    def invoke(self, event: dict[str, Any]) -> Reply:
        context = LambdaContext(
            function_name="pandora-test-AdaptiveTurnFunction",
            invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:pandora-test-AdaptiveTurnFunction",
            memory_limit_in_mb=512,
            aws_request_id="8f6a3c2e-1b4d-4e7f-9a0b-2c3d4e5f6a7b",
            timeout_s=10,
        )
        result: dict[str, Any] = self.app.lambda_handler(event, context)
        return Reply.of(result)

    def turn(self, namespaces: str | None = "real_life", **body: Any) -> Reply:
        return self.invoke(turn_event(body, namespaces))

    def search(self, namespaces: str | None = "real_life", **body: Any) -> Reply:
        return self.invoke(search_event(body, namespaces))

    def cold_start(self) -> None:
        """A new container over the same stack: module, settings, clients and every cache start over."""
        stop_harness(self)
        fresh = start_harness(self.stack)
        self.app, self.log, self.aws_calls = fresh.app, fresh.log, fresh.aws_calls

    def table_items(self, logical_id: str) -> list[dict[str, Any]]:
        return list(_inspector("dynamodb").scan(TableName=self.stack.table_names[logical_id])["Items"])

    def all_items_text(self) -> str:
        """Every item of every table, as one string to search for leaks."""
        client = _inspector("dynamodb")
        tables = client.list_tables()["TableNames"]
        return json.dumps([client.scan(TableName=name)["Items"] for name in tables], sort_keys=True)

    def calls_to(self, service: str) -> list[str]:
        return [name.split(".", 1)[1] for name in self.aws_calls if name.startswith(service + ".")]

    def fail(self, service: str, operation: str, code: str, status: int = 400) -> list[str]:
        """Answer every `operation` with this error, the way botocore's Stubber does (a before-call
        response). Register before the first invoke: clients copy session hooks when created."""
        attempts: list[str] = []

        def respond(model: Any, **_: Any) -> tuple[AWSResponse, dict[str, Any]]:
            attempts.append(model.name)
            parsed = {
                "Error": {"Code": code, "Message": "injected"},
                "ResponseMetadata": {"HTTPStatusCode": status},
            }
            return AWSResponse("https://fault.invalid", status, HTTPHeaders(), None), parsed

        assert boto3.DEFAULT_SESSION is not None
        hook: Any = respond  # botocore types hooks as returning None; before-call may return a response
        boto3.DEFAULT_SESSION.events.register(f"before-call.{service}.{operation}", hook)
        return attempts

    def set_flag(self, name: str, value: str) -> None:
        _inspector("ssm").put_parameter(
            Name=f"{self.stack.flags_path}/{name}", Value=value, Type="String", Overwrite=True
        )

    def delete_flag(self, name: str) -> None:
        _inspector("ssm").delete_parameter(Name=f"{self.stack.flags_path}/{name}")


def _inspector(service: str) -> Any:
    """A client outside the default session, so the test's own reads and writes are not recorded."""
    return boto3.Session().client(service)  # type: ignore[call-overload]


def reset_stack(stack: "ProvisionedStack") -> None:
    """Back to the freshly provisioned state: empty tables, the template's parameters only."""
    dynamodb = _inspector("dynamodb")
    for table in dynamodb.list_tables()["TableNames"]:
        keys = [k["AttributeName"] for k in dynamodb.describe_table(TableName=table)["Table"]["KeySchema"]]
        for item in dynamodb.scan(TableName=table)["Items"]:
            dynamodb.delete_item(TableName=table, Key={key: item[key] for key in keys})
    ssm = _inspector("ssm")
    for parameter in ssm.get_parameters_by_path(Path=stack.flags_path, Recursive=True)["Parameters"]:
        if parameter["Name"] not in stack.parameters:
            ssm.delete_parameter(Name=parameter["Name"])
    for name, value in stack.parameters.items():
        ssm.put_parameter(Name=name, Value=value, Type="String", Overwrite=True)


def _load_app() -> ModuleType:
    spec = importlib.util.spec_from_file_location(MODULE_NAME, TURN_APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def emf_documents(printed: str) -> list[dict[str, Any]]:
    """The EMF metric documents among printed lines."""
    documents = []
    for line in printed.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            documents.append(json.loads(line))
    return documents


def seed_memory(
    stack: "ProvisionedStack",
    namespace: str,
    summary: str,
    memory_type: str = "project_decision",
    **extra: Any,
) -> str:
    """An approved memory written straight into the memory table; returns its id."""
    ns = Namespace(namespace)
    record = MemoryRecord(
        namespace=ns,
        content_hash=content_hash(ns, memory_type, summary),
        created_at=utc_timestamp(),
        memory_type=MemoryType(memory_type),
        sensitivity=Sensitivity.LOW,
        summary=summary,
        status=MemoryStatus.APPROVED,
        **extra,
    )
    _inspector("dynamodb").put_item(TableName=stack.table_names["MemoryEventsTable"], Item=record.to_item())
    return record.id


def seed_note(stack: "ProvisionedStack", namespace: str, path: str, markdown: str) -> None:
    """A Markdown note uploaded and ingested by the real pipeline (clients outside the recorded session)."""
    key = f"memory/{namespace}/{path}.md"
    s3, dynamodb = _inspector("s3"), _inspector("dynamodb")
    body = markdown.encode("utf-8")
    version = s3.put_object(Bucket=stack.bucket, Key=key, Body=body)["VersionId"]
    record = {
        "eventVersion": "2.1",
        "eventSource": "aws:s3",
        "awsRegion": "us-east-1",
        "eventTime": "2026-11-29T10:15:30.000Z",
        "eventName": "ObjectCreated:Put",
        "s3": {
            "s3SchemaVersion": "1.0",
            "configurationId": "MarkdownIngest",
            "bucket": {"name": stack.bucket, "arn": f"arn:aws:s3:::{stack.bucket}"},
            "object": {"key": quote_plus(key, safe="/"), "size": len(body), "versionId": version},
        },
    }
    event = parse_record(record)
    assert isinstance(event, ObjectEvent)
    outcome = build_pipeline(load_ingest_settings(stack.env), dynamodb, s3).process(event)
    assert outcome.kind is OutcomeKind.INGESTED, outcome


def start_harness(stack: "ProvisionedStack") -> TurnHarness:
    """A cold container: fresh settings, clients and flag cache; every AWS call it makes is recorded."""
    get_settings.cache_clear()
    parameters.clear_caches()
    boto3.setup_default_session()
    assert boto3.DEFAULT_SESSION is not None
    module = _load_app()
    lines = _Lines()
    lines.setFormatter(module.logger.registered_formatter)
    logging.getLogger(module.logger.name).addHandler(lines)
    harness = TurnHarness(module, stack, lines)

    def record(model: Any, **_: Any) -> None:
        harness.aws_calls.append(f"{model.service_model.service_name}.{model.name}")

    # Clients copy the session's hooks when created, so the handler's lazily built clients get this one.
    boto3.DEFAULT_SESSION.events.register("before-call.*.*", record)
    return harness


def stop_harness(harness: TurnHarness) -> None:
    logging.getLogger(harness.app.logger.name).removeHandler(harness.log)
    harness.app.action_services.cache_clear()
    parameters.clear_caches()
    get_settings.cache_clear()
    boto3.DEFAULT_SESSION = None
    sys.modules.pop(MODULE_NAME, None)
