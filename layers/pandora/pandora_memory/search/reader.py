"""Search over one namespace's active Markdown chunks and approved memories, cached per container.

Warm path: one small GetItem on the projection pointer. When its `generation` and `memory_generation`
equal the ones the cached index was built from, ranking runs in memory and nothing else is read.
Otherwise only what changed is reloaded: when `generation` moved, the shards the pointer (or, for a
namespace of many shards, its manifest) names that the cache does not hold - shard objects are
immutable, so an ingest of one document costs a reader one small GET (two with the manifest); when
`memory_generation` moved or the memory cache aged out, the approved memories (one bounded Query).
The namespace's index is made of the shards' segments (decoded, never re-tokenized) and the
memories'. Making it costs no per-posting work: term weights are computed when a query first needs
them, and the ranking is the same however the chunks are cut into shards.

Namespaces never mix: the cache is keyed by namespace, every object key must lie under the
namespace's prefix, every loaded entry must carry it (a shard holding another namespace's entry is
refused), the index filters on it, and every hit is checked again before it is returned. Revision
history is a separate, explicit call; search never reads it.
"""

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from botocore.exceptions import BotoCoreError, ClientError

from pandora_memory.ingest.projections import ProjectionPointer
from pandora_memory.ingest.records import RevisionRecord
from pandora_memory.namespaces import Namespace, parse_namespace
from pandora_memory.search.index import LexicalIndex, SearchHit, analyse_entry
from pandora_memory.search.memory_entries import MemoryLoader, memory_entries
from pandora_memory.search.segment import Segment, build_segment
from pandora_memory.search.shards import Shard
from pandora_memory.search.snapshot import MalformedSnapshotError
from pandora_memory.storage.errors import StorageError

MAX_LIMIT = 50
MAX_QUERY_CHARS = 2000
# Shards fetched side by side on a reload (a cold start of a large namespace reads many small objects).
SHARD_FETCHERS = 8

Clock = Callable[[], float]


class ProjectionSource(Protocol):
    """What search needs of `pandora_memory.ingest.projections.ProjectionRepository`."""

    def pointer(self, namespace: Namespace, *, consistent: bool = False) -> ProjectionPointer: ...

    def shard_keys(self, pointer: ProjectionPointer) -> tuple[str, ...]: ...

    def load_shard(self, namespace: Namespace, key: str, label: str = "") -> Shard: ...


class HistorySource(Protocol):
    """What history needs of `pandora_memory.ingest.revisions.RevisionRepository`."""

    def history(self, namespace: Namespace, logical_path: str) -> list[RevisionRecord]: ...


class SearchUnavailableError(RuntimeError):
    """A read the search depends on failed; `step` names it (pointer, snapshot, memories, history)."""

    def __init__(self, step: str, cause: BaseException) -> None:
        super().__init__(f"search {step} read failed: {type(cause).__name__}")
        self.step = step


class NamespaceMismatchError(RuntimeError):
    """Stored search data of one namespace named another: refused rather than served."""


@dataclass(frozen=True)
class SearchResult:
    namespace: Namespace
    logical_path: str
    heading_path: tuple[str, ...]
    text: str
    revision_id: str
    score: float
    kind: str  # "chunk" or "memory"

    def as_dict(self) -> dict[str, object]:
        return {
            "namespace": self.namespace.value,
            "logical_path": self.logical_path,
            "heading_path": list(self.heading_path),
            "text": self.text,
            "revision_id": self.revision_id,
            "score": round(self.score, 4),
            "kind": self.kind,
        }


@dataclass(frozen=True)
class _CachedIndex:
    generation: int
    snapshot_key: str | None
    memory_generation: int
    memories_loaded_at: float
    shards: Mapping[str, Segment]  # shard object key -> its segment, in manifest order
    memories: Segment
    index: LexicalIndex


class SearchService:
    def __init__(
        self,
        projections: ProjectionSource,
        memories: MemoryLoader,
        revisions: HistorySource | None = None,
        *,
        memory_max_age_seconds: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self._projections = projections
        self._memories = memories
        self._revisions = revisions
        self._memory_max_age = memory_max_age_seconds or None
        self._clock = clock
        # One entry per namespace; replaced whole, so a concurrent reader sees an old or a new index.
        self._cache: dict[Namespace, _CachedIndex] = {}

    def search(
        self,
        namespace: Namespace | str,
        query: str,
        limit: int = 5,
        path_prefix: str | None = None,
    ) -> list[SearchResult]:
        """Best chunks and memories of one namespace for `query`, highest score first.

        `path_prefix` keeps logical paths under it (`projects/` a folder, `projects/plan` one file,
        `memory/` approved memories only).
        """
        return self.search_each(namespace, [query], limit, path_prefix)[0]

    def search_each(
        self,
        namespace: Namespace | str,
        queries: Sequence[str],
        limit: int = 5,
        path_prefix: str | None = None,
    ) -> list[list[SearchResult]]:
        """`search` for several queries over one look at the index: one pointer read, not one per query."""
        scope = parse_namespace(namespace)
        queries = [query[:MAX_QUERY_CHARS] for query in queries]
        if limit <= 0 or not any(query.strip() for query in queries):
            return [[] for _ in queries]
        index = self._index(scope)
        prefix = path_prefix.lstrip("/") if path_prefix else None
        return [
            [
                _result(scope, hit)
                for hit in index.search(
                    query, limit=min(limit, MAX_LIMIT), path_prefix=prefix, namespace=scope.value
                )
            ]
            if query.strip()
            else []
            for query in queries
        ]

    def history(self, namespace: Namespace | str, logical_path: str) -> list[RevisionRecord]:
        """Every revision of one document, oldest first (superseded ones carry summary and diff)."""
        scope = parse_namespace(namespace)
        if self._revisions is None:
            raise RuntimeError("this search service was built without a revision repository")
        try:
            records = self._revisions.history(scope, logical_path)
        except (ClientError, BotoCoreError) as error:
            raise SearchUnavailableError("history", error) from None
        for record in records:
            if record.namespace != scope.value:
                raise NamespaceMismatchError(f"a revision of {scope.value} is stored under another namespace")
        return records

    def forget(self, namespace: Namespace | None = None) -> None:
        """Drops cached indexes (all, or one namespace's); the next search reloads."""
        if namespace is None:
            self._cache.clear()
        else:
            self._cache.pop(namespace, None)

    # -- loading -----------------------------------------------------------------------------------
    def _index(self, namespace: Namespace) -> LexicalIndex:
        try:
            pointer = self._projections.pointer(namespace)
        except (ClientError, BotoCoreError) as error:
            raise SearchUnavailableError("pointer", error) from None
        cached = self._cache.get(namespace)
        now = self._clock()
        chunks_fresh = (
            cached is not None
            and cached.generation == pointer.generation
            and cached.snapshot_key == pointer.snapshot_key
        )
        memories_fresh = (
            cached is not None
            and cached.memory_generation == pointer.memory_generation
            and (self._memory_max_age is None or now - cached.memories_loaded_at < self._memory_max_age)
        )
        if cached is not None and chunks_fresh and memories_fresh:
            return cached.index
        shards = cached.shards if cached is not None and chunks_fresh else self._load_shards(pointer, cached)
        if cached is not None and memories_fresh:
            memories, loaded_at = cached.memories, cached.memories_loaded_at
        else:
            memories, loaded_at = self._load_memories(namespace), now
        rebuilt = _CachedIndex(
            generation=pointer.generation,
            snapshot_key=pointer.snapshot_key,
            memory_generation=pointer.memory_generation,
            memories_loaded_at=loaded_at,
            shards=shards,
            memories=memories,
            index=LexicalIndex([*shards.values(), *([memories] if len(memories) else [])] or [memories]),
        )
        self._cache[namespace] = rebuilt
        return rebuilt.index

    def _load_shards(self, pointer: ProjectionPointer, cached: _CachedIndex | None) -> dict[str, Segment]:
        """The segments of the pointer's shards, reusing every one the cache already holds."""
        held = cached.shards if cached is not None else {}
        namespace = pointer.namespace
        try:
            keys = self._projections.shard_keys(pointer)
            missing = [key for key in keys if key not in held]
            with ThreadPoolExecutor(max_workers=max(1, min(SHARD_FETCHERS, len(missing)))) as pool:
                fetched = dict(
                    zip(missing, pool.map(lambda key: self._load_shard(namespace, key), missing), strict=True)
                )
        except (ClientError, BotoCoreError, MalformedSnapshotError) as error:
            raise SearchUnavailableError("snapshot", error) from None
        return {key: held[key] if key in held else fetched[key] for key in keys}

    def _load_shard(self, namespace: Namespace, key: str) -> Segment:
        segment = self._projections.load_shard(namespace, key).segment
        _require_namespace(namespace, segment)
        return segment

    def _load_memories(self, namespace: Namespace) -> Segment:
        try:
            records = self._memories(namespace)
        except (StorageError, ClientError, BotoCoreError) as error:
            raise SearchUnavailableError("memories", error) from None
        return build_segment(map(analyse_entry, memory_entries(records, namespace)))


def _require_namespace(namespace: Namespace, segment: Segment) -> None:
    table = segment.namespaces.table
    others = {number for number, value in enumerate(table) if value != namespace.value}
    foreign = sum(1 for number in segment.namespaces.ids if number in others) if others else 0
    if foreign:
        raise NamespaceMismatchError(
            f"the {namespace.value} search snapshot holds {foreign} entries of another namespace"
        )


def _result(namespace: Namespace, hit: SearchHit) -> SearchResult:
    entry = hit.entry
    if entry.namespace != namespace.value:  # the last lock: never hand out another namespace's text
        raise NamespaceMismatchError(f"a {namespace.value} search matched an entry of another namespace")
    return SearchResult(
        namespace=namespace,
        logical_path=entry.logical_path,
        heading_path=entry.heading_path,
        text=entry.text,
        revision_id=entry.revision_id,
        score=hit.score,
        kind=entry.kind,
    )
