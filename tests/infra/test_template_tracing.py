"""Tracing is on in AWS for every function and the API, and traces never carry replies or errors."""

from typing import Any

import pytest
from pandora_devstack.provision import function_environment
from pandora_devstack.template import Resolver, load_template

FUNCTION = "AWS::Serverless::Function"


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    defaults = template.get("Globals", {}).get("Function", {})
    return {
        logical_id: {**defaults, **resource.get("Properties", {})}
        for logical_id, resource in template["Resources"].items()
        if resource["Type"] == FUNCTION
    }


def test_every_function_has_active_tracing(template: dict[str, Any]) -> None:
    functions = _functions(template)
    assert len(functions) == 4
    assert {logical_id: props.get("Tracing") for logical_id, props in functions.items()} == dict.fromkeys(
        functions, "Active"
    )


def test_every_api_traces(template: dict[str, Any]) -> None:
    apis = [r["Properties"] for r in template["Resources"].values() if r["Type"] == "AWS::Serverless::Api"]
    assert apis
    assert all(api.get("TracingEnabled") is True for api in apis)


def test_every_function_names_its_service_and_keeps_replies_and_errors_out_of_traces(
    template: dict[str, Any],
) -> None:
    resolver = Resolver(template, stack_name="pandora-test", region="us-east-1", parameters={"Stage": "dev"})
    for logical_id in _functions(template):
        env = function_environment(template, resolver, logical_id)
        assert env.get("POWERTOOLS_SERVICE_NAME"), logical_id
        assert env.get("POWERTOOLS_TRACER_CAPTURE_RESPONSE") == "false", logical_id
        assert env.get("POWERTOOLS_TRACER_CAPTURE_ERROR") == "false", logical_id
