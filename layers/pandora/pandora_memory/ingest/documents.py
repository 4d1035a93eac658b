"""The documents table: one item per (namespace, logical path), the ordering and status authority.

Every write that changes what the document points at is conditional on the ordering guard or on the
writer's claim, so concurrent or re-delivered events cannot interleave their effects.
"""

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from botocore.exceptions import ClientError

from pandora_memory.ingest.aws_errors import is_condition_failure
from pandora_memory.ingest.expressions import Update, attribute_values, key_of
from pandora_memory.ingest.ordering import ORDER_GUARD, EventOrder, guard_values
from pandora_memory.ingest.outcomes import ChangeKind
from pandora_memory.ingest.records import DocumentState, ProjectionStatus
from pandora_memory.ingest.s3_keys import MemoryKey
from pandora_memory.namespaces import Namespace

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

_PARTITION = "namespace"
_SORT = "logical_path"
_CLAIMED = "#claim = :claim"
_MAX_ERROR_CHARS = 200


@dataclass(frozen=True)
class UploadFacts:
    """What S3 says about the object version being ingested (no content)."""

    source_hash: str
    source_size: int
    etag: str | None
    version_id: str | None


class DocumentRepository:
    def __init__(self, client: "DynamoDBClient", table_name: str) -> None:
        self._client = client
        self._table = table_name

    def _key(self, key: MemoryKey) -> dict[str, Any]:
        return key_of(_PARTITION, key.namespace.value, _SORT, key.logical_path)

    def get(self, key: MemoryKey) -> DocumentState | None:
        response = self._client.get_item(TableName=self._table, Key=self._key(key), ConsistentRead=True)
        item = response.get("Item")
        return DocumentState.from_item(dict(item)) if item else None

    def _conditional_update(self, key: MemoryKey, update: Update) -> bool:
        try:
            self._client.update_item(TableName=self._table, Key=self._key(key), **update.render())
        except ClientError as error:
            if is_condition_failure(error):
                return False
            raise
        return True

    def record_unchanged(
        self, key: MemoryKey, order: EventOrder, facts: UploadFacts, revision_key: str, now: str
    ) -> bool:
        """Bookkeeping for a re-upload of the active content; False if the document moved meanwhile."""
        update = Update(
            sets={
                **_event_fields(order, facts.version_id, now),
                "etag": facts.etag,
                "source_hash": facts.source_hash,
                "source_size": facts.source_size,
                "projection_status": ProjectionStatus.ACTIVE.value,
            },
            removes=("projection_error", "projection_attempts"),
            condition=f"({ORDER_GUARD}) AND #current_revision = :rev AND #active_revision = :rev "
            "AND #tombstoned = :false",
            condition_values={**guard_values(order), ":rev": revision_key, ":false": False},
        )
        return self._conditional_update(key, update)

    def claim_upload(
        self,
        key: MemoryKey,
        order: EventOrder,
        facts: UploadFacts,
        *,
        current_hash: str,
        revision_key: str,
        change_kind: ChangeKind,
        previous_logical_path: str | None,
        now: str,
    ) -> bool:
        """Point the document at a new (pending) revision; the active one stays searchable.

        The change kind is kept with the claim, so a re-delivery finishes the change it started
        rather than re-deriving it from the state its own claim produced.
        """
        update = Update(
            sets={
                "change_kind": change_kind.value,
                "previous_logical_path": previous_logical_path,
                **_event_fields(order, facts.version_id, now),
                "etag": facts.etag,
                "source_hash": facts.source_hash,
                "source_size": facts.source_size,
                "current_hash": current_hash,
                "current_revision": revision_key,
                "projection_status": ProjectionStatus.PENDING.value,
                "tombstoned": False,
            },
            removes=("tombstoned_at", "renamed_to"),
            condition=ORDER_GUARD,
            condition_values=guard_values(order),
        )
        return self._conditional_update(key, update)

    def claim_removal(
        self,
        key: MemoryKey,
        order: EventOrder,
        version_id: str | None,
        *,
        revision_key: str,
        now: str,
        renamed_to: str | None = None,
    ) -> bool:
        """Tombstone the document. current_hash stays: a later create of the same text is a rename.

        `renamed_to` names the path its text was copied to just before (S3 renames copy, then delete):
        the tombstone is then already consumed and can be the source of no later rename.
        """
        update = Update(
            sets={
                **_event_fields(order, version_id, now),
                "current_revision": revision_key,
                "change_kind": (ChangeKind.RENAME if renamed_to else ChangeKind.DELETE).value,
                "previous_logical_path": None,
                "projection_status": ProjectionStatus.PENDING.value,
                "tombstoned": True,
                "tombstoned_at": now,
                "renamed_to": renamed_to,
            },
            removes=("etag",),
            condition=f"({ORDER_GUARD}) AND attribute_exists(#current_hash)",
            condition_values=guard_values(order),
        )
        return self._conditional_update(key, update)

    def mark_error(
        self, key: MemoryKey, *, error: str, now: str, claim: str | None, newer_than: EventOrder | None
    ) -> int | None:
        """Record a failed attempt; returns the attempt count, or None if a newer event owns the document.

        With a claim the write is tied to it; before one, only to the event's order when known, so
        a failure of an old, stale event cannot flag a document a newer event has completed.
        """
        if claim is not None:
            condition, values = _CLAIMED, {":claim": claim}
        elif newer_than is not None:
            condition = "attribute_not_exists(#order_key) OR #order_key <= :order"
            values = {":order": newer_than.order_key}
        else:
            condition, values = None, {}
        update = Update(
            sets={
                "projection_status": ProjectionStatus.PENDING.value,
                "projection_error": error[:_MAX_ERROR_CHARS],
                "updated_at": now,
            },
            adds={"projection_attempts": 1},
            condition=condition,
            condition_values=values,
        )
        try:
            response = self._client.update_item(
                TableName=self._table, Key=self._key(key), ReturnValues="UPDATED_NEW", **update.render()
            )
        except ClientError as failure:
            if is_condition_failure(failure):
                return None
            raise
        attempts = response.get("Attributes", {}).get("projection_attempts", {}).get("N", "1")
        return int(attempts)

    def mark_failed(self, key: MemoryKey, attempts: int) -> None:
        """After the last automatic retry: the event goes to the dead-letter queue, the flag says so."""
        update = Update(
            sets={"projection_status": ProjectionStatus.FAILED.value},
            condition="#projection_attempts = :attempts",
            condition_values={":attempts": attempts},
        )
        self._conditional_update(key, update)

    def activation(
        self, key: MemoryKey, claim: str, revision_key: str | None, now: str
    ) -> "TransactWriteItemTypeDef":
        """The document half of a projection swap: only while this event still owns the document."""
        sets: dict[str, Any] = {"projection_status": ProjectionStatus.ACTIVE.value, "updated_at": now}
        removes = ["projection_error", "projection_attempts"]
        if revision_key is None:
            removes.append("active_revision")
        else:
            sets["active_revision"] = revision_key
        update = Update(sets=sets, removes=removes, condition=_CLAIMED, condition_values={":claim": claim})
        return _transact_update(self._table, self._key(key), update)

    def rename_source(self, namespace: Namespace, old_path: str, new_path: str) -> "TransactWriteItemTypeDef":
        """Marks the tombstone a rename consumed, so it cannot be the source of a second rename."""
        update = Update(
            sets={"renamed_to": new_path},
            condition="#tombstoned = :true AND attribute_not_exists(#renamed_to)",
            condition_values={":true": True},
        )
        return _transact_update(self._table, key_of(_PARTITION, namespace.value, _SORT, old_path), update)

    def recent_tombstones(self, namespace: Namespace, content_hash: str, since: str) -> list[str]:
        """Paths in the namespace deleted since `since` whose last content had this hash."""
        return self._paths_where(
            namespace,
            "#tombstoned = :true AND #current_hash = :hash AND #tombstoned_at >= :since "
            "AND attribute_not_exists(#renamed_to)",
            {":true": True, ":hash": content_hash, ":since": since},
        )

    def fresh_copies(self, namespace: Namespace, content_hash: str, since: str) -> list[str]:
        """Live paths whose only change so far is their creation with this text, seen since `since`:
        the possible targets of a copy this text's deletion elsewhere completes into a rename."""
        return self._paths_where(
            namespace,
            "#tombstoned = :false AND #current_hash = :hash AND #change_kind = :create "
            "AND #observed_at >= :since AND attribute_not_exists(#previous_logical_path)",
            {":false": False, ":hash": content_hash, ":create": ChangeKind.CREATE.value, ":since": since},
        )

    def copy_check(self, namespace: Namespace, path: str, content_hash: str) -> "TransactWriteItemTypeDef":
        """Holds a rename-on-delete to the copy still being what the lookup found when the swap commits."""
        update = Update(
            condition="#tombstoned = :false AND #current_hash = :hash AND #change_kind = :create",
            condition_values={":false": False, ":hash": content_hash, ":create": ChangeKind.CREATE.value},
        )
        rendered = update.render()
        rendered.pop("UpdateExpression")
        check = {
            "TableName": self._table,
            "Key": key_of(_PARTITION, namespace.value, _SORT, path),
            **rendered,
        }
        return cast("TransactWriteItemTypeDef", {"ConditionCheck": check})

    def _paths_where(self, namespace: Namespace, condition: str, values: dict[str, Any]) -> list[str]:
        """Paths of the namespace's documents matching a filter (one partition Query, paged)."""
        names = {"namespace", "logical_path", *re.findall(r"#([A-Za-z_]+)", condition)}
        paths: list[str] = []
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "#namespace = :namespace",
            "FilterExpression": condition,
            "ProjectionExpression": "#logical_path",
            "ExpressionAttributeNames": {f"#{name}": name for name in sorted(names)},
            "ExpressionAttributeValues": attribute_values({":namespace": namespace.value, **values}),
            "ConsistentRead": True,
        }
        while True:
            response = self._client.query(**request)
            paths.extend(str(item["logical_path"]["S"]) for item in response.get("Items", []))
            last = response.get("LastEvaluatedKey")
            if not last:
                return paths
            request["ExclusiveStartKey"] = last


def _event_fields(order: EventOrder, version_id: str | None, now: str) -> dict[str, Any]:
    return {
        "order_key": order.order_key,
        "claim": order.claim,
        "sequencer": order.sequencer,
        "version_id": version_id,
        "observed_at": now,
        "updated_at": now,
    }


def _transact_update(table: str, key: dict[str, Any], update: Update) -> "TransactWriteItemTypeDef":
    return cast("TransactWriteItemTypeDef", {"Update": {"TableName": table, "Key": key, **update.render()}})
