"""The functions' X-Ray tracer: Powertools' Tracer, with botocore patched so every AWS call is a subsegment.

Powertools imports the X-Ray SDK (hundreds of milliseconds of cold start) for any Tracer, even a
disabled one, unless it is given a provider. Where tracing is off (tests, the local stack, anywhere
outside Lambda) the tracer gets a provider that does nothing, so the SDK is never imported there.
Responses and errors stay out of the traces: a reply can carry memory text and an error message can
quote the data it choked on.
"""

import os
from collections.abc import AsyncGenerator, Generator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from aws_lambda_powertools import Tracer
from aws_lambda_powertools.tracing.base import BaseProvider, BaseSegment

TRACE_DISABLED_ENV = "POWERTOOLS_TRACE_DISABLED"
# Lambda sets the first; SAM CLI and Chalice's local modes set the others and run no X-Ray daemon.
_LAMBDA_ENV = "LAMBDA_TASK_ROOT"
_LOCAL_EMULATOR_ENVS = ("AWS_SAM_LOCAL", "AWS_CHALICE_CLI_MODE")
_TRUTHY = {"1", "true", "yes", "on", "y", "t"}
TRACED_MODULES = ("botocore",)


class _NoSegment(BaseSegment):
    def close(self, end_time: int | None = None) -> None:
        return None

    def add_subsegment(self, subsegment: Any) -> None:
        return None

    def remove_subsegment(self, subsegment: Any) -> None:
        return None

    def put_annotation(self, key: str, value: Any) -> None:
        return None

    def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None:
        return None

    def add_exception(self, exception: BaseException, stack: Any, remote: bool = False) -> None:
        return None


class NoTraceProvider(BaseProvider):
    """Stands in for the X-Ray recorder where tracing is off: records nothing, imports nothing."""

    @contextmanager
    def in_subsegment(self, name: str | None = None, **kwargs: Any) -> Generator[BaseSegment, None, None]:
        yield _NoSegment()

    @asynccontextmanager
    async def in_subsegment_async(
        self, name: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[BaseSegment, None]:
        yield _NoSegment()

    def put_annotation(self, key: str, value: Any) -> None:
        return None

    def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None:
        return None

    def patch(self, modules: Sequence[str]) -> None:
        return None

    def patch_all(self) -> None:
        return None


def tracing_disabled() -> bool:
    """Powertools' own rule: off when POWERTOOLS_TRACE_DISABLED says so or when not inside Lambda."""
    if os.getenv(TRACE_DISABLED_ENV, "false").strip().lower() in _TRUTHY:
        return True
    return not os.getenv(_LAMBDA_ENV) or any(os.getenv(name) for name in _LOCAL_EMULATOR_ENVS)


def build_tracer() -> Tracer:
    """The function's tracer; its service name comes from POWERTOOLS_SERVICE_NAME (template Globals)."""
    if tracing_disabled():
        return Tracer(disabled=True, auto_patch=False, provider=NoTraceProvider())
    return Tracer(patch_modules=TRACED_MODULES)
