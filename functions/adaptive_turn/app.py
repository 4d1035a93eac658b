"""Lambda entry point of the ChatGPT Action `POST /api/memory/adaptive/turn`.

Thin by design: the resolver validates, the domain service decides, the resolver shapes the reply.
AWS clients are built once per container from the default session, so AWS_ENDPOINT_URL can point
them at a local emulator without the code knowing.
"""

from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config
from pandora_memory.settings import get_settings
from pandora_memory.turn.factory import build_turn_service
from pandora_memory.turn.http import SERVICE_KEY, create_resolver
from pandora_memory.turn.service import TurnService

logger = Logger()
app = create_resolver()

# Fail fast inside the 10 s function timeout; the API answers 503 and the caller retries.
_AWS_CONFIG = Config(connect_timeout=2, read_timeout=3, retries={"mode": "standard", "max_attempts": 3})


@cache
def turn_service() -> TurnService:
    return build_turn_service(
        get_settings(),
        dynamodb=boto3.client("dynamodb", config=_AWS_CONFIG),
        ssm=boto3.client("ssm", config=_AWS_CONFIG),
    )


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    app.append_context(**{SERVICE_KEY: turn_service()})
    return app.resolve(event, context)
