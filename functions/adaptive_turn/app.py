"""Lambda entry point of the ChatGPT Action: `POST /api/memory/adaptive/turn` and `POST /api/memory/search`.

Thin by design: the resolver validates, the domain services decide, the resolver shapes the reply.
AWS clients and services are built once per container from the default session, so AWS_ENDPOINT_URL
can point them at a local emulator without the code knowing, and the search index stays warm.
"""

import threading
from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config
from pandora_memory.search.settings import load_search_settings
from pandora_memory.settings import get_settings
from pandora_memory.turn.factory import ActionServices, build_action_services
from pandora_memory.turn.http import SEARCH_KEY, SERVICE_KEY, create_resolver

logger = Logger()
app = create_resolver()

# Fail fast inside the 10 s function timeout; the API answers 503 and the caller retries.
_AWS_CONFIG = Config(connect_timeout=2, read_timeout=3, retries={"mode": "standard", "max_attempts": 3})


@cache
def action_services() -> ActionServices:
    return build_action_services(
        get_settings(),
        load_search_settings(),
        dynamodb=boto3.client("dynamodb", config=_AWS_CONFIG),
        ssm=boto3.client("ssm", config=_AWS_CONFIG),
        s3=boto3.client("s3", config=_AWS_CONFIG),
    )


# One event at a time, as in a Lambda container: the resolver keeps the current request on itself, so a
# host that shares this module between threads (the local stack's HTTP server) must not interleave two.
_ONE_AT_A_TIME = threading.Lock()


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
def _handle(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = action_services()
    app.append_context(**{SERVICE_KEY: services.turn, SEARCH_KEY: services.search})
    return app.resolve(event, context)


def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    with _ONE_AT_A_TIME:
        return _handle(event, context)
