"""Approved memories as search entries, so one ranking covers Markdown chunks and reviewed memories.

A memory has no file: its logical path is `memory/<memory type>` (so `path_prefix="memory/"` selects
memories only) and its heading path is its memory type. Its key cannot collide with a chunk key,
which always ends in `#<ordinal>`.
"""

from collections.abc import Callable, Iterable, Sequence

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType
from pandora_memory.search.index import SearchEntry
from pandora_memory.storage.memories import MemoryRepository
from pandora_memory.storage.records import MemoryRecord

MEMORY_KIND = "memory"
MEMORY_PATH_PREFIX = "memory/"

# The newest memories of one namespace, in one bounded read.
MemoryLoader = Callable[[Namespace], Sequence[MemoryRecord]]


def recent_memories(repository: MemoryRepository, limit: int) -> MemoryLoader:
    """One Query on the ByRecency index per load, at most `limit` memories, newest first."""

    def load(namespace: Namespace) -> Sequence[MemoryRecord]:
        return repository.newest(namespace, limit)

    return load


def memory_entry(record: MemoryRecord) -> SearchEntry:
    return SearchEntry(
        key=f"{MEMORY_KIND}:{record.id}",
        namespace=record.namespace.value,
        logical_path=f"{MEMORY_PATH_PREFIX}{record.memory_type.value}",
        heading_path=(record.memory_type.value,),
        text=record.summary,
        revision_id=record.id,
        kind=MEMORY_KIND,
    )


def memory_entries(records: Iterable[MemoryRecord], namespace: Namespace) -> list[SearchEntry]:
    """Searchable memories of `namespace`: resolved open loops are done, so they stay out."""
    entries: dict[str, SearchEntry] = {}
    for record in records:
        if record.namespace is not namespace:
            continue  # a loader is trusted with nothing: the namespace is checked here again
        if record.memory_type is MemoryType.OPEN_LOOP and record.resolved:
            continue
        if not record.summary.strip():
            continue
        entry = memory_entry(record)
        entries.setdefault(entry.key, entry)
    return list(entries.values())
