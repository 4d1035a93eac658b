"""Runs the template's functions in-process: handler from CodeUri + Handler, a Lambda-shaped context.

Each handler module is imported from its file under a name unique to its function, so two functions
that both ship an `app.py` never share a module. An import failure is kept and reported on every
invocation, as Lambda reports an init error. A function serves one event at a time, as a Lambda
container does: handlers may keep per-request state in module globals (Powertools' resolver keeps the
current event on itself), so the threaded local API must not interleave two events in one module.
"""

import importlib.util
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pandora_devstack.api_routes import SERVERLESS_FUNCTION

Handler = Callable[[dict[str, Any], Any], Any]
# Wraps every call of a function (given its name), e.g. to measure it as AWS/Lambda would.
InvocationMonitor = Callable[[str], AbstractContextManager[None]]

DEFAULT_MEMORY_MB = 128
DEFAULT_TIMEOUT_S = 3
MODULE_PREFIX = "pandora_local_function_"


class FunctionInitError(RuntimeError):
    pass


class FunctionTimeoutError(RuntimeError):
    pass


@dataclass(frozen=True)
class FunctionSpec:
    logical_id: str
    code_dir: Path
    handler: str
    memory_mb: int
    timeout_s: int
    function_name: str
    arn: str

    @property
    def module_name(self) -> str:
        return MODULE_PREFIX + self.logical_id

    @property
    def handler_file(self) -> Path:
        module_path, _, _ = self.handler.rpartition(".")
        return self.code_dir.joinpath(*module_path.split(".")).with_suffix(".py")


@dataclass
class LambdaContext:
    """The attributes Lambda's Python runtime gives a handler (Powertools reads several of them)."""

    function_name: str
    invoked_function_arn: str
    memory_limit_in_mb: int
    aws_request_id: str
    timeout_s: int
    function_version: str = "$LATEST"
    log_group_name: str = ""
    log_stream_name: str = "local"
    _deadline: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.timeout_s
        if not self.log_group_name:
            self.log_group_name = f"/aws/lambda/{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def function_specs(
    template: Mapping[str, Any], template_dir: Path, stack_name: str, region: str, account_id: str
) -> dict[str, FunctionSpec]:
    defaults = template.get("Globals", {}).get("Function", {})
    specs: dict[str, FunctionSpec] = {}
    for logical_id, resource in template["Resources"].items():
        if resource.get("Type") != SERVERLESS_FUNCTION:
            continue
        props = {**defaults, **resource.get("Properties", {})}
        name = f"{stack_name}-{logical_id}"
        specs[logical_id] = FunctionSpec(
            logical_id=logical_id,
            code_dir=(template_dir / str(props["CodeUri"])).resolve(),
            handler=str(props["Handler"]),
            memory_mb=int(props.get("MemorySize", DEFAULT_MEMORY_MB)),
            timeout_s=int(props.get("Timeout", DEFAULT_TIMEOUT_S)),
            function_name=name,
            arn=f"arn:aws:lambda:{region}:{account_id}:function:{name}",
        )
    return specs


def _import_handler(spec: FunctionSpec) -> Handler:
    path = spec.handler_file
    if not path.is_file():
        raise FunctionInitError(f"{spec.logical_id}: handler file {path} does not exist")
    module_spec = importlib.util.spec_from_file_location(spec.module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise FunctionInitError(f"{spec.logical_id}: cannot import {path}")
    module: ModuleType = importlib.util.module_from_spec(module_spec)
    # Registered before execution so pydantic and dataclasses can resolve the module by name.
    sys.modules[spec.module_name] = module
    # Lambda puts the code directory on sys.path; sibling modules of the handler import as in AWS.
    sys.path.insert(0, str(spec.code_dir))
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        sys.modules.pop(spec.module_name, None)
        raise FunctionInitError(f"{spec.logical_id}: import of {path} failed: {error!r}") from error
    finally:
        sys.path.remove(str(spec.code_dir))
    handler = getattr(module, spec.handler.rpartition(".")[2], None)
    if not callable(handler):
        raise FunctionInitError(f"{spec.logical_id}: {spec.handler} is not a function")
    return handler  # type: ignore[no-any-return]


def _unmonitored(function_name: str) -> AbstractContextManager[None]:
    return nullcontext()


class LocalFunction:
    def __init__(self, spec: FunctionSpec, monitor: InvocationMonitor = _unmonitored) -> None:
        self.spec = spec
        self._monitor = monitor
        self.init_error: FunctionInitError | None = None
        self._handler: Handler | None = None
        self._one_event_at_a_time = threading.Lock()
        try:
            self._handler = _import_handler(spec)
        except FunctionInitError as error:
            self.init_error = error
            print(f"[pandora-local] {error}", file=sys.stderr)
            if error.__cause__ is not None:
                traceback.print_exception(error.__cause__, file=sys.stderr)

    def context(self) -> LambdaContext:
        return LambdaContext(
            function_name=self.spec.function_name,
            invoked_function_arn=self.spec.arn,
            memory_limit_in_mb=self.spec.memory_mb,
            aws_request_id=str(uuid.uuid4()),
            timeout_s=self.spec.timeout_s,
        )

    def invoke(self, event: dict[str, Any]) -> Any:
        """The handler's return value; raises what the handler raises (or the init error)."""
        if self._handler is None:
            raise self.init_error or FunctionInitError(self.spec.logical_id)
        # Waiting here is queueing, not run time: Lambda would have started another container instead.
        with self._one_event_at_a_time, self._monitor(self.spec.function_name):
            context = self.context()
            started = time.monotonic()
            result = self._handler(event, context)
            elapsed = time.monotonic() - started
            if elapsed > self.spec.timeout_s:
                # Lambda would have stopped the handler, so its late result must not reach the caller.
                raise FunctionTimeoutError(
                    f"{self.spec.logical_id} ran {elapsed:.1f}s, over its Timeout of {self.spec.timeout_s}s"
                )
        return result

    def unload(self) -> None:
        sys.modules.pop(self.spec.module_name, None)


def load_functions(
    specs: Mapping[str, FunctionSpec], monitor: InvocationMonitor = _unmonitored
) -> dict[str, LocalFunction]:
    return {logical_id: LocalFunction(spec, monitor) for logical_id, spec in specs.items()}
