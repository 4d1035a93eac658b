"""Where backfilled candidates go: the candidate inbox (the live turn's repository) or, in a dry run,
nowhere, with repeats inside the export still recognised as duplicates."""

import time
from collections.abc import Callable
from typing import Protocol

from pandora_memory.storage.candidates import WriteResult
from pandora_memory.storage.errors import StorageUnavailableError
from pandora_memory.storage.records import CandidateRecord


class CandidateSink(Protocol):
    def add(self, record: CandidateRecord) -> WriteResult: ...


class PreviewSink:
    """Writes nothing; a content hash seen before in this run comes back as a duplicate."""

    def __init__(self) -> None:
        self._seen: set[tuple[str, str]] = set()

    def add(self, record: CandidateRecord) -> WriteResult:
        key = (record.namespace.value, record.content_hash)
        if key in self._seen:
            return WriteResult(existing=record)
        self._seen.add(key)
        return WriteResult()


class RetryingSink:
    """Retries writes the store refused for now (throttling); each write is conditional, so a retry
    can never store a candidate twice."""

    def __init__(
        self,
        sink: CandidateSink,
        attempts: int = 4,
        first_delay_seconds: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._sink = sink
        self._attempts = attempts
        self._first_delay = first_delay_seconds
        self._sleep = sleep

    def add(self, record: CandidateRecord) -> WriteResult:
        for attempt in range(1, self._attempts + 1):
            try:
                return self._sink.add(record)
            except StorageUnavailableError:
                if attempt == self._attempts:
                    raise
                self._sleep(self._first_delay * 2 ** (attempt - 1))
        raise AssertionError("unreachable: the last attempt returns or raises")
