"""The search projection of a namespace: one small DynamoDB pointer item and immutable S3 objects.

  pointer item   generation, memory_generation, manifest_key, updated_at, and while the namespace
                 has at most INLINE_SHARD_KEYS shards their keys (shard_keys), so a reader of a small
                 namespace skips the manifest: under a kilobyte, whatever the namespace holds (the
                 documents live in the shards, not here)
  manifest       projections/<ns>/manifests/<generation>-<digest>.json.gz: the shard objects
  shard          projections/<ns>/shards/s<label>/<generation>-<digest>.idx.gz: the analysed chunks of
                 the documents whose path hash starts with <label>, and those documents' content hashes

Readers: `pointer(namespace)` (one GetItem) on every search; when the generation moved,
`shard_keys(pointer)` (the pointer's own list, or the manifest's) and `load_shard(key)` for each shard
key they do not hold yet.
Writers: read the pointer and manifest, rebuild the one shard a document falls in, store it and a new
manifest under new keys, and then `swap`: one TransactWriteItems that moves the pointer (only from the
generation they built on) together with the document's status. Until the swap commits, readers keep
the previous generation; objects of a failed attempt are never named by a pointer.

Pointers written before shards name a whole-namespace snapshot (`snapshot_key`, with a `documents`
map); they are read as a one-shard projection, and the next swap replaces both attributes.
"""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from pandora_memory.ingest.aws_errors import error_code
from pandora_memory.ingest.expressions import Update, key_of
from pandora_memory.ingest.s3_keys import projection_manifest_key, projection_prefix, projection_shard_key
from pandora_memory.namespaces import Namespace
from pandora_memory.search.index import SearchEntry
from pandora_memory.search.manifest import Manifest, ShardRef, decode_manifest, encode_manifest
from pandora_memory.search.segment import MalformedSnapshotError, Segment, empty_segment
from pandora_memory.search.shards import ROOT, Shard
from pandora_memory.search.snapshot import decode_shard, encode_snapshot
from pandora_memory.storage.items import from_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef
    from mypy_boto3_s3 import S3Client

_PARTITION = "namespace"
_POINTER_FIELDS = ("generation", "memory_generation", "manifest_key", "shard_keys", "snapshot_key")
# Shard keys carried on the pointer item itself (about 80 bytes each): one S3 GET less per reload.
INLINE_SHARD_KEYS = 8
_CONDITION_FAILED = "ConditionalCheckFailed"


@dataclass(frozen=True)
class ProjectionPointer:
    namespace: Namespace
    generation: int = 0
    memory_generation: int = 0
    manifest_key: str | None = None
    inline_shard_keys: tuple[str, ...] | None = None  # the manifest's shard keys, when few
    # Only on pointers written before shards: the whole-namespace snapshot and its documents.
    legacy_snapshot_key: str | None = None
    legacy_documents: dict[str, str] = field(default_factory=dict)

    @property
    def snapshot_key(self) -> str | None:
        """The root object of the searchable projection: a manifest, or a pre-shard snapshot."""
        return self.manifest_key or self.legacy_snapshot_key


@dataclass(frozen=True)
class SwapResult:
    """`conflict_index` names the transaction item whose condition failed (0 = the pointer)."""

    swapped: bool
    conflict_index: int | None = None

    @property
    def generation_moved(self) -> bool:
        return self.conflict_index == 0


class ProjectionRepository:
    def __init__(self, client: "DynamoDBClient", s3: "S3Client", table_name: str, bucket: str) -> None:
        self._client = client
        self._s3 = s3
        self._table = table_name
        self._bucket = bucket

    def pointer(self, namespace: Namespace, *, consistent: bool = False) -> ProjectionPointer:
        """Readers read eventually consistently; writers (`consistent`) must build on the latest."""
        fields = (*_POINTER_FIELDS, "documents") if consistent else _POINTER_FIELDS
        response = self._client.get_item(
            TableName=self._table,
            Key=key_of(_PARTITION, namespace.value),
            ProjectionExpression=", ".join(f"#{name}" for name in fields),
            ExpressionAttributeNames={f"#{name}": name for name in fields},
            ConsistentRead=consistent,
        )
        values = from_item(dict(response.get("Item", {})))
        documents = values.get("documents") or {}
        return ProjectionPointer(
            namespace=namespace,
            generation=int(values.get("generation") or 0),
            memory_generation=int(values.get("memory_generation") or 0),
            manifest_key=_text(values.get("manifest_key")),
            inline_shard_keys=_keys(values.get("shard_keys")),
            legacy_snapshot_key=_text(values.get("snapshot_key")),
            legacy_documents={str(path): str(digest) for path, digest in documents.items()},
        )

    def _get(self, key: str) -> bytes:
        body = self._s3.get_object(Bucket=self._bucket, Key=key)["Body"]
        try:
            return body.read()
        finally:
            body.close()

    def manifest(self, pointer: ProjectionPointer) -> Manifest | None:
        """The pointer's manifest; None for a pointer without one (empty, or written before shards)."""
        if not pointer.manifest_key:
            return None
        self._require_own(pointer.namespace, pointer.manifest_key)
        return decode_manifest(self._get(pointer.manifest_key), pointer.namespace.value)

    def shard_keys(self, pointer: ProjectionPointer) -> tuple[str, ...]:
        """The keys of every shard of the pointer's projection: from the pointer when it carries
        them, else from its manifest (a pre-shard pointer's one snapshot counts as one shard)."""
        if pointer.manifest_key and pointer.inline_shard_keys is not None:
            return pointer.inline_shard_keys
        manifest = self.manifest(pointer)
        if manifest is not None:
            return manifest.keys
        return (pointer.legacy_snapshot_key,) if pointer.legacy_snapshot_key else ()

    def load_shard(self, namespace: Namespace, key: str, label: str = ROOT) -> Shard:
        """A shard (or a pre-shard whole-namespace snapshot, read as the root shard)."""
        self._require_own(namespace, key)
        segment, documents = decode_shard(self._get(key))
        return Shard(label, segment, documents)

    def shards(self, pointer: ProjectionPointer) -> list[Shard]:
        """Every shard of the pointer's projection (the writer reads one; this is for inspection)."""
        manifest = self.manifest(pointer)
        if manifest is not None:
            return [self.load_shard(pointer.namespace, ref.key, ref.label) for ref in manifest.shards]
        if pointer.legacy_snapshot_key:
            return [self.load_shard(pointer.namespace, pointer.legacy_snapshot_key)]
        return []

    def load_analysed(self, snapshot_key: str | None) -> Segment:
        """One object's segment: a shard, or a pre-shard snapshot (empty for None)."""
        if not snapshot_key:
            return empty_segment()
        return decode_shard(self._get(snapshot_key))[0]

    def load_entries(self, root_key: str | None) -> list[SearchEntry]:
        """Every searchable entry under a pointer's `snapshot_key` (a manifest or a pre-shard snapshot)."""
        if not root_key:
            return []
        if "/manifests/" not in root_key:
            return list(self.load_analysed(root_key).entries())
        namespace = Namespace(root_key.split("/")[1])
        manifest = decode_manifest(self._get(root_key), namespace.value)
        return [entry for ref in manifest.shards for entry in self.load_analysed(ref.key).entries()]

    def write_shard(self, namespace: Namespace, generation: int, shard: Shard) -> ShardRef:
        encoded = encode_snapshot(shard.segment, shard.documents)
        key = projection_shard_key(namespace, shard.label, generation, hashlib.sha256(encoded).hexdigest())
        self._put(key, encoded, "application/octet-stream")
        return ShardRef(shard.label, key, len(shard.segment), len(shard.documents))

    def write_manifest(self, namespace: Namespace, manifest: Manifest) -> str:
        encoded = encode_manifest(manifest)
        key = projection_manifest_key(namespace, manifest.generation, hashlib.sha256(encoded).hexdigest())
        self._put(key, encoded, "application/json")
        return key

    def _put(self, key: str, body: bytes, content_type: str) -> None:
        self._s3.put_object(
            Bucket=self._bucket, Key=key, Body=body, ContentType=content_type, ContentEncoding="gzip"
        )

    @staticmethod
    def _require_own(namespace: Namespace, key: str) -> None:
        if not key.startswith(projection_prefix(namespace)):
            raise MalformedSnapshotError(f"a {namespace.value} projection names an object outside it")

    def swap(
        self,
        base: ProjectionPointer,
        manifest: Manifest,
        manifest_key: str,
        companions: Sequence["TransactWriteItemTypeDef"],
        now: str,
    ) -> SwapResult:
        """Move the pointer from `base.generation` to the next one, with `companions`, atomically."""
        if base.generation:
            condition, values = "#generation = :expected", {":expected": base.generation}
        else:
            # The item may exist already: approved memories bump memory_generation on it.
            condition, values = "attribute_not_exists(#generation)", {}
        update = Update(
            sets={
                "generation": base.generation + 1,
                "manifest_key": manifest_key,
                "shard_keys": list(manifest.keys) if len(manifest.shards) <= INLINE_SHARD_KEYS else None,
                "updated_at": now,
            },
            # A pointer written before shards carried the whole document map: it goes with the swap.
            removes=("snapshot_key", "documents"),
            condition=condition,
            condition_values=values,
        )
        pointer_item: Any = {
            "Update": {
                "TableName": self._table,
                "Key": key_of(_PARTITION, base.namespace.value),
                **update.render(),
            }
        }
        try:
            self._client.transact_write_items(TransactItems=[pointer_item, *companions])
        except ClientError as error:
            if error_code(error) != "TransactionCanceledException":
                raise
            reasons = [
                str(reason.get("Code", "None")) for reason in error.response.get("CancellationReasons", [])
            ]
            # Only condition failures are answers; throttling or conflicts inside a transaction are errors.
            if _CONDITION_FAILED in reasons and all(code in {_CONDITION_FAILED, "None"} for code in reasons):
                return SwapResult(swapped=False, conflict_index=reasons.index(_CONDITION_FAILED))
            raise
        return SwapResult(swapped=True)


def _text(value: object) -> str | None:
    return str(value) if value else None


def _keys(value: object) -> tuple[str, ...] | None:
    return tuple(str(key) for key in value) if isinstance(value, list) else None
