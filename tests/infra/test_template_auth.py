"""Nothing in template.yaml may be reachable without authentication.

Every API method must be AWS_IAM (the API's default) or name the bearer-token authorizer; anything the
check cannot read (OpenAPI bodies, HTTP APIs, raw API Gateway methods, function URLs) must be
authenticated explicitly or it counts as open.
"""

import copy
from collections.abc import Mapping
from typing import Any

import pytest
from pandora_devstack.template import load_template

IAM = "AWS_IAM"


def _ref(value: object) -> str | None:
    return str(value["Ref"]) if isinstance(value, Mapping) and "Ref" in value else None


def _api_findings(name: str, props: Mapping[str, Any]) -> list[str]:
    findings = []
    auth = props.get("Auth", {})
    if auth.get("DefaultAuthorizer") != IAM:
        findings.append(f"{name}: DefaultAuthorizer must be {IAM}, not {auth.get('DefaultAuthorizer')!r}")
    if "DefinitionBody" in props or "DefinitionUri" in props:
        findings.append(f"{name}: an OpenAPI definition can declare open methods; use function events")
    if "Cors" in props and auth.get("AddDefaultAuthorizerToCorsPreflight") is False:
        findings.append(f"{name}: CORS preflight (OPTIONS) would be unauthenticated")
    for authorizer_name, spec in auth.get("Authorizers", {}).items():
        identity = spec.get("Identity", {})
        if "FunctionArn" not in spec or not (identity.get("Header") or identity.get("Headers")):
            findings.append(
                f"{name}.{authorizer_name}: authorizer must be a Lambda authorizer with an identity"
            )
    return findings


def _event_findings(
    resources: Mapping[str, Any], function: str, event: str, kind: str, props: Mapping[str, Any]
) -> list[str]:
    where = f"{function}.{event}"
    authorizer = props.get("Auth", {}).get("Authorizer")
    if authorizer == "NONE":
        return [f"{where}: Authorizer NONE makes the method public"]
    if kind == "HttpApi":
        api = _ref(props.get("ApiId"))
        default = resources.get(api or "", {}).get("Properties", {}).get("Auth", {}).get("DefaultAuthorizer")
        if api is None or (authorizer is None and default is None):
            return [f"{where}: HttpApi event without an authorizer is public"]
        return []
    api = _ref(props.get("RestApiId"))
    if api is None or resources.get(api, {}).get("Type") != "AWS::Serverless::Api":
        return [f"{where}: Api event outside a declared AWS::Serverless::Api (implicit APIs are open)"]
    declared = resources[api].get("Properties", {}).get("Auth", {}).get("Authorizers", {})
    if authorizer is not None and authorizer != IAM and authorizer not in declared:
        return [f"{where}: names unknown authorizer {authorizer!r}"]
    return []


def unauthenticated_methods(template: Mapping[str, Any]) -> list[str]:
    resources: Mapping[str, Any] = template["Resources"]
    findings: list[str] = []
    for name, resource in resources.items():
        kind = resource.get("Type")
        props = resource.get("Properties", {})
        if kind == "AWS::Serverless::Api":
            findings += _api_findings(name, props)
        elif kind == "AWS::Serverless::HttpApi" and not props.get("Auth", {}).get("DefaultAuthorizer"):
            findings.append(f"{name}: HTTP API without a DefaultAuthorizer")
        elif kind == "AWS::ApiGateway::Method" and props.get("AuthorizationType", "NONE") == "NONE":
            findings.append(f"{name}: API Gateway method with AuthorizationType NONE")
        elif kind == "AWS::ApiGatewayV2::Route" and props.get("AuthorizationType", "NONE") == "NONE":
            findings.append(f"{name}: HTTP API route with AuthorizationType NONE")
        elif kind == "AWS::Lambda::Url" and props.get("AuthType") != IAM:
            findings.append(f"{name}: function URL without AWS_IAM")
        elif kind == "AWS::Serverless::Function":
            url = props.get("FunctionUrlConfig")
            if url is not None and url.get("AuthType") != IAM:
                findings.append(f"{name}: function URL without AWS_IAM")
            for event, spec in props.get("Events", {}).items():
                if spec.get("Type") in ("Api", "HttpApi"):
                    findings += _event_findings(
                        resources, name, event, spec["Type"], spec.get("Properties", {})
                    )
    return findings


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def _api_events(template: Mapping[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (name, event, spec)
        for name, resource in template["Resources"].items()
        if resource.get("Type") == "AWS::Serverless::Function"
        for event, spec in resource.get("Properties", {}).get("Events", {}).items()
        if spec.get("Type") == "Api"
    ]


def test_every_api_method_of_the_template_is_authenticated(template: dict[str, Any]) -> None:
    assert unauthenticated_methods(template) == []


def test_the_check_sees_both_kinds_of_route(template: dict[str, Any]) -> None:
    authorizers = {
        spec["Properties"].get("Auth", {}).get("Authorizer") for _, _, spec in _api_events(template)
    }
    assert "BearerTokenAuthorizer" in authorizers
    assert None in authorizers or IAM in authorizers


def _first_bearer_event(template: dict[str, Any]) -> dict[str, Any]:
    for _, _, spec in _api_events(template):
        if spec["Properties"].get("Auth", {}).get("Authorizer") == "BearerTokenAuthorizer":
            return spec
    raise AssertionError("no bearer route in the template")


def _mutations() -> dict[str, Any]:
    def authorizer_none(t: dict[str, Any]) -> None:
        _first_bearer_event(t)["Properties"]["Auth"]["Authorizer"] = "NONE"

    def no_default(t: dict[str, Any]) -> None:
        del t["Resources"]["PandoraApi"]["Properties"]["Auth"]["DefaultAuthorizer"]

    def bearer_default(t: dict[str, Any]) -> None:
        t["Resources"]["PandoraApi"]["Properties"]["Auth"]["DefaultAuthorizer"] = "BearerTokenAuthorizer"

    def implicit_api(t: dict[str, Any]) -> None:
        del _first_bearer_event(t)["Properties"]["RestApiId"]

    def unknown_authorizer(t: dict[str, Any]) -> None:
        _first_bearer_event(t)["Properties"]["Auth"]["Authorizer"] = "Missing"

    def open_http_api_event(t: dict[str, Any]) -> None:
        events = t["Resources"]["AdaptiveTurnFunction"]["Properties"]["Events"]
        events["Open"] = {"Type": "HttpApi", "Properties": {"Path": "/open", "Method": "get"}}

    def raw_method(t: dict[str, Any]) -> None:
        t["Resources"]["RawMethod"] = {"Type": "AWS::ApiGateway::Method", "Properties": {"HttpMethod": "GET"}}

    def function_url(t: dict[str, Any]) -> None:
        t["Resources"]["AdaptiveTurnFunction"]["Properties"]["FunctionUrlConfig"] = {"AuthType": "NONE"}

    def openapi_body(t: dict[str, Any]) -> None:
        t["Resources"]["PandoraApi"]["Properties"]["DefinitionBody"] = {"openapi": "3.0.1", "paths": {}}

    def open_preflight(t: dict[str, Any]) -> None:
        props = t["Resources"]["PandoraApi"]["Properties"]
        props["Cors"] = {"AllowOrigin": "'*'"}
        props["Auth"]["AddDefaultAuthorizerToCorsPreflight"] = False

    return {
        f.__name__: f
        for f in (
            authorizer_none,
            no_default,
            bearer_default,
            implicit_api,
            unknown_authorizer,
            open_http_api_event,
            raw_method,
            function_url,
            openapi_body,
            open_preflight,
        )
    }


@pytest.mark.parametrize("mutation", sorted(_mutations()))
def test_each_way_of_opening_a_method_is_caught(template: dict[str, Any], mutation: str) -> None:
    mutated = copy.deepcopy(template)
    _mutations()[mutation](mutated)
    assert unauthenticated_methods(mutated) != []
