"""Wires the review service from settings and an injected DynamoDB client."""

from typing import TYPE_CHECKING

from pandora_memory.review.metrics import EmfReviewMetrics, ReviewMetrics
from pandora_memory.review.repository import ReviewRepository, Tables
from pandora_memory.review.service import ReviewService
from pandora_memory.review.settings import ReviewSettings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from pandora_memory.secrets.findings import Redaction


def redact_on_demand(text: str) -> "Redaction":
    """The secret detectors load at the first text to redact (an edit, a note, a manual add): listing,
    reading and rejecting candidates never redact, so a container serving only those never loads them."""
    from pandora_memory.secrets import redact

    return redact(text)


def build_review_service(
    settings: ReviewSettings, dynamodb: "DynamoDBClient", metrics: ReviewMetrics | None = None
) -> ReviewService:
    tables = Tables(
        candidates=settings.candidates_table,
        memories=settings.memory_table,
        projections=settings.projections_table,
        feedback=settings.feedback_table,
    )
    return ReviewService(
        ReviewRepository(dynamodb, tables),
        redactor=redact_on_demand,
        metrics=metrics or EmfReviewMetrics(settings.metrics_namespace, settings.service_name),
    )
