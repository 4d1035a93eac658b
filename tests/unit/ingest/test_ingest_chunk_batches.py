"""Chunk writes: batches of 25, unprocessed items retried, and a clean error when they never go through."""

from typing import Any

import pytest
from pandora_memory.ingest.chunks import (
    BATCH_LIMIT,
    MAX_UNPROCESSED_ROUNDS,
    ChunkRepository,
    UnprocessedItemsError,
)
from pandora_memory.markdown.chunking import Chunk
from pandora_memory.namespaces import Namespace


class FakeDynamoDB:
    """Refuses the first `refuse` items of each of the first `rounds` calls, as throttling does."""

    def __init__(self, refuse: int, rounds: int) -> None:
        self.refuse = refuse
        self.rounds = rounds
        self.calls: list[int] = []

    def batch_write_item(self, RequestItems: dict[str, list[Any]]) -> dict[str, Any]:  # noqa: N803
        [(table, requests)] = RequestItems.items()
        self.calls.append(len(requests))
        if len(self.calls) <= self.rounds:
            return {"UnprocessedItems": {table: requests[: self.refuse]}}
        return {"UnprocessedItems": {}}


def chunks(count: int) -> list[Chunk]:
    return [Chunk(n, ("Plan",), n * 10, n * 10 + 9, f"text {n}", f"{n:064x}", 3) for n in range(count)]


def test_chunks_are_written_in_batches_of_25_and_unprocessed_items_are_retried() -> None:
    client = FakeDynamoDB(refuse=4, rounds=1)
    sleeps: list[float] = []
    repository = ChunkRepository(client, "chunks", sleep=sleeps.append)  # type: ignore[arg-type]

    written = repository.write(Namespace.AU, "world/map", "ab" * 32, chunks(60))

    assert written == 60
    assert BATCH_LIMIT == 25
    assert client.calls == [25, 4, 25, 10]
    assert len(sleeps) == 1


def test_items_never_processed_fail_cleanly() -> None:
    client = FakeDynamoDB(refuse=2, rounds=100)
    repository = ChunkRepository(client, "chunks", sleep=lambda _: None)  # type: ignore[arg-type]

    with pytest.raises(UnprocessedItemsError):
        repository.write(Namespace.AU, "world/map", "ab" * 32, chunks(3))

    assert len(client.calls) == MAX_UNPROCESSED_ROUNDS
