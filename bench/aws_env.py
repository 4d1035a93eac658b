"""The functions run in-process over moto, as the handler tests run them: provisioned from template.yaml,
loaded from their files as Lambda loads them, their AWS calls counted through botocore's event hooks.
"""

import importlib.util
import os
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import boto3

from bench.report import REPO_ROOT

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

FUNCTIONS = REPO_ROOT / "functions"
REGION = "us-east-1"

# Never real AWS: fake credentials and a fixed region for every client a benchmark creates.
_OFFLINE_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
    "AWS_EC2_METADATA_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "Pandora",
    "POWERTOOLS_SERVICE_NAME": "pandora-memory",
    "POWERTOOLS_TRACE_DISABLED": "true",
}


@contextmanager
def patched_env(values: dict[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextmanager
def moto_stack(function_id: str | None = None) -> Iterator["ProvisionedStack"]:
    """Storage from template.yaml inside moto, with the environment the template gives `function_id`."""
    from moto import mock_aws
    from pandora_devstack.provision import function_environment, provision
    from pandora_devstack.template import Resolver, load_template

    with patched_env(_OFFLINE_ENV), mock_aws():
        stack = provision(boto3.Session(region_name=REGION))
        template = load_template()
        resolver = Resolver(template, stack_name=stack.stack_name, region=REGION, parameters={"Stage": "dev"})
        env = {**stack.env, **function_environment(template, resolver, function_id)}
        with patched_env(env):
            yield stack


def inspector(service: str) -> Any:
    """A client outside the default session: the benchmark's own reads and writes are not counted."""
    return boto3.Session(region_name=REGION).client(service)  # type: ignore[call-overload]


@dataclass(frozen=True)
class AwsCall:
    operation: str  # "dynamodb.PutItem"
    tables: tuple[str, ...]
    conditional: bool
    seconds: float = 0.0  # from before-call to after-call: serialising, the emulator, parsing


@dataclass
class CallRecorder:
    """Every API call made through the default session's clients (they copy its hooks when created)."""

    calls: list[AwsCall] = field(default_factory=list)

    def install(self) -> None:
        assert boto3.DEFAULT_SESSION is not None
        events = boto3.DEFAULT_SESSION.events
        events.register("before-parameter-build.*.*", self._note_params)
        events.register("before-call.*.*", self._record)
        events.register("after-call.*.*", self._finish)

    @staticmethod
    def _note_params(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        tables = [params["TableName"]] if "TableName" in params else list(params.get("RequestItems", {}))
        for item in params.get("TransactItems", []):
            tables.extend(str(part.get("TableName")) for part in item.values())
        context["bench_tables"] = tuple(tables)
        context["bench_conditional"] = "ConditionExpression" in params or any(
            "ConditionExpression" in part
            for item in params.get("TransactItems", [])
            for part in item.values()
        )

    def _record(self, model: Any, context: dict[str, Any], **_: Any) -> None:
        context["bench_index"] = len(self.calls)
        context["bench_started"] = time.perf_counter()
        self.calls.append(
            AwsCall(
                f"{model.service_model.service_name}.{model.name}",
                context.get("bench_tables", ()),
                bool(context.get("bench_conditional", False)),
            )
        )

    def _finish(self, context: dict[str, Any], **_: Any) -> None:
        index = context.get("bench_index")
        if index is not None and index < len(self.calls):
            elapsed = time.perf_counter() - context["bench_started"]
            self.calls[index] = replace(self.calls[index], seconds=elapsed)

    def take(self) -> list[AwsCall]:
        taken, self.calls = self.calls, []
        return taken


def fresh_container() -> CallRecorder:
    """What a new Lambda container starts with: no settings, clients or cached parameters."""
    from aws_lambda_powertools.utilities import parameters
    from pandora_memory.settings import get_settings

    get_settings.cache_clear()
    parameters.clear_caches()
    boto3.setup_default_session(region_name=REGION)
    recorder = CallRecorder()
    recorder.install()
    return recorder


def load_function(directory: str) -> ModuleType:
    """functions/<directory>/app.py under a unique module name, as Lambda imports its handler."""
    path = FUNCTIONS / directory / "app.py"
    name = f"bench_{directory}_{uuid.uuid4().hex[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic and dataclasses resolve the module by name
    spec.loader.exec_module(module)
    return module


def lambda_context(function: str, memory_mb: int = 512, timeout_s: int = 10) -> Any:
    from pandora_devstack.lambda_runtime import LambdaContext

    return LambdaContext(
        function_name=f"pandora-bench-{function}",
        invoked_function_arn=f"arn:aws:lambda:{REGION}:123456789012:function:pandora-bench-{function}",
        memory_limit_in_mb=memory_mb,
        aws_request_id=str(uuid.uuid4()),
        timeout_s=timeout_s,
    )


@contextmanager
def quiet_stdout(sink_path: Path | None = None) -> Iterator[None]:
    """Log lines and EMF documents go to /dev/null (or `sink_path`), at the file-descriptor level:
    Powertools' handler holds the stdout object it found at import, so swapping sys.stdout would not
    silence it."""
    sys.stdout.flush()
    saved = os.dup(1)
    with (sink_path or Path(os.devnull)).open("w") as sink:
        os.dup2(sink.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def seed_memories() -> None:
    """A few approved memories per namespace, so the pre_answer read returns real items."""
    from pandora_memory.hashing import content_hash
    from pandora_memory.namespaces import Namespace
    from pandora_memory.policy.models import MemoryType, Sensitivity
    from pandora_memory.settings import get_settings
    from pandora_memory.storage.records import MemoryRecord, MemoryStatus, utc_timestamp

    table = get_settings().memory_table
    summaries = (
        "The Pandora API deploys through SAM to the dev stage first, then prod.",
        "The user prefers short answers with code first.",
        "Kael's chapter outline keeps the tide court for the finale.",
    )
    for namespace in Namespace:
        for summary in summaries:
            record = MemoryRecord(
                namespace=namespace,
                content_hash=content_hash(namespace, MemoryType.PROJECT_DECISION.value, summary),
                created_at=utc_timestamp(),
                memory_type=MemoryType.PROJECT_DECISION,
                sensitivity=Sensitivity.LOW,
                summary=summary,
                status=MemoryStatus.APPROVED,
            )
            inspector("dynamodb").put_item(TableName=table, Item=record.to_item())
