"""How a cancelled review transaction is explained: lost race (409), duplicate memory (409), busy (503)."""

from typing import Any

import pytest
from botocore.exceptions import ClientError
from pandora_memory.feedback.events import FeedbackAction, FeedbackEvent
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.review.errors import CandidateNotFoundError, DuplicateMemoryError, StatusConflictError
from pandora_memory.review.records import ReviewedCandidate
from pandora_memory.review.repository import ReviewRepository, StatusChange, Tables
from pandora_memory.storage.errors import StorageError, StorageUnavailableError
from pandora_memory.storage.records import InboxStatus, MemoryRecord, MemoryStatus

TABLES = Tables(candidates="c", memories="m", projections="p", feedback="f")
NOW = "2026-11-29T10:00:00.000000Z"


def candidate(status: InboxStatus = InboxStatus.PENDING_REVIEW) -> ReviewedCandidate:
    return ReviewedCandidate(
        namespace=Namespace.REAL_LIFE,
        content_hash=content_hash(Namespace.REAL_LIFE, "preference", "Prefers tabs"),
        created_at=NOW,
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
        summary="Prefers tabs",
        status=status,
        confidence=0.8,
        requires_review=False,
        reason="r",
    )


def memory() -> MemoryRecord:
    return MemoryRecord(
        namespace=Namespace.REAL_LIFE,
        content_hash=candidate().content_hash,
        created_at=NOW,
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
        summary="Prefers tabs",
        status=MemoryStatus.APPROVED,
    )


def event() -> FeedbackEvent:
    return FeedbackEvent(
        namespace=Namespace.REAL_LIFE,
        event_id="0" * 32,
        created_at=NOW,
        action=FeedbackAction.APPROVED,
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
    )


class FakeClient:
    """Cancels every transaction with the given reasons; answers reads with `current`."""

    def __init__(self, reasons: list[dict[str, Any]], current: ReviewedCandidate | None = None) -> None:
        self.reasons = reasons
        self.current = current
        self.transactions: list[list[dict[str, Any]]] = []

    def transact_write_items(self, TransactItems: list[dict[str, Any]]) -> None:  # noqa: N803
        self.transactions.append(TransactItems)
        response: Any = {
            "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
            "CancellationReasons": self.reasons,
        }
        raise ClientError(response, "TransactWriteItems")

    def get_item(self, **_: Any) -> dict[str, Any]:
        return {"Item": self.current.to_item()} if self.current else {}


def approve_with(client: FakeClient) -> None:
    change = StatusChange(candidate(InboxStatus.APPROVED), InboxStatus.PENDING_REVIEW, NOW, "me")
    ReviewRepository(client, TABLES).approve(change, memory(), event())  # type: ignore[arg-type]


def test_a_lost_race_reports_the_status_now() -> None:
    approved = candidate(InboxStatus.APPROVED).to_item()
    client = FakeClient([{"Code": "ConditionalCheckFailed", "Item": approved}, {"Code": "None"}])
    with pytest.raises(StatusConflictError) as raised:
        approve_with(client)
    assert raised.value.current_status == "approved"


def test_a_vanished_candidate_is_not_found() -> None:
    with pytest.raises(CandidateNotFoundError):
        approve_with(FakeClient([{"Code": "ConditionalCheckFailed"}, {"Code": "None"}]))


def test_an_existing_memory_is_a_duplicate() -> None:
    client = FakeClient([{"Code": "None"}, {"Code": "ConditionalCheckFailed"}, {"Code": "None"}])
    with pytest.raises(DuplicateMemoryError):
        approve_with(client)


def test_a_transaction_conflict_with_a_reviewer_who_won_is_a_conflict() -> None:
    client = FakeClient(
        [{"Code": "TransactionConflict"}, {"Code": "None"}], current=candidate(InboxStatus.REJECTED)
    )
    with pytest.raises(StatusConflictError) as raised:
        approve_with(client)
    assert raised.value.current_status == "rejected"


def test_a_transaction_conflict_while_still_pending_is_retryable() -> None:
    client = FakeClient([{"Code": "TransactionConflict"}, {"Code": "None"}], current=candidate())
    with pytest.raises(StorageUnavailableError):
        approve_with(client)


def test_other_cancellations_are_storage_errors() -> None:
    with pytest.raises(StorageError):
        approve_with(FakeClient([{"Code": "ValidationError"}, {"Code": "None"}]))


def test_approval_is_one_transaction_of_four_writes() -> None:
    client = FakeClient([{"Code": "ValidationError"}])
    with pytest.raises(StorageError):
        approve_with(client)
    (items,) = client.transactions
    assert [next(iter(item)) for item in items] == ["Update", "Put", "Put", "Update"]
    status_update = items[0]["Update"]
    assert status_update["ConditionExpression"] == "#status = :expected"
    assert status_update["ExpressionAttributeValues"][":expected"] == {"S": "pending_review"}
    assert items[3]["Update"]["UpdateExpression"] == "ADD memory_generation :one"
    assert items[3]["Update"]["Key"] == {"namespace": {"S": "real_life"}}
