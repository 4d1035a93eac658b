"""Lambda entry point of the review API (AWS_IAM only): the candidate inbox and the feedback summary.

Thin by design: the resolver validates and checks the IAM caller, the review service decides, the
resolver shapes the reply. The DynamoDB client comes from the default session, so AWS_ENDPOINT_URL
can point it at a local emulator without the code knowing.
"""

from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from pandora_memory.aws_clients import client
from pandora_memory.review.factory import build_review_service
from pandora_memory.review.http import SERVICE_KEY, create_resolver
from pandora_memory.review.service import ReviewService
from pandora_memory.review.settings import get_review_settings
from pandora_memory.tracing import build_tracer

logger = Logger()
tracer = build_tracer()
app = create_resolver()


@cache
@tracer.capture_method(capture_response=False)  # the container's one-off set-up, in its first trace
def review_service() -> ReviewService:
    return build_review_service(get_review_settings(), client("dynamodb"))


# Neither the reply nor an error goes into the trace: both can carry candidate text.
@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    app.append_context(**{SERVICE_KEY: review_service()})
    return app.resolve(event, context)
