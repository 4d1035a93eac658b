"""Publishing one document's change: rebuild its shard on the current generation, then swap atomically.

Per attempt: the pointer (one consistent GetItem), the manifest and the document's shard (two small
GETs), the new shard (or its parts, when it grew past its size) and a new manifest (small PUTs), then
one TransactWriteItems. What is read and written is bounded by a shard's size, not the namespace's.

A concurrent writer moving the generation first makes the swap's condition fail; the snapshot is then
rebuilt on the newer generation, a bounded number of times. A newer event owning the document makes
the document's condition fail: nothing is published, the newer event publishes its own state.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pandora_memory.ingest.documents import DocumentRepository
from pandora_memory.ingest.metrics import IngestMetrics
from pandora_memory.ingest.projections import ProjectionPointer, ProjectionRepository
from pandora_memory.ingest.records import chunk_key, revision_key
from pandora_memory.ingest.s3_keys import MemoryKey
from pandora_memory.ingest.steps import Attempt, Step
from pandora_memory.markdown.chunking import Chunk
from pandora_memory.search.index import SearchEntry
from pandora_memory.search.manifest import Manifest
from pandora_memory.search.segment import empty_segment
from pandora_memory.search.shards import ROOT, Shard, leaves, replace_in_shard

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
            base = self._projections.pointer(namespace, consistent=True)
            manifest, shard = self._base_shard(base, path)

            attempt.step = Step.SNAPSHOT_WRITE
            # Only the changed document is tokenized; the shard's other documents' postings are copied.
            generation = base.generation + 1
            parts = replace_in_shard(shard, path, change.content_hash, change.entries)
            refs = [self._projections.write_shard(namespace, generation, part) for part in parts]
            following = manifest.replaced(shard.label, refs, generation)
            manifest_key = self._projections.write_manifest(namespace, following)

            attempt.step = Step.SWAP
            now = self._now()
            companions = [
                self._documents.activation(change.key, change.claim, change.revision_key, now),
                *change.companions,
            ]
            result = self._projections.swap(base, following, manifest_key, companions, now)
            if result.swapped:
                self._metrics.projection_swap()
                return generation
            if result.conflict_index == _DOCUMENT_ITEM:
                return None
            if not result.generation_moved:
                raise SwapConflictError(f"transaction item {result.conflict_index} refused")
        raise SwapConflictError("projection generation kept moving")

    def _base_shard(self, base: ProjectionPointer, path: str) -> tuple[Manifest, Shard]:
        """The manifest the change builds on and the shard holding `path` in it.

        A pointer written before shards names one whole-namespace snapshot: it is cut into shards
        here, once, and the swap then replaces the pointer's old attributes.
        """
        namespace = base.namespace
        manifest = self._projections.manifest(base)
        if manifest is not None:
            ref = manifest.shard_for(path)
            return manifest, self._projections.load_shard(namespace, ref.key, ref.label)
        empty = Manifest(namespace.value, base.generation, ())
        if not base.legacy_snapshot_key:
            return empty, Shard(ROOT, empty_segment(), {})
        whole = self._projections.load_shard(namespace, base.legacy_snapshot_key)
        documents = {**whole.documents, **base.legacy_documents}
        cut = leaves(ROOT, documents, whole.segment.entries())
        generation = base.generation + 1
        refs = [self._projections.write_shard(namespace, generation, part) for part in cut]
        manifest = empty.replaced(ROOT, refs, base.generation)
        return manifest, next(part for part in cut if part.holds(path))


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
