"""Wires the turn service from settings and AWS clients (injected, so tests and the local stack choose)."""

from typing import TYPE_CHECKING

from aws_lambda_powertools.utilities.parameters import SSMProvider

from pandora_memory.flags import SsmFlagSource
from pandora_memory.settings import Settings
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.storage.memories import MemoryRepository
from pandora_memory.turn.context_pack import MemoryContextSource
from pandora_memory.turn.metrics import EmfTurnMetrics, TurnMetrics
from pandora_memory.turn.service import TurnService, TurnTuning

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_ssm import SSMClient


def build_turn_service(
    settings: Settings,
    dynamodb: "DynamoDBClient",
    ssm: "SSMClient",
    metrics: TurnMetrics | None = None,
) -> TurnService:
    memories = MemoryRepository(dynamodb, settings.memory_table)
    return TurnService(
        flags=SsmFlagSource(
            SSMProvider(boto3_client=ssm), settings.flags_path, settings.flags_max_age_seconds
        ),
        context_sources=[MemoryContextSource(memories, settings.context_scan_limit)],
        candidates=CandidateRepository(dynamodb, settings.candidates_table),
        capture=AutoCaptureWriter(dynamodb, settings.memory_table, settings.candidates_table),
        metrics=metrics or EmfTurnMetrics(settings.metrics_namespace, settings.service_name),
        tuning=TurnTuning(
            context_budget_tokens=settings.context_budget_tokens,
            auto_capture_min_confidence=settings.auto_capture_min_confidence,
        ),
    )
