"""Wires the GPT Action's services from settings and AWS clients (injected, so tests and the local stack
choose). Built once per container: the flag cache, the feedback figures and the per-namespace search
index live as long as it does, which is what keeps a warm turn to one read.
"""

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aws_lambda_powertools.utilities.parameters import SSMProvider

from pandora_memory.feedback.provider import build_feedback_provider
from pandora_memory.flags import SsmFlagSource
from pandora_memory.search.settings import SearchSettings
from pandora_memory.settings import Settings
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.turn.deferred_search import DeferredSearch
from pandora_memory.turn.metrics import EmfTurnMetrics, TurnMetrics
from pandora_memory.turn.service import TurnService, TurnTuning

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_ssm import SSMClient

    from pandora_memory.search.reader import Clock, SearchService
    from pandora_memory.turn.memory_ledger import MemoryLedger


@dataclass(frozen=True)
class ActionServices:
    """The turn and the search endpoint, sharing one search index per namespace (built on first use)."""

    turn: TurnService
    search: DeferredSearch


def build_search(
    settings: SearchSettings,
    dynamodb: "DynamoDBClient",
    s3: "S3Client",
    *,
    clock: "Clock" = time.monotonic,
) -> "tuple[SearchService, MemoryLedger]":
    """The search reader without revision history (the Action never reads it), its memories recorded."""
    # Loaded here, not with the module: only a turn that packs context or a search needs them.
    from pandora_memory.ingest.projections import ProjectionRepository
    from pandora_memory.search.memory_entries import recent_memories
    from pandora_memory.search.reader import SearchService
    from pandora_memory.storage.memories import MemoryRepository
    from pandora_memory.turn.memory_ledger import MemoryLedger

    ledger = MemoryLedger(
        recent_memories(MemoryRepository(dynamodb, settings.memory_table), settings.memory_limit)
    )
    search = SearchService(
        projections=ProjectionRepository(dynamodb, s3, settings.projections_table, settings.memory_bucket),
        memories=ledger,
        memory_max_age_seconds=settings.memory_max_age_seconds,
        clock=clock,
    )
    return search, ledger


def build_action_services(
    settings: Settings,
    search_settings: SearchSettings,
    dynamodb: "DynamoDBClient",
    ssm: "SSMClient",
    s3: "S3Client",
    metrics: TurnMetrics | None = None,
) -> ActionServices:
    if not settings.feedback_table:
        raise ValueError("FEEDBACK_TABLE is not set: the turn tunes candidates with review feedback")
    emitter = metrics or EmfTurnMetrics(settings.metrics_namespace, settings.service_name)
    search = DeferredSearch(lambda: build_search(search_settings, dynamodb, s3), emitter)
    turn = TurnService(
        flags=SsmFlagSource(
            SSMProvider(boto3_client=ssm), settings.flags_path, settings.flags_max_age_seconds
        ),
        context_sources=[search],
        candidates=CandidateRepository(dynamodb, settings.candidates_table),
        capture=AutoCaptureWriter(
            dynamodb,
            settings.memory_table,
            settings.candidates_table,
            projections_table=search_settings.projections_table,
        ),
        metrics=emitter,
        feedback=build_feedback_provider(dynamodb, settings.feedback_table),
        tuning=TurnTuning(
            context_budget_tokens=settings.context_budget_tokens,
            auto_capture_min_confidence=settings.auto_capture_min_confidence,
        ),
    )
    return ActionServices(turn=turn, search=search)
