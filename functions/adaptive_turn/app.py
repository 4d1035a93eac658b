"""Lambda entry point of the ChatGPT Action: `POST /api/memory/adaptive/turn` and `POST /api/memory/search`.

Thin by design: the resolver validates, the domain services decide, the resolver shapes the reply.
Services are built once per container at the first request, so the flag cache and the search index
stay warm; the S3 client is built only when a search snapshot is first loaded.
"""

from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from pandora_memory.aws_clients import client, client_on_first_use
from pandora_memory.search.settings import load_search_settings
from pandora_memory.settings import get_settings
from pandora_memory.tracing import build_tracer
from pandora_memory.turn.factory import ActionServices, build_action_services
from pandora_memory.turn.http import SEARCH_KEY, SERVICE_KEY, create_resolver

logger = Logger()
tracer = build_tracer()
app = create_resolver()


@cache
@tracer.capture_method(capture_response=False)  # the container's one-off set-up, in its first trace
def action_services() -> ActionServices:
    return build_action_services(
        get_settings(),
        load_search_settings(),
        dynamodb=client("dynamodb"),
        ssm=client("ssm"),
        s3=client_on_first_use("s3"),
    )


# Neither the reply nor an error goes into the trace: both can carry memory text.
@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = action_services()
    app.append_context(**{SERVICE_KEY: services.turn, SEARCH_KEY: services.search})
    return app.resolve(event, context)
