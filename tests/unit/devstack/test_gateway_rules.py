from typing import Any

import pytest
from pandora_devstack.api_routes import (
    IamAuth,
    OpenAuth,
    TokenAuthorizer,
    UnsupportedTemplateError,
    match_route,
    read_routes,
)
from pandora_devstack.authorizers import judge_policy, method_arn
from pandora_devstack.proxy_events import proxy_result_to_http
from pandora_devstack.template import load_template

ARN = method_arn("us-east-1", "123456789012", "abc123", "dev", "post", "/api/memory/adaptive/turn")


def _template(events: dict[str, Any], api_auth: dict[str, Any] | None = None) -> dict[str, Any]:
    auth = (
        api_auth
        if api_auth is not None
        else {
            "DefaultAuthorizer": "AWS_IAM",
            "Authorizers": {
                "Bearer": {
                    "FunctionArn": {"Fn::GetAtt": ["AuthFn", "Arn"]},
                    "Identity": {"Header": "Authorization", "ValidationExpression": "^Bearer .+$"},
                }
            },
        }
    )
    return {
        "Resources": {
            "Api": {"Type": "AWS::Serverless::Api", "Properties": {"Auth": auth}},
            "AuthFn": {"Type": "AWS::Serverless::Function", "Properties": {}},
            "Fn": {"Type": "AWS::Serverless::Function", "Properties": {"Events": events}},
        }
    }


def _api_event(path: str, method: str, **auth: str) -> dict[str, Any]:
    props: dict[str, Any] = {"RestApiId": {"Ref": "Api"}, "Path": path, "Method": method}
    if auth:
        props["Auth"] = auth
    return {"Type": "Api", "Properties": props}


def test_method_arn_has_api_gateway_shape() -> None:
    assert ARN == "arn:aws:execute-api:us-east-1:123456789012:abc123/dev/POST/api/memory/adaptive/turn"


def test_routes_of_the_real_template_are_all_authenticated() -> None:
    routes = read_routes(load_template())
    assert routes
    assert not any(isinstance(route.auth, OpenAuth) for route in routes)
    bearer = [r for r in routes if isinstance(r.auth, TokenAuthorizer)]
    assert sorted(r.resource for r in bearer) == ["/api/memory/adaptive/turn", "/api/memory/search"]
    assert bearer[0].auth.function_id == "TokenAuthorizerFunction"  # type: ignore[union-attr]


def test_auth_inheritance_and_override() -> None:
    routes = read_routes(
        _template(
            {
                "Iam": _api_event("/a", "get"),
                "Bearer": _api_event("/b", "post", Authorizer="Bearer"),
                "Open": _api_event("/c", "get", Authorizer="NONE"),
            }
        )
    )
    by_path = {route.resource: route.auth for route in routes}
    assert by_path["/a"] == IamAuth()
    assert isinstance(by_path["/b"], TokenAuthorizer) and by_path["/b"].function_id == "AuthFn"
    assert by_path["/c"] == OpenAuth()


def test_matching_prefers_literals_and_extracts_path_parameters() -> None:
    routes = read_routes(
        _template(
            {
                "One": _api_event("/items/{id}", "get"),
                "Literal": _api_event("/items/special", "get"),
                "Greedy": _api_event("/files/{proxy+}", "any"),
            }
        )
    )
    found = match_route(routes, "GET", "/items/special")
    assert found is not None and found[0].event_name == "Literal"
    found = match_route(routes, "GET", "/items/42")
    assert found is not None and found[1] == {"id": "42"}
    found = match_route(routes, "DELETE", "/files/a/b.md")
    assert found is not None and found[1] == {"proxy": "a/b.md"}
    assert match_route(routes, "POST", "/items/42") is None
    assert match_route(routes, "GET", "/items/42/extra") is None


@pytest.mark.parametrize(
    "events",
    [
        {"E": {"Type": "Api", "Properties": {"Path": "/x", "Method": "get"}}},
        {"E": _api_event("/x", "get", Authorizer="Nope")},
        {"E": {"Type": "HttpApi", "Properties": {"Path": "/x", "Method": "get"}}},
    ],
)
def test_templates_the_local_stack_cannot_mirror_fail_loudly(events: dict[str, Any]) -> None:
    with pytest.raises(UnsupportedTemplateError):
        read_routes(_template(events))


def _policy(*statements: dict[str, Any]) -> dict[str, Any]:
    return {"principalId": "p", "policyDocument": {"Version": "2012-10-17", "Statement": list(statements)}}


def _statement(effect: str, resource: str | list[str], action: str = "execute-api:Invoke") -> dict[str, Any]:
    return {"Effect": effect, "Action": action, "Resource": resource}


def test_policy_allows_the_stage_wildcard() -> None:
    assert (
        judge_policy(
            _policy(_statement("Allow", ["arn:aws:execute-api:us-east-1:123456789012:abc123/dev/*/*"])), ARN
        )
        is None
    )


@pytest.mark.parametrize(
    "policy",
    [
        _policy(),
        _policy(_statement("Allow", "arn:aws:execute-api:us-east-1:123456789012:abc123/prod/*/*")),
        _policy(_statement("Allow", "arn:aws:execute-api:us-east-1:123456789012:other/dev/*/*")),
        _policy(_statement("Allow", "*", action="s3:GetObject")),
        _policy(_statement("Allow", "*"), _statement("Deny", ARN)),
    ],
)
def test_policy_refusals_are_403(policy: dict[str, Any]) -> None:
    refusal = judge_policy(policy, ARN)
    assert refusal is not None and refusal.status == 403


def test_proxy_results_map_to_http_and_malformed_ones_to_502() -> None:
    ok = proxy_result_to_http(
        {"statusCode": 201, "headers": {"X-A": "1"}, "multiValueHeaders": {"X-B": ["2", "3"]}, "body": "{}"}
    )
    assert ok.status == 201 and ("X-A", "1") in ok.headers and ("X-B", "3") in ok.headers and ok.body == b"{}"
    binary = proxy_result_to_http({"statusCode": 200, "body": "AAE=", "isBase64Encoded": True})
    assert binary.body == b"\x00\x01"
    for malformed in (None, {"body": "x"}, {"statusCode": "200"}, {"statusCode": 200, "body": {"a": 1}}):
        assert proxy_result_to_http(malformed).status == 502
