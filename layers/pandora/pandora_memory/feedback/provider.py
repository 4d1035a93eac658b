"""Review figures for the adaptive turn, read at most once a minute per namespace and container.

Like the flags, the figures are cached: a warm turn pays nothing for them. When the table cannot be
read, the turn gets no figures (so nothing is promoted) for the same window, and carries on.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from aws_lambda_powertools import Logger

from pandora_memory.feedback.events import FeedbackEvent
from pandora_memory.feedback.repository import FeedbackRepository
from pandora_memory.feedback.summary import FeedbackFigures, summarise
from pandora_memory.feedback.tuning import load_thresholds
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.errors import StorageError
from pandora_memory.storage.records import utc_timestamp

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

logger = Logger(child=True)


class FeedbackReader(Protocol):
    def events(self, namespace: Namespace, since: str | None = None) -> list[FeedbackEvent]: ...


def window_start(now: datetime, days: int) -> str:
    return utc_timestamp(now - timedelta(days=days))


@dataclass(frozen=True)
class _Cached:
    figures: FeedbackFigures
    expires_at: float


class FeedbackFiguresProvider:
    def __init__(
        self,
        reader: FeedbackReader,
        window_days: int | None = None,
        max_age_seconds: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        limits = load_thresholds()
        self._reader = reader
        self._window_days = window_days if window_days is not None else limits.window_days
        self._max_age = max_age_seconds if max_age_seconds is not None else limits.cache_seconds
        self._clock = clock
        self._now = now
        self._cache: dict[Namespace, _Cached] = {}

    def figures(self, namespace: Namespace) -> FeedbackFigures:
        cached = self._cache.get(namespace)
        if cached is not None and self._clock() < cached.expires_at:
            return cached.figures
        since = window_start(self._now(), self._window_days)
        try:
            figures = summarise(self._reader.events(namespace, since=since), since=since)
        except StorageError as error:
            logger.warning(
                "feedback figures unreadable", extra={"operation": error.operation, "code": error.code}
            )
            figures = FeedbackFigures(since=since)
        self._cache[namespace] = _Cached(figures, self._clock() + self._max_age)
        return figures

    def clear(self) -> None:
        self._cache.clear()


def build_feedback_provider(dynamodb: "DynamoDBClient", feedback_table: str) -> FeedbackFiguresProvider:
    """One per container (the turn holds it next to its flag source)."""
    return FeedbackFiguresProvider(FeedbackRepository(dynamodb, feedback_table))
