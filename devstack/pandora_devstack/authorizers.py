"""Runs a TOKEN Lambda authorizer the way API Gateway does and judges the policy it returns.

API Gateway's rules, reproduced: no identity header or one failing ValidationExpression is a 401
without calling the function; the function raising exactly "Unauthorized" is a 401; any other
failure is a 500; the policy must Allow `execute-api:Invoke` on the method ARN and no Deny may match
it, else 403. The context becomes `requestContext.authorizer`, with `principalId` added.
"""

import re
import sys
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pandora_devstack.api_routes import TokenAuthorizer
from pandora_devstack.lambda_runtime import LocalFunction
from pandora_devstack.messages import HttpRequest, HttpResponse, json_response

UNAUTHORIZED_MESSAGE = "Unauthorized"
NOT_ALLOWED = "User is not authorized to access this resource"
EXPLICIT_DENY = "User is not authorized to access this resource with an explicit deny"


@dataclass(frozen=True)
class AuthorizerDecision:
    refusal: HttpResponse | None = None
    context: dict[str, Any] = field(default_factory=dict)


def method_arn(region: str, account_id: str, api_id: str, stage: str, method: str, path: str) -> str:
    return f"arn:aws:execute-api:{region}:{account_id}:{api_id}/{stage}/{method.upper()}/{path.lstrip('/')}"


def _iam_glob(pattern: str) -> re.Pattern[str]:
    # IAM wildcards: `*` is any run of characters (slashes included), `?` exactly one.
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern))


def _as_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [str(item) for item in value]
    return []


def _statement_matches(statement: Mapping[str, Any], arn: str) -> bool:
    actions = _as_list(statement.get("Action"))
    if not any(_iam_glob(action).fullmatch("execute-api:Invoke") for action in actions):
        return False
    return any(_iam_glob(resource).fullmatch(arn) for resource in _as_list(statement.get("Resource")))


def judge_policy(policy: Mapping[str, Any], arn: str) -> HttpResponse | None:
    """None when the policy lets `arn` through; otherwise API Gateway's 403."""
    statements = policy.get("policyDocument", {}).get("Statement", [])
    if isinstance(statements, Mapping):
        statements = [statements]
    matching = [s for s in statements if isinstance(s, Mapping) and _statement_matches(s, arn)]
    if any(str(s.get("Effect", "")).lower() == "deny" for s in matching):
        return json_response(403, {"Message": EXPLICIT_DENY}, error_type="AccessDeniedException")
    if not any(str(s.get("Effect", "")).lower() == "allow" for s in matching):
        return json_response(403, {"Message": NOT_ALLOWED}, error_type="AccessDeniedException")
    return None


def _unauthorized() -> HttpResponse:
    return json_response(401, {"message": UNAUTHORIZED_MESSAGE}, error_type="UnauthorizedException")


def _configuration_error() -> HttpResponse:
    return json_response(500, {"message": None}, error_type="AuthorizerConfigurationException")


def _flat_context(context: object) -> dict[str, Any] | None:
    """API Gateway accepts only string, number and boolean context values."""
    if context is None:
        return {}
    if not isinstance(context, Mapping):
        return None
    if not all(isinstance(value, str | int | float | bool) for value in context.values()):
        return None
    return dict(context)


def run_token_authorizer(
    authorizer: TokenAuthorizer, function: LocalFunction, request: HttpRequest, arn: str
) -> AuthorizerDecision:
    token = request.header(authorizer.header)
    if not token:
        return AuthorizerDecision(refusal=_unauthorized())
    if authorizer.validation_expression and not re.fullmatch(authorizer.validation_expression, token):
        return AuthorizerDecision(refusal=_unauthorized())
    started = time.monotonic()
    try:
        policy = function.invoke({"type": "TOKEN", "authorizationToken": token, "methodArn": arn})
    except Exception as error:
        if str(error) == UNAUTHORIZED_MESSAGE:
            return AuthorizerDecision(refusal=_unauthorized())
        print(f"[pandora-local] authorizer {authorizer.name} failed:", file=sys.stderr)
        traceback.print_exception(error, file=sys.stderr)
        return AuthorizerDecision(refusal=_configuration_error())
    if not isinstance(policy, Mapping) or "principalId" not in policy:
        return AuthorizerDecision(refusal=_configuration_error())
    context = _flat_context(policy.get("context"))
    if context is None:
        return AuthorizerDecision(refusal=_configuration_error())
    refusal = judge_policy(policy, arn)
    if refusal is not None:
        return AuthorizerDecision(refusal=refusal)
    latency_ms = int((time.monotonic() - started) * 1000)
    return AuthorizerDecision(
        context={**context, "principalId": policy["principalId"], "integrationLatency": latency_ms}
    )
