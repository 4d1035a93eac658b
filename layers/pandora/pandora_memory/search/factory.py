"""Wires the search reader from settings and AWS clients (injected, so tests and the local stack choose).

A function builds it once per container (module level or `functools.cache`), so the per-namespace
index survives between invocations:

    service = build_search_service(load_search_settings(), dynamodb_client, s3_client)
    results = service.search("real_life", "where do we deploy", limit=5)
"""

import time
from typing import TYPE_CHECKING

from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.ingest.revisions import RevisionRepository
from pandora_memory.search.memory_entries import recent_memories
from pandora_memory.search.reader import Clock, SearchService
from pandora_memory.search.settings import SearchSettings
from pandora_memory.storage.memories import MemoryRepository

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client


def build_search_service(
    settings: SearchSettings,
    dynamodb: "DynamoDBClient",
    s3: "S3Client",
    *,
    clock: Clock = time.monotonic,
) -> SearchService:
    return SearchService(
        projections=ProjectionRepository(dynamodb, s3, settings.projections_table, settings.memory_bucket),
        memories=recent_memories(MemoryRepository(dynamodb, settings.memory_table), settings.memory_limit),
        revisions=RevisionRepository(dynamodb, s3, settings.revisions_table, settings.memory_bucket),
        memory_max_age_seconds=settings.memory_max_age_seconds,
        clock=clock,
    )
