"""DynamoDB side of the review inbox. Every status change is one conditional transaction that also
writes its feedback event and, when a memory is created, bumps the namespace's memory generation so
search reloads its memories.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import ValidationError

from pandora_memory.feedback.events import FeedbackEvent
from pandora_memory.feedback.repository import FeedbackRepository
from pandora_memory.namespaces import Namespace
from pandora_memory.review.errors import (
    CandidateNotFoundError,
    DuplicateMemoryError,
    StatusConflictError,
)
from pandora_memory.review.records import ReviewedCandidate, memory_item
from pandora_memory.storage.errors import (
    RETRYABLE_CODES,
    StorageError,
    StorageUnavailableError,
    storage_error,
)
from pandora_memory.storage.records import InboxStatus, Item, MemoryRecord, to_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

BY_STATUS_INDEX = "ByStatus"
CONDITION_FAILED = "ConditionalCheckFailed"


@dataclass(frozen=True)
class Tables:
    candidates: str
    memories: str
    projections: str
    feedback: str


@dataclass(frozen=True)
class StatusChange:
    """A reviewed candidate's new state; `expected` is the status it was read with."""

    candidate: ReviewedCandidate
    expected: InboxStatus
    reviewed_at: str
    reviewed_by: str


@dataclass(frozen=True)
class _Reason:
    code: str
    item: Item | None


class ReviewRepository:
    def __init__(self, client: "DynamoDBClient", tables: Tables) -> None:
        self._client = client
        self._tables = tables
        self._feedback = FeedbackRepository(client, tables.feedback)

    @property
    def feedback(self) -> FeedbackRepository:
        return self._feedback

    # -- reads ------------------------------------------------------------------------------------

    def get(self, namespace: Namespace, content_hash: str) -> ReviewedCandidate | None:
        try:
            response = self._client.get_item(
                TableName=self._tables.candidates,
                Key={"namespace": {"S": namespace.value}, "content_hash": {"S": content_hash}},
                ConsistentRead=True,
            )
        except (ClientError, BotoCoreError) as error:
            raise storage_error("candidate read", error) from None
        item = response.get("Item")
        return ReviewedCandidate.from_stored(dict(item)) if item else None

    def page(
        self, namespace: Namespace, status: InboxStatus, limit: int, start_key: Item | None
    ) -> tuple[list[ReviewedCandidate], Item | None]:
        """One page of a namespace's candidates in one status, newest first."""
        request: dict[str, Any] = {
            "TableName": self._tables.candidates,
            "IndexName": BY_STATUS_INDEX,
            "KeyConditionExpression": "namespace_status = :key",
            "ExpressionAttributeValues": {":key": {"S": f"{namespace.value}#{status.value}"}},
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if start_key:
            request["ExclusiveStartKey"] = start_key
        try:
            response = self._client.query(**request)
        except (ClientError, BotoCoreError) as error:
            raise storage_error("candidate listing", error) from None
        candidates: list[ReviewedCandidate] = []
        for item in response.get("Items", []):
            try:
                candidate = ReviewedCandidate.from_stored(dict(item))
            except ValidationError:
                continue  # an item another writer shaped differently is left out, not fatal
            if candidate.namespace is namespace:
                candidates.append(candidate)
        last = response.get("LastEvaluatedKey")
        return candidates, (dict(last) if last else None)

    # -- writes -----------------------------------------------------------------------------------

    def approve(self, change: StatusChange, memory: MemoryRecord, event: FeedbackEvent) -> None:
        """Candidate → approved, memory created, feedback written, generation bumped: all or nothing."""
        extra: dict[str, Any] = {"memory_id": memory.id}
        if change.candidate.corrected_namespace is not None:
            extra["corrected_namespace"] = change.candidate.corrected_namespace.value
        self._transact(
            [
                self._status_update(change, extra),
                {
                    "Put": {
                        "TableName": self._tables.memories,
                        "Item": memory_item(memory),
                        "ConditionExpression": "attribute_not_exists(content_hash)",
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
                self._feedback.put_request(event),
                self._generation_bump(memory.namespace),
            ],
            change,
            memory,
        )

    def reject(self, change: StatusChange, event: FeedbackEvent) -> None:
        extra: dict[str, Any] = {}
        if change.candidate.review_note:
            extra["review_note"] = change.candidate.review_note
        self._transact([self._status_update(change, extra), self._feedback.put_request(event)], change, None)

    def add_memory(self, memory: MemoryRecord, event: FeedbackEvent) -> None:
        """A memory added by hand, with its feedback event and the generation bump."""
        self._transact(
            [
                {
                    "Put": {
                        "TableName": self._tables.memories,
                        "Item": memory_item(memory),
                        "ConditionExpression": "attribute_not_exists(content_hash)",
                    }
                },
                self._feedback.put_request(event),
                self._generation_bump(memory.namespace),
            ],
            None,
            memory,
        )

    # -- transaction parts ------------------------------------------------------------------------

    def _status_update(self, change: StatusChange, extra: dict[str, Any]) -> "TransactWriteItemTypeDef":
        candidate = change.candidate
        values: dict[str, Any] = {
            "namespace_status": f"{candidate.namespace.value}#{candidate.status.value}",
            "reviewed_at": change.reviewed_at,
            "reviewed_by": change.reviewed_by,
            "corrections": [correction.value for correction in candidate.corrections],
            **extra,
        }
        # Placeholders for every name: `status` is a DynamoDB reserved word, and the rest stay uniform.
        names = {"#status": "status", **{f"#f{index}": name for index, name in enumerate(values)}}
        assignments = ["#status = :status"]
        assignments += [f"#f{index} = :v{index}" for index in range(len(values))]
        attribute_values = to_item({f":v{index}": value for index, value in enumerate(values.values())})
        attribute_values[":status"] = {"S": candidate.status.value}
        attribute_values[":expected"] = {"S": change.expected.value}
        return {
            "Update": {
                "TableName": self._tables.candidates,
                "Key": {
                    "namespace": {"S": candidate.namespace.value},
                    "content_hash": {"S": candidate.content_hash},
                },
                "UpdateExpression": "SET " + ", ".join(assignments),
                # The one guard against double review: the status must still be the one we read.
                "ConditionExpression": "#status = :expected",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": attribute_values,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def _generation_bump(self, namespace: Namespace) -> "TransactWriteItemTypeDef":
        return {
            "Update": {
                "TableName": self._tables.projections,
                "Key": {"namespace": {"S": namespace.value}},
                "UpdateExpression": "ADD memory_generation :one",
                "ExpressionAttributeValues": {":one": {"N": "1"}},
            }
        }

    def _transact(
        self,
        items: list["TransactWriteItemTypeDef"],
        change: StatusChange | None,
        memory: MemoryRecord | None,
    ) -> None:
        try:
            self._client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "TransactionCanceledException":
                raise storage_error("review transaction", error) from None
            self._explain_cancellation(_reasons(error.response), change, memory)
        except BotoCoreError as error:
            raise storage_error("review transaction", error) from None

    def _explain_cancellation(
        self, reasons: list[_Reason], change: StatusChange | None, memory: MemoryRecord | None
    ) -> None:
        """Turns a cancelled transaction into the refusal it stands for; always raises."""
        offset = 0
        if change is not None:
            offset = 1
            first = reasons[0] if reasons else _Reason("None", None)
            if first.code == CONDITION_FAILED:
                if not first.item:
                    raise CandidateNotFoundError
                raise StatusConflictError(str(ReviewedCandidate.from_stored(first.item).status.value))
        if memory is not None and len(reasons) > offset and reasons[offset].code == CONDITION_FAILED:
            raise DuplicateMemoryError(memory.id)
        codes = [reason.code for reason in reasons if reason.code != "None"]
        if change is not None and any(code in RETRYABLE_CODES for code in codes):
            # Another review of the same candidate may have won the race: say so if it did.
            current = self.get(change.candidate.namespace, change.candidate.content_hash)
            if current is None:
                raise CandidateNotFoundError
            if current.status is not change.expected:
                raise StatusConflictError(current.status.value)
        failing = codes[0] if codes else "TransactionCanceled"
        error_type = StorageUnavailableError if failing in RETRYABLE_CODES else StorageError
        raise error_type("review transaction", failing)


def _reasons(response: Any) -> list[_Reason]:
    reasons: list[_Reason] = []
    for reason in response.get("CancellationReasons") or []:
        item = reason.get("Item")
        reasons.append(_Reason(str(reason.get("Code", "None")), dict(item) if item else None))
    return reasons
