"""The search projection of a namespace: one DynamoDB pointer item and immutable S3 snapshots.

Readers (the search path) need two calls:
  pointer(namespace)            -> generation, memory_generation, snapshot_key (one GetItem)
  load_analysed(snapshot_key)   -> the search segment of every active chunk of the namespace, decoded
                                   from the stored snapshot (pandora_memory.search.snapshot's format;
                                   read_snapshot gives its bytes): hand either to
                                   index_from_snapshot(segment_or_bytes, extra=approved_memories)
Writers build the next snapshot from the current one, store it under a new key, and then `swap`:
one TransactWriteItems that moves the pointer (only from the generation they built on) together
with the document's status. Until the swap commits, readers keep the previous generation.
"""

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from pandora_memory.ingest.aws_errors import error_code
from pandora_memory.ingest.expressions import Update, key_of
from pandora_memory.ingest.s3_keys import projection_snapshot_key
from pandora_memory.namespaces import Namespace
from pandora_memory.search.index import AnalysedEntry, SearchEntry
from pandora_memory.search.segment import Segment, empty_segment
from pandora_memory.search.snapshot import decode_snapshot, encode_snapshot
from pandora_memory.storage.records import from_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef
    from mypy_boto3_s3 import S3Client

_PARTITION = "namespace"
_POINTER_FIELDS = ("generation", "memory_generation", "snapshot_key")
_CONDITION_FAILED = "ConditionalCheckFailed"


@dataclass(frozen=True)
class ProjectionPointer:
    namespace: Namespace
    generation: int = 0
    memory_generation: int = 0
    snapshot_key: str | None = None
    # logical path -> content hash of the document's active revision (revision id = "<path>#<hash>").
    documents: dict[str, str] = field(default_factory=dict)


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

    def pointer(self, namespace: Namespace, *, with_documents: bool = False) -> ProjectionPointer:
        fields = (*_POINTER_FIELDS, "documents") if with_documents else _POINTER_FIELDS
        response = self._client.get_item(
            TableName=self._table,
            Key=key_of(_PARTITION, namespace.value),
            ProjectionExpression=", ".join(f"#{name}" for name in fields),
            ExpressionAttributeNames={f"#{name}": name for name in fields},
            ConsistentRead=with_documents,  # writers must build on the latest generation
        )
        values = from_item(dict(response.get("Item", {})))
        documents = values.get("documents") or {}
        return ProjectionPointer(
            namespace=namespace,
            generation=int(values.get("generation") or 0),
            memory_generation=int(values.get("memory_generation") or 0),
            snapshot_key=str(values["snapshot_key"]) if values.get("snapshot_key") else None,
            documents={str(path): str(content_hash) for path, content_hash in documents.items()},
        )

    def read_snapshot(self, snapshot_key: str | None) -> bytes:
        """The stored snapshot's bytes, for `pandora_memory.search.snapshot.index_from_snapshot`."""
        if not snapshot_key:
            return encode_snapshot(empty_segment())
        body = self._s3.get_object(Bucket=self._bucket, Key=snapshot_key)["Body"]
        try:
            return body.read()
        finally:
            body.close()

    def load_analysed(self, snapshot_key: str | None) -> Segment:
        """The analysed chunks with their postings, so a rebuild tokenizes only the document that changed."""
        if not snapshot_key:
            return empty_segment()
        return decode_snapshot(self.read_snapshot(snapshot_key))

    def load_entries(self, snapshot_key: str | None) -> list[SearchEntry]:
        return list(self.load_analysed(snapshot_key).entries())

    def write_snapshot(
        self, namespace: Namespace, generation: int, snapshot: Segment | Iterable[SearchEntry | AnalysedEntry]
    ) -> str:
        encoded = encode_snapshot(snapshot)  # gzip members; equal segments give equal bytes and keys
        key = projection_snapshot_key(namespace, generation, hashlib.sha256(encoded).hexdigest())
        self._s3.put_object(
            Bucket=self._bucket,
            Key=key,
            Body=encoded,
            ContentType="application/octet-stream",
            ContentEncoding="gzip",
        )
        return key

    def swap(
        self,
        base: ProjectionPointer,
        snapshot_key: str,
        documents: dict[str, str],
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
                "snapshot_key": snapshot_key,
                "documents": documents,
                "updated_at": now,
            },
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
