"""Chunk items of a revision, written with BatchWriteItem 25 at a time.

Chunks are keyed `<logical path>#<content hash>#<ordinal>`: a revision's chunks never collide with
another revision's, so writing them is idempotent and cannot disturb what search currently shows.
"""

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pandora_memory.ingest.records import chunk_key, revision_key
from pandora_memory.markdown.chunking import Chunk
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.items import to_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

BATCH_LIMIT = 25  # DynamoDB's BatchWriteItem maximum
MAX_UNPROCESSED_ROUNDS = 8
_FIRST_BACKOFF_SECONDS = 0.05
_MAX_BACKOFF_SECONDS = 2.0


class UnprocessedItemsError(RuntimeError):
    """DynamoDB kept refusing part of a batch (throttling) after every retry round."""


def chunk_item(namespace: Namespace, logical_path: str, content_hash: str, chunk: Chunk) -> dict[str, Any]:
    return to_item(
        {
            "namespace": namespace.value,
            "chunk_key": chunk_key(logical_path, content_hash, chunk.ordinal),
            "logical_path": logical_path,
            "revision_key": revision_key(logical_path, content_hash),
            "content_hash": content_hash,
            "ordinal": chunk.ordinal,
            "heading_path": list(chunk.heading_path),
            "start": chunk.start,
            "end": chunk.end,
            "text": chunk.text,
            "chunk_hash": chunk.chunk_hash,
            "token_estimate": chunk.token_estimate,
        }
    )


class ChunkRepository:
    def __init__(
        self,
        client: "DynamoDBClient",
        table_name: str,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._client = client
        self._table = table_name
        self._sleep = sleep

    def write(
        self, namespace: Namespace, logical_path: str, content_hash: str, chunks: Sequence[Chunk]
    ) -> int:
        items = [chunk_item(namespace, logical_path, content_hash, chunk) for chunk in chunks]
        for start in range(0, len(items), BATCH_LIMIT):
            self._write_batch(items[start : start + BATCH_LIMIT])
        return len(items)

    def _write_batch(self, items: list[dict[str, Any]]) -> None:
        requests: list[Any] = [{"PutRequest": {"Item": item}} for item in items]
        backoff = _FIRST_BACKOFF_SECONDS
        for _round in range(MAX_UNPROCESSED_ROUNDS):
            response = self._client.batch_write_item(RequestItems={self._table: requests})
            requests = list(response.get("UnprocessedItems", {}).get(self._table, []))
            if not requests:
                return
            self._sleep(backoff)
            backoff = min(backoff * 2, _MAX_BACKOFF_SECONDS)
        raise UnprocessedItemsError(f"{len(requests)} chunk writes left unprocessed")
