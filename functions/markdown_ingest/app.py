"""S3 ObjectCreated/ObjectRemoved under memory/ -> redacted revisions, chunks and a search projection.

Bad input is logged and counted, never retried. A failed step has already flagged the document
pending when it reaches this handler; re-raising it lets the asynchronous retries and then the
dead-letter queue take over. Log lines carry outcomes, reasons and hashes, never document text.
"""

from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from pandora_memory.ingest.config import load_ingest_settings
from pandora_memory.ingest.events import parse_event
from pandora_memory.ingest.factory import CLIENT_CONFIG, build_pipeline
from pandora_memory.ingest.outcomes import IngestStepError, OutcomeKind
from pandora_memory.ingest.pipeline import IngestPipeline
from pandora_memory.tracing import build_tracer

logger = Logger()
tracer = build_tracer()


@cache
@tracer.capture_method(capture_response=False)  # the container's one-off set-up, in its first trace
def pipeline() -> IngestPipeline:
    return build_pipeline(
        load_ingest_settings(),
        boto3.client("dynamodb", config=CLIENT_CONFIG),
        boto3.client("s3", config=CLIENT_CONFIG),
    )


# log_event stays False and the trace holds neither reply nor error: an event names keys that may be
# rejected for carrying a credential.
@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    outcomes: list[dict[str, object]] = []
    failure: IngestStepError | None = None
    for record in parse_event(event):
        try:
            outcome = pipeline().process(record)
        except IngestStepError as error:
            # Later records still run; their effects are idempotent when the retry repeats them.
            logger.error(
                "markdown ingest step failed",
                extra={
                    "step": error.step,
                    "error_code": error.code,
                    "document_marked": error.document_marked,
                },
            )
            failure = failure or error
            continue
        fields = outcome.as_log()
        if outcome.kind is OutcomeKind.REJECTED:
            logger.warning("markdown ingest rejected", extra=fields)
        else:
            logger.info("markdown ingest", extra=fields)
        outcomes.append(fields)
    if failure is not None:
        raise failure
    return {"records": len(outcomes), "outcomes": outcomes}
