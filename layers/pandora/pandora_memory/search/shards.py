"""A namespace's search projection cut into shards by a hash of the logical path.

A shard is named by a label of bits ("" is the whole namespace, "0" and "1" its halves, "01" a
quarter...): it holds every active document whose path hash starts with those bits. The labels of a
manifest cover every path exactly once. A document's ingest therefore rewrites one shard, whatever
the namespace's size; a shard grown past MAX_SHARD_ENTRIES chunks is split in two (repeatedly, if its
documents hash unevenly), so shards stay small as the namespace grows. Shards are never merged back:
a namespace that shrinks keeps more, smaller shards, which costs readers a few more small objects.

Splitting builds the children from their entries' texts (re-tokenizing at most one shard's entries),
which is also how a pre-shard whole-namespace snapshot is migrated: it is cut straight into leaves.
"""

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pandora_memory.search.records import SearchEntry
from pandora_memory.search.segment import Segment
from pandora_memory.search.snapshot import analysed_segment
from pandora_memory.search.splice import replace_document

MAX_SHARD_ENTRIES = 512
# 2**24 shards is far beyond any namespace; the bound keeps labels and manifest checks small.
MAX_LABEL_BITS = 24
ROOT = ""


def path_bits(logical_path: str, count: int) -> str:
    """The first `count` bits of the path's SHA-256, as '0'/'1' characters."""
    digest = hashlib.sha256(logical_path.encode("utf-8")).digest()
    return "".join(f"{byte:08b}" for byte in digest[: (count + 7) // 8])[:count]


@dataclass(frozen=True)
class Shard:
    """One shard's segment, and every active document in it (a document may have no chunks)."""

    label: str
    segment: Segment
    documents: Mapping[str, str]  # logical path -> content hash of the active revision

    def holds(self, logical_path: str) -> bool:
        return path_bits(logical_path, len(self.label)) == self.label


def replace_in_shard(
    shard: Shard, logical_path: str, content_hash: str | None, entries: Sequence[SearchEntry]
) -> list[Shard]:
    """The shard with one document's entries replaced (content_hash None: the document leaves),
    split into several shards when it grew too large."""
    if not shard.holds(logical_path):
        raise ValueError(f"{logical_path!r} does not belong to shard {shard.label!r}")
    documents = {path: digest for path, digest in shard.documents.items() if path != logical_path}
    if content_hash is not None:
        documents[logical_path] = content_hash
    segment = replace_document(shard.segment, logical_path, entries)
    if not _too_large(shard.label, len(segment), documents):
        return [Shard(shard.label, segment, documents)]
    return leaves(shard.label, documents, segment.entries())


def leaves(label: str, documents: Mapping[str, str], entries: Iterable[SearchEntry]) -> list[Shard]:
    """Shards under `label` holding these documents and entries, each small enough (or one document)."""
    by_path: dict[str, list[SearchEntry]] = {path: [] for path in documents}
    for entry in entries:
        if entry.logical_path not in by_path:
            raise ValueError(f"entry {entry.key!r} belongs to no listed document")
        by_path[entry.logical_path].append(entry)
    return _cut(label, by_path, documents)


def _too_large(label: str, entry_count: int, documents: Mapping[str, str]) -> bool:
    return entry_count > MAX_SHARD_ENTRIES and len(documents) > 1 and len(label) < MAX_LABEL_BITS


def _cut(label: str, by_path: dict[str, list[SearchEntry]], documents: Mapping[str, str]) -> list[Shard]:
    count = sum(map(len, by_path.values()))
    if not _too_large(label, count, documents):
        entries = [entry for path in sorted(by_path) for entry in by_path[path]]
        return [Shard(label, analysed_segment(entries), dict(documents))]
    depth = len(label) + 1
    halves: dict[str, dict[str, list[SearchEntry]]] = {label + "0": {}, label + "1": {}}
    for path, found in by_path.items():
        halves[path_bits(path, depth)][path] = found
    return [
        shard
        for child, paths in halves.items()
        for shard in _cut(child, paths, {path: documents[path] for path in paths})
    ]
