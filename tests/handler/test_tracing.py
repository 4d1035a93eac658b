"""Every function traces with Powertools' Tracer: handler wrapped, botocore patched in Lambda, and off in
tests without loading the X-Ray SDK (a disabled Tracer would otherwise import it, costing cold start)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from aws_lambda_powertools import Tracer
from pandora_memory.tracing import NoTraceProvider, build_tracer, tracing_disabled

REPO = Path(__file__).resolve().parents[2]
FUNCTION_APPS = sorted((REPO / "functions").glob("*/app.py"))
TRACER_WRAPPER = "Tracer.capture_lambda_handler.<locals>.decorate"

# Loads every handler in a fresh interpreter, as Lambda does, and reports each one's tracer.
_INSPECT = """
import importlib.util, json, sys
report = {}
for path in sys.argv[1:]:
    name = "traced_" + path.split("/")[-2]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    wrappers, handler = [], module.lambda_handler
    while handler is not None:
        wrappers.append(handler.__code__.co_qualname)
        handler = getattr(handler, "__wrapped__", None)
    tracer = module.tracer
    report[path.split("/")[-2]] = {
        "service": tracer.service,
        "disabled": tracer.disabled,
        "provider": type(tracer.provider).__name__,
        "wrappers": wrappers,
    }
report["xray_loaded"] = sorted(name for name in sys.modules if name.startswith("aws_xray_sdk.core"))
print(json.dumps(report))
"""


def _run(code: str, env: dict[str, str], *args: str) -> dict[str, object]:
    completed = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, object] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def _test_env(**extra: str) -> dict[str, str]:
    import os

    env = {key: value for key, value in os.environ.items() if key != "LAMBDA_TASK_ROOT"}
    return {**env, "POWERTOOLS_SERVICE_NAME": "pandora-memory", "POWERTOOLS_TRACE_DISABLED": "true", **extra}


def test_every_handler_is_wrapped_by_its_tracer_and_tracing_is_off_in_tests() -> None:
    assert len(FUNCTION_APPS) == 4
    report = _run(_INSPECT, _test_env(), *(str(path) for path in FUNCTION_APPS))
    assert report.pop("xray_loaded") == []  # the X-Ray SDK's recorder never loads where tracing is off
    assert set(report) == {path.parent.name for path in FUNCTION_APPS}
    for function, tracer in report.items():
        assert isinstance(tracer, dict)
        assert tracer["service"] == "pandora-memory", function
        assert tracer["disabled"] is True, function
        assert tracer["provider"] == NoTraceProvider.__name__, function
        # The logger's wrapper outside, the tracer's inside it, the function's own handler last.
        assert TRACER_WRAPPER in tracer["wrappers"], function
        assert tracer["wrappers"][-1] == "lambda_handler", function


def test_in_lambda_the_tracer_records_with_x_ray_and_patches_botocore_only() -> None:
    code = """
import json
from aws_xray_sdk.core import patcher
from pandora_memory.tracing import build_tracer
tracer = build_tracer()
print(json.dumps({"disabled": tracer.disabled, "provider": type(tracer.provider).__module__,
                  "patched": sorted(patcher._PATCHED_MODULES), "service": tracer.service}))
"""
    env = _test_env(LAMBDA_TASK_ROOT="/var/task", POWERTOOLS_TRACE_DISABLED="false")
    report = _run(code, env)
    assert report["disabled"] is False
    assert str(report["provider"]).startswith("aws_xray_sdk")
    assert report["patched"] == ["botocore"]
    assert report["service"] == "pandora-memory"


@pytest.mark.parametrize(
    ("env", "disabled"),
    [
        ({"POWERTOOLS_TRACE_DISABLED": "true", "LAMBDA_TASK_ROOT": "/var/task"}, True),
        ({"POWERTOOLS_TRACE_DISABLED": "false"}, True),  # outside Lambda: no X-Ray daemon to send to
        (
            {"POWERTOOLS_TRACE_DISABLED": "false", "LAMBDA_TASK_ROOT": "/var/task", "AWS_SAM_LOCAL": "true"},
            True,
        ),
        ({"POWERTOOLS_TRACE_DISABLED": "false", "LAMBDA_TASK_ROOT": "/var/task"}, False),
    ],
)
def test_tracing_is_off_where_powertools_would_turn_it_off(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], disabled: bool
) -> None:
    for name in ("LAMBDA_TASK_ROOT", "AWS_SAM_LOCAL", "AWS_CHALICE_CLI_MODE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert tracing_disabled() is disabled


def test_a_disabled_tracer_still_runs_the_handler_and_its_errors() -> None:
    tracer = build_tracer()
    assert isinstance(tracer, Tracer) and tracer.disabled

    @tracer.capture_lambda_handler(capture_response=False, capture_error=False)
    def handler(event: dict[str, str], context: object) -> dict[str, str]:
        if event.get("fail"):
            raise ValueError("refused")
        return {"echo": event["value"]}

    assert handler({"value": "x"}, None) == {"echo": "x"}
    with pytest.raises(ValueError, match="refused"):
        handler({"fail": "yes"}, None)
