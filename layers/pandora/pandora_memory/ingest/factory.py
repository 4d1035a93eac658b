"""Wires the ingest pipeline from settings and AWS clients (injected, so tests and the local stack choose)."""

from datetime import timedelta
from typing import TYPE_CHECKING

from botocore.config import Config

from pandora_memory.ingest.chunks import ChunkRepository
from pandora_memory.ingest.config import IngestSettings
from pandora_memory.ingest.documents import DocumentRepository
from pandora_memory.ingest.metrics import EmfIngestMetrics, IngestMetrics
from pandora_memory.ingest.pipeline import Clock, IngestPipeline, IngestPolicy, Redactor
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.ingest.revisions import RevisionRepository
from pandora_memory.ingest.uploads import UploadStore
from pandora_memory.secrets import redact

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client

# Throttling and transient errors are retried by botocore with jittered backoff before a step fails.
CLIENT_CONFIG = Config(retries={"mode": "standard", "max_attempts": 5})


def build_pipeline(
    settings: IngestSettings,
    dynamodb: "DynamoDBClient",
    s3: "S3Client",
    *,
    metrics: IngestMetrics | None = None,
    redactor: Redactor = redact,
    clock: Clock | None = None,
) -> IngestPipeline:
    policy = IngestPolicy(
        bucket=settings.memory_bucket,
        max_markdown_bytes=settings.max_markdown_bytes,
        rename_window=timedelta(seconds=settings.rename_window_seconds),
        max_projection_attempts=settings.max_projection_attempts,
    )
    optional = {"clock": clock} if clock is not None else {}
    return IngestPipeline(
        uploads=UploadStore(s3, settings.memory_bucket),
        documents=DocumentRepository(dynamodb, settings.documents_table),
        revisions=RevisionRepository(dynamodb, s3, settings.revisions_table, settings.memory_bucket),
        chunks=ChunkRepository(dynamodb, settings.chunks_table),
        projections=ProjectionRepository(dynamodb, s3, settings.projections_table, settings.memory_bucket),
        metrics=metrics or EmfIngestMetrics(settings.metrics_namespace, settings.service_name),
        redactor=redactor,
        policy=policy,
        **optional,
    )
