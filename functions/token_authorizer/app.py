"""API Gateway TOKEN authorizer: lets a Pandora bearer token through to every route of its stage.

The allow policy covers `<api>/<stage>/*/*` because API Gateway caches it per token for all bearer
routes. The namespace scope travels in the context; the turn handler enforces it per request.
"""

from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit, single_metric
from aws_lambda_powertools.utilities.data_classes.api_gateway_authorizer_event import (
    APIGatewayAuthorizerResponse,
    APIGatewayAuthorizerTokenEvent,
)
from aws_lambda_powertools.utilities.typing import LambdaContext
from pandora_memory.settings import get_settings
from pandora_memory.storage.token_store import TokenStore
from pandora_memory.tokens import AuthenticationError, TokenRecord, authenticate, scope_claim
from pandora_memory.tracing import build_tracer

AUTHORIZER_DECISION_METRIC = "AuthorizerDecision"
OUTCOME_DIMENSION = "outcome"
ALLOW = "allow"
DENY = "deny"
# API Gateway answers 401 only for this exact message; anything else becomes a 500.
UNAUTHORIZED = "Unauthorized"

logger = Logger()
tracer = build_tracer()


@cache
@tracer.capture_method(capture_response=False)  # the container's one-off set-up, in its first trace
def token_store() -> TokenStore:
    return TokenStore(boto3.client("ssm"), tokens_path=get_settings().tokens_path)


def _count(outcome: str) -> None:
    with single_metric(name=AUTHORIZER_DECISION_METRIC, unit=MetricUnit.Count, value=1) as metric:
        metric.add_dimension(name=OUTCOME_DIMENSION, value=outcome)


def _allow_policy(method_arn: str, record: TokenRecord) -> dict[str, Any]:
    policy = APIGatewayAuthorizerResponse.from_route_arn(
        method_arn,
        principal_id=record.token_id,
        context={"token_id": record.token_id, "namespaces": scope_claim(record)},
    )
    policy.allow_all_routes()
    return policy.asdict()


# log_event stays False whatever the environment says, and the trace holds neither reply nor error:
# the event holds the bearer token.
@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = APIGatewayAuthorizerTokenEvent(event)
    try:
        record = authenticate(request.get("authorizationToken"), token_store().get)
    except AuthenticationError as refused:
        logger.info(
            "bearer token refused",
            extra={"outcome": DENY, "reason": refused.reason, "token_id": refused.token_id},
        )
        _count(DENY)
        raise Exception(UNAUTHORIZED) from None
    logger.info("bearer token accepted", extra={"outcome": ALLOW, "token_id": record.token_id})
    _count(ALLOW)
    return _allow_policy(request.method_arn, record)
