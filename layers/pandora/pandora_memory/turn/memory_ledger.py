"""The approved memories the search index was last built from, kept for the context pack.

The search service loads a namespace's memories (one Query) only when its `memory_generation` moved or
its memory cache aged out. Wrapping its loader here lets the context pack reuse exactly those records
(with their dates and types, which search entries do not carry) instead of querying them again: a warm
pre_answer then reads nothing but the search pointer.
"""

from collections.abc import Sequence

from pandora_memory.namespaces import Namespace
from pandora_memory.search.memory_entries import MemoryLoader
from pandora_memory.storage.records import MemoryRecord


class MemoryLedger:
    """A `MemoryLoader` that remembers what it last loaded per namespace. One per container."""

    def __init__(self, loader: MemoryLoader) -> None:
        self._loader = loader
        self._latest: dict[Namespace, tuple[MemoryRecord, ...]] = {}

    def __call__(self, namespace: Namespace) -> Sequence[MemoryRecord]:
        records = tuple(record for record in self._loader(namespace) if record.namespace is namespace)
        self._latest[namespace] = records
        return records

    def latest(self, namespace: Namespace) -> tuple[MemoryRecord, ...] | None:
        """The records of the last load, or None when this container never loaded the namespace."""
        return self._latest.get(namespace)
