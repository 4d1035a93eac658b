"""Wires the review service from settings and an injected DynamoDB client."""

from typing import TYPE_CHECKING

from pandora_memory.review.metrics import EmfReviewMetrics, ReviewMetrics
from pandora_memory.review.repository import ReviewRepository, Tables
from pandora_memory.review.service import ReviewService
from pandora_memory.review.settings import ReviewSettings
from pandora_memory.secrets import redact

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


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
        redactor=redact,
        metrics=metrics or EmfReviewMetrics(settings.metrics_namespace, settings.service_name),
    )
