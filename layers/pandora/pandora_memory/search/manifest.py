"""The manifest of a namespace's search projection: which shard object holds each part of it.

One small immutable gzip JSON object per generation, named by the projection pointer:

  {"format": "pandora-search-manifest", "version": 1, "namespace": "real_life", "generation": 7,
   "shards": [{"label": "0", "key": "projections/real_life/shards/...", "entries": 310,
               "documents": 41}, ...]}

Its size grows with the number of shards (about a hundred bytes each, one shard per few hundred
chunks), not with the documents. Shard objects are immutable and content-addressed, so a reader
keeps every shard whose key it already has and fetches only the ones a new manifest names.
"""

import gzip
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from pandora_memory.search.segment import MalformedSnapshotError
from pandora_memory.search.shards import MAX_LABEL_BITS, path_bits

MANIFEST_FORMAT = "pandora-search-manifest"
MANIFEST_VERSION = 1


@dataclass(frozen=True)
class ShardRef:
    label: str
    key: str
    entries: int
    documents: int


@dataclass(frozen=True)
class Manifest:
    namespace: str
    generation: int
    shards: tuple[ShardRef, ...]  # sorted by label; the labels cover every path exactly once

    def shard_for(self, logical_path: str) -> ShardRef:
        by_label = {shard.label: shard for shard in self.shards}
        bits = path_bits(logical_path, max(len(label) for label in by_label))
        for length in range(len(bits) + 1):
            found = by_label.get(bits[:length])
            if found is not None:
                return found
        raise MalformedSnapshotError(f"search manifest has no shard for a path of {self.namespace}")

    def replaced(self, label: str, shards: Iterable[ShardRef], generation: int) -> "Manifest":
        """This manifest with shard `label` replaced by `shards` (the same label, or its parts)."""
        kept = [shard for shard in self.shards if shard.label != label]
        merged = tuple(sorted([*kept, *shards], key=lambda shard: shard.label))
        return replace(self, generation=generation, shards=checked(merged, self.namespace))

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(shard.key for shard in self.shards)


def encode_manifest(manifest: Manifest) -> bytes:
    document = {
        "format": MANIFEST_FORMAT,
        "version": MANIFEST_VERSION,
        "namespace": manifest.namespace,
        "generation": manifest.generation,
        "shards": [
            {"label": shard.label, "key": shard.key, "entries": shard.entries, "documents": shard.documents}
            for shard in manifest.shards
        ],
    }
    return gzip.compress(json.dumps(document, separators=(",", ":")).encode("utf-8"), 6, mtime=0)


def decode_manifest(data: bytes, namespace: str) -> Manifest:
    """The manifest, refused unless it is of `namespace` and its shards cover the namespace once."""
    try:
        document = json.loads(gzip.decompress(data))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MalformedSnapshotError(f"search manifest does not decode: {error}") from error
    if not isinstance(document, dict):
        raise MalformedSnapshotError("search manifest must be an object")
    if document.get("format") != MANIFEST_FORMAT or document.get("version") != MANIFEST_VERSION:
        raise MalformedSnapshotError("not a search manifest of a known format and version")
    if document.get("namespace") != namespace:
        raise MalformedSnapshotError(f"the {namespace} search manifest names another namespace")
    generation, rows = document.get("generation"), document.get("shards")
    if not isinstance(generation, int) or not isinstance(rows, list):
        raise MalformedSnapshotError("search manifest has no generation or no shards")
    return Manifest(namespace, generation, checked([_shard(row) for row in rows], namespace))


def _shard(row: object) -> ShardRef:
    if not isinstance(row, dict):
        raise MalformedSnapshotError("search manifest shard must be an object")
    label, key, entries, documents = (row.get(name) for name in ("label", "key", "entries", "documents"))
    if not (isinstance(label, str) and isinstance(key, str)):
        raise MalformedSnapshotError("search manifest shard needs a label and a key")
    if not (isinstance(entries, int) and isinstance(documents, int)):
        raise MalformedSnapshotError("search manifest shard counts must be integers")
    return ShardRef(label, key, entries, documents)


def checked(shards: Sequence[ShardRef], namespace: str) -> tuple[ShardRef, ...]:
    """The shards sorted by label, if their labels split the path hashes into disjoint, complete parts
    and every key lies under the namespace's prefix."""
    ordered = sorted(shards, key=lambda shard: shard.label)
    prefix = f"projections/{namespace}/"
    for shard in ordered:
        if len(shard.label) > MAX_LABEL_BITS or set(shard.label) - {"0", "1"}:
            raise MalformedSnapshotError(f"search manifest shard label {shard.label!r} is not a bit string")
        if not shard.key.startswith(prefix):
            raise MalformedSnapshotError(f"a {namespace} search shard is stored outside its namespace")
    # In sorted order a label's extensions follow it directly, so neighbours show any overlap.
    if any(later.label.startswith(earlier.label) for earlier, later in pairwise(ordered)):
        raise MalformedSnapshotError("search manifest shards overlap")
    if sum(1 << (MAX_LABEL_BITS - len(shard.label)) for shard in ordered) != 1 << MAX_LABEL_BITS:
        raise MalformedSnapshotError("search manifest shards do not cover the namespace")
    return tuple(ordered)
