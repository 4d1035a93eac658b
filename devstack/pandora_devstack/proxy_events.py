"""API Gateway REST (v1) Lambda proxy events and the translation of proxy results back to HTTP."""

import base64
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from pandora_devstack.api_routes import Route
from pandora_devstack.messages import HttpRequest, HttpResponse, json_response


@dataclass(frozen=True)
class ApiIdentity:
    """What API Gateway knows about the caller; IAM-signed calls add the key and the user."""

    source_ip: str
    user_agent: str | None
    access_key: str | None = None
    user_arn: str | None = None
    account_id: str | None = None
    user: str | None = None

    def as_event(self) -> dict[str, Any]:
        return {
            "cognitoIdentityPoolId": None,
            "cognitoIdentityId": None,
            "cognitoAuthenticationType": None,
            "cognitoAuthenticationProvider": None,
            "principalOrgId": None,
            "apiKey": None,
            "apiKeyId": None,
            "accountId": self.account_id,
            "caller": self.user,
            "user": self.user,
            "userArn": self.user_arn,
            "accessKey": self.access_key,
            "sourceIp": self.source_ip,
            "userAgent": self.user_agent,
        }


@dataclass(frozen=True)
class ApiStage:
    api_id: str
    stage: str
    account_id: str
    domain_name: str


def _headers(request: HttpRequest) -> tuple[dict[str, str] | None, dict[str, list[str]] | None]:
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for name, value in request.headers:
        single[name] = value
        multi.setdefault(name, []).append(value)
    return (single or None), (multi or None)


def _query(request: HttpRequest) -> tuple[dict[str, str] | None, dict[str, list[str]] | None]:
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for name, value in parse_qsl(request.raw_query, keep_blank_values=True):
        single[name] = value
        multi.setdefault(name, []).append(value)
    return (single or None), (multi or None)


def _body(raw: bytes) -> tuple[str | None, bool]:
    if not raw:
        return None, False
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return base64.b64encode(raw).decode("ascii"), True


def rest_proxy_event(
    request: HttpRequest,
    route: Route,
    path_parameters: Mapping[str, str],
    stage: ApiStage,
    request_id: str,
    identity: ApiIdentity,
    authorizer: Mapping[str, Any] | None,
) -> dict[str, Any]:
    headers, multi_headers = _headers(request)
    query, multi_query = _query(request)
    body, is_base64 = _body(request.body)
    now = datetime.now(UTC)
    context: dict[str, Any] = {
        "accountId": stage.account_id,
        "apiId": stage.api_id,
        "domainName": stage.domain_name,
        "domainPrefix": stage.domain_name.split(".")[0],
        "extendedRequestId": request_id,
        "httpMethod": request.method.upper(),
        "identity": identity.as_event(),
        "path": f"/{stage.stage}{request.path}",
        "protocol": "HTTP/1.1",
        "requestId": request_id,
        "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
        "requestTimeEpoch": int(time.time() * 1000),
        "resourceId": route.event_name,
        "resourcePath": route.resource,
        "stage": stage.stage,
    }
    if authorizer is not None:
        context["authorizer"] = dict(authorizer)
    return {
        "resource": route.resource,
        "path": request.path,
        "httpMethod": request.method.upper(),
        "headers": headers,
        "multiValueHeaders": multi_headers,
        "queryStringParameters": query,
        "multiValueQueryStringParameters": multi_query,
        "pathParameters": dict(path_parameters) or None,
        "stageVariables": None,
        "requestContext": context,
        "body": body,
        "isBase64Encoded": is_base64,
    }


def bad_gateway() -> HttpResponse:
    return json_response(502, {"message": "Internal server error"})


def proxy_result_to_http(result: object) -> HttpResponse:
    """A Lambda proxy result as HTTP; a malformed result is API Gateway's 502, as in AWS."""
    if not isinstance(result, Mapping) or not isinstance(result.get("statusCode"), int):
        return bad_gateway()
    headers: list[tuple[str, str]] = []
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((str(name), str(value)) for value in values)
    for name, value in (result.get("headers") or {}).items():
        if (str(name), str(value)) not in headers:
            headers.append((str(name), str(value)))
    body = result.get("body") or ""
    if not isinstance(body, str):
        return bad_gateway()
    payload = base64.b64decode(body) if result.get("isBase64Encoded") else body.encode("utf-8")
    return HttpResponse(int(result["statusCode"]), tuple(headers), payload)
