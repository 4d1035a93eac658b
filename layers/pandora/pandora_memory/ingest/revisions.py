"""Revisions: immutable content states of a document, their redacted text in S3, and history.

A revision is keyed `<logical path>#<content hash>` inside its namespace, so the same text at two
paths is two revisions, and re-uploading a path's text never writes a second one.
"""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from botocore.exceptions import ClientError

from pandora_memory.ingest.aws_errors import is_condition_failure
from pandora_memory.ingest.expressions import Update, attribute_values, key_of
from pandora_memory.ingest.outcomes import ChangeKind
from pandora_memory.ingest.records import RevisionRecord
from pandora_memory.ingest.s3_keys import revision_snapshot_key
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.items import to_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef
    from mypy_boto3_s3 import S3Client

_PARTITION = "namespace"
_SORT = "revision_key"
_SUPERSESSION_FIELDS = ("superseded_at", "superseded_by", "summary", "diff")


@dataclass(frozen=True)
class RevisionDraft:
    namespace: Namespace
    revision_key: str
    logical_path: str
    content_hash: str
    change_kind: ChangeKind
    created_at: str
    chunk_count: int = 0
    snapshot_key: str | None = None
    chunker: dict[str, Any] | None = None
    previous_logical_path: str | None = None
    renamed_to: str | None = None  # on a deletion that completed a copy: where the text went
    redaction_kinds: list[str] = field(default_factory=list)
    char_count: int = 0

    def to_item(self) -> dict[str, Any]:
        return to_item(
            {
                "namespace": self.namespace.value,
                "revision_key": self.revision_key,
                "logical_path": self.logical_path,
                "content_hash": self.content_hash,
                "change_kind": self.change_kind.value,
                "created_at": self.created_at,
                "chunk_count": self.chunk_count,
                "char_count": self.char_count,
                "snapshot_key": self.snapshot_key,
                "chunker": self.chunker,
                "previous_logical_path": self.previous_logical_path,
                "renamed_to": self.renamed_to,
                "redaction_kinds": self.redaction_kinds or None,
            }
        )


class RevisionRepository:
    def __init__(self, client: "DynamoDBClient", s3: "S3Client", table_name: str, bucket: str) -> None:
        self._client = client
        self._s3 = s3
        self._table = table_name
        self._bucket = bucket

    def write_text(self, namespace: Namespace, content_hash: str, redacted_text: str) -> str:
        """Store the redacted text (content-addressed, so a retry rewrites identical bytes)."""
        key = revision_snapshot_key(namespace, content_hash)
        self._s3.put_object(
            Bucket=self._bucket,
            Key=key,
            Body=redacted_text.encode("utf-8"),
            ContentType="text/markdown; charset=utf-8",
        )
        return key

    def read_text(self, snapshot_key: str) -> str:
        body = self._s3.get_object(Bucket=self._bucket, Key=snapshot_key)["Body"]
        try:
            return body.read().decode("utf-8")
        finally:
            body.close()

    def put(self, draft: RevisionDraft) -> bool:
        """Write once; False when the revision already exists (a retry, or text this path had before)."""
        try:
            self._client.put_item(
                TableName=self._table,
                Item=draft.to_item(),
                ConditionExpression="attribute_not_exists(#revision_key)",
                ExpressionAttributeNames={"#revision_key": _SORT},
            )
        except ClientError as error:
            if is_condition_failure(error):
                return False
            raise
        return True

    def activation(self, namespace: Namespace, revision_key: str, now: str) -> "TransactWriteItemTypeDef":
        """Marks the revision searchable; text a path had before loses its old supersession note."""
        update = Update(
            sets={"activated_at": now},
            removes=_SUPERSESSION_FIELDS,
            condition="attribute_exists(#revision_key)",
        )
        return self._transact(namespace, revision_key, update)

    def supersession(
        self,
        namespace: Namespace,
        revision_key: str,
        *,
        superseded_by: str,
        summary: str,
        diff: str | None,
        now: str,
    ) -> "TransactWriteItemTypeDef":
        update = Update(
            sets={"superseded_at": now, "superseded_by": superseded_by, "summary": summary, "diff": diff},
            condition="attribute_exists(#revision_key)",
        )
        return self._transact(namespace, revision_key, update)

    def _transact(
        self, namespace: Namespace, revision_key: str, update: Update
    ) -> "TransactWriteItemTypeDef":
        key = key_of(_PARTITION, namespace.value, _SORT, revision_key)
        return cast(
            "TransactWriteItemTypeDef", {"Update": {"TableName": self._table, "Key": key, **update.render()}}
        )

    def history(self, namespace: Namespace, logical_path: str) -> list[RevisionRecord]:
        """Every revision of one document, oldest first. Ordinary search never reads these."""
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "#namespace = :namespace AND begins_with(#revision_key, :prefix)",
            # A path may itself contain '#', so the prefix can match longer paths: filter exactly.
            "FilterExpression": "#logical_path = :path",
            "ExpressionAttributeNames": {
                "#namespace": "namespace",
                "#revision_key": _SORT,
                "#logical_path": "logical_path",
            },
            "ExpressionAttributeValues": attribute_values(
                {":namespace": namespace.value, ":prefix": f"{logical_path}#", ":path": logical_path}
            ),
        }
        records: list[RevisionRecord] = []
        while True:
            response = self._client.query(**request)
            records.extend(RevisionRecord.from_item(dict(item)) for item in response.get("Items", []))
            last = response.get("LastEvaluatedKey")
            if not last:
                break
            request["ExclusiveStartKey"] = last
        return sorted(records, key=lambda record: (record.created_at, record.revision_key))
