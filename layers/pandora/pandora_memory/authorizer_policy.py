"""The IAM policy a TOKEN authorizer returns: allow every route of the calling API's stage.

Built here rather than with Powertools' APIGatewayAuthorizerResponse: importing that module imports
every Powertools event data class, a sizeable share of the authorizer's cold start, for one dict.
The shape is the one Powertools builds (tests compare both).
"""

from collections.abc import Mapping
from typing import Any

POLICY_VERSION = "2012-10-17"
INVOKE_ACTION = "execute-api:Invoke"


class MalformedMethodArnError(ValueError):
    """The event's methodArn is not an API Gateway method ARN."""


def stage_routes_arn(method_arn: str) -> str:
    """`arn:aws:execute-api:<region>:<account>:<api>/<stage>/<verb>/<path>` -> every verb and path of
    that stage: `.../<api>/<stage>/*/*`."""
    parts = method_arn.split(":", 5)
    if len(parts) != 6 or parts[0] != "arn" or parts[2] != "execute-api":
        raise MalformedMethodArnError("not an execute-api method ARN")
    api_id, _, rest = parts[5].partition("/")
    stage = rest.partition("/")[0]
    if not api_id or not stage:
        raise MalformedMethodArnError("the method ARN names no API and stage")
    return f"arn:{parts[1]}:execute-api:{parts[3]}:{parts[4]}:{api_id}/{stage}/*/*"


def allow_stage_policy(method_arn: str, principal_id: str, context: Mapping[str, str]) -> dict[str, Any]:
    """The authorizer's answer letting `principal_id` call every route of the stage in `method_arn`."""
    statement = {"Action": INVOKE_ACTION, "Effect": "Allow", "Resource": [stage_routes_arn(method_arn)]}
    policy: dict[str, Any] = {
        "principalId": principal_id,
        "policyDocument": {"Version": POLICY_VERSION, "Statement": [statement]},
    }
    if context:
        policy["context"] = dict(context)
    return policy
