"""Publishing one document's change: build the next snapshot on the current one, then swap atomically.

A concurrent writer moving the generation first makes the swap's condition fail; the snapshot is then
rebuilt on the newer generation, a bounded number of times. A newer event owning the document makes
the document's condition fail: nothing is published, the newer event publishes its own state.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pandora_memory.ingest.documents import DocumentRepository
from pandora_memory.ingest.metrics import IngestMetrics
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.ingest.records import chunk_key, revision_key
from pandora_memory.ingest.s3_keys import MemoryKey
from pandora_memory.ingest.steps import Attempt, Step
from pandora_memory.markdown.chunking import Chunk
from pandora_memory.search.index import SearchEntry
from pandora_memory.search.splice import replace_document

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

_DOCUMENT_ITEM = 1  # position of the document's update in the swap transaction


class SwapConflictError(RuntimeError):
    """The generation kept moving, or a companion's condition failed; the runtime retries the event."""


@dataclass(frozen=True)
class DocumentChange:
    """What a swap makes visible for one document: its new entries, or none when it leaves search."""

    key: MemoryKey
    claim: str
    revision_key: str | None
    content_hash: str | None
    entries: list[SearchEntry]
    companions: list["TransactWriteItemTypeDef"]


class ProjectionPublisher:
    def __init__(
        self,
        documents: DocumentRepository,
        projections: ProjectionRepository,
        metrics: IngestMetrics,
        now: Callable[[], str],
        max_swap_attempts: int,
    ) -> None:
        self._documents = documents
        self._projections = projections
        self._metrics = metrics
        self._now = now
        self._max_swap_attempts = max_swap_attempts

    def publish(self, change: DocumentChange, attempt: Attempt) -> int | None:
        """The new generation, or None when a newer event took the document over meanwhile."""
        namespace, path = change.key.namespace, change.key.logical_path
        for _ in range(self._max_swap_attempts):
            attempt.step = Step.PROJECTION_READ
            base = self._projections.pointer(namespace, with_documents=True)
            current = self._projections.load_analysed(base.snapshot_key)
            documents = {other: digest for other, digest in base.documents.items() if other != path}
            if change.content_hash is not None:
                documents[path] = change.content_hash

            attempt.step = Step.SNAPSHOT_WRITE
            # Only the changed document is tokenized; every other document's postings are copied.
            snapshot = replace_document(current, path, change.entries)
            snapshot_key = self._projections.write_snapshot(namespace, base.generation + 1, snapshot)

            attempt.step = Step.SWAP
            now = self._now()
            companions = [
                self._documents.activation(change.key, change.claim, change.revision_key, now),
                *change.companions,
            ]
            result = self._projections.swap(base, snapshot_key, documents, companions, now)
            if result.swapped:
                self._metrics.projection_swap()
                return base.generation + 1
            if result.conflict_index == _DOCUMENT_ITEM:
                return None
            if not result.generation_moved:
                raise SwapConflictError(f"transaction item {result.conflict_index} refused")
        raise SwapConflictError("projection generation kept moving")


def search_entries(key: MemoryKey, content_hash: str, chunks: Sequence[Chunk]) -> list[SearchEntry]:
    """A revision's chunks as search sees them: keyed like the chunk items, tagged with the revision."""
    revision = revision_key(key.logical_path, content_hash)
    return [
        SearchEntry(
            key=chunk_key(key.logical_path, content_hash, chunk.ordinal),
            namespace=key.namespace.value,
            logical_path=key.logical_path,
            heading_path=tuple(chunk.heading_path),
            text=chunk.text,
            revision_id=revision,
        )
        for chunk in chunks
    ]
