"""Lambda entry point of the review API (AWS_IAM only): the candidate inbox and the feedback summary.

Thin by design: the resolver validates and checks the IAM caller, the review service decides, the
resolver shapes the reply. The DynamoDB client comes from the default session, so AWS_ENDPOINT_URL
can point it at a local emulator without the code knowing.
"""

from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config
from pandora_memory.review.factory import build_review_service
from pandora_memory.review.http import SERVICE_KEY, create_resolver
from pandora_memory.review.service import ReviewService
from pandora_memory.review.settings import get_review_settings

logger = Logger()
app = create_resolver()

# Fail fast inside the function timeout; the API answers 503 and the caller retries.
_AWS_CONFIG = Config(connect_timeout=2, read_timeout=3, retries={"mode": "standard", "max_attempts": 3})


@cache
def review_service() -> ReviewService:
    return build_review_service(get_review_settings(), boto3.client("dynamodb", config=_AWS_CONFIG))


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    app.append_context(**{SERVICE_KEY: review_service()})
    return app.resolve(event, context)
