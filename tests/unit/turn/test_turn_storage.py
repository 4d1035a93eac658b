"""Repositories against moto tables built from template.yaml, and their error paths with Stubber."""

from datetime import UTC, datetime, timedelta

import boto3
import pytest
from botocore.stub import Stubber
from mypy_boto3_dynamodb import DynamoDBClient
from pandora_devstack.provision import ProvisionedStack
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.storage.errors import StorageError, StorageUnavailableError
from pandora_memory.storage.memories import MemoryRepository
from pandora_memory.storage.records import (
    CandidateRecord,
    InboxStatus,
    MemoryRecord,
    MemoryStatus,
    utc_timestamp,
)

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def candidate(
    summary: str = "prefers small PRs", namespace: Namespace = Namespace.REAL_LIFE
) -> CandidateRecord:
    return CandidateRecord(
        namespace=namespace,
        content_hash=content_hash(namespace, "preference", summary),
        created_at=utc_timestamp(T0),
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
        summary=summary,
        status=InboxStatus.PENDING_REVIEW,
        confidence=0.91,
        requires_review=False,
        reason="preference cue",
        rules=["capture.preference"],
    )


def memory(n: int, namespace: Namespace = Namespace.REAL_LIFE, **changes: object) -> MemoryRecord:
    record = MemoryRecord(
        namespace=namespace,
        content_hash=content_hash(namespace, "preference", f"memory {n}"),
        created_at=utc_timestamp(T0 + timedelta(minutes=n)),
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
        summary=f"memory {n}",
        status=MemoryStatus.APPROVED,
    )
    return record.model_copy(update=changes)


@pytest.fixture
def dynamodb(stack: ProvisionedStack) -> DynamoDBClient:
    return boto3.client("dynamodb")


@pytest.fixture
def tables(stack: ProvisionedStack) -> tuple[str, str]:
    names = stack.table_names
    return names["CandidatesTable"], names["MemoryEventsTable"]


def test_timestamps_sort_in_time_order() -> None:
    assert utc_timestamp(T0) == "2026-11-01T12:00:00.000000Z"
    assert utc_timestamp(T0) < utc_timestamp(T0 + timedelta(microseconds=1))


def test_candidate_item_round_trips_with_its_status_index_key(
    dynamodb: DynamoDBClient, tables: tuple[str, str]
) -> None:
    record = candidate()
    assert CandidateRepository(dynamodb, tables[0]).add(record).created
    item = dynamodb.get_item(
        TableName=tables[0], Key={"namespace": {"S": "real_life"}, "content_hash": {"S": record.content_hash}}
    )["Item"]
    assert item["namespace_status"] == {"S": "real_life#pending_review"}
    assert item["candidate_id"] == {"S": record.id}
    assert CandidateRecord.from_item(item) == record


def test_a_repeated_candidate_returns_the_stored_one_and_writes_nothing(
    dynamodb: DynamoDBClient, tables: tuple[str, str]
) -> None:
    repository = CandidateRepository(dynamodb, tables[0])
    first = candidate()
    repository.add(first)
    again = first.model_copy(update={"created_at": utc_timestamp(T0 + timedelta(days=1)), "confidence": 0.5})
    result = repository.add(again)
    assert not result.created
    assert result.existing == first
    assert dynamodb.scan(TableName=tables[0])["Count"] == 1


def test_capture_writes_memory_and_candidate_together_once(
    dynamodb: DynamoDBClient, tables: tuple[str, str]
) -> None:
    writer = AutoCaptureWriter(dynamodb, memory_table=tables[1], candidates_table=tables[0])
    record = candidate().model_copy(update={"status": InboxStatus.AUTO_CAPTURED})
    kept = memory(0).model_copy(
        update={"content_hash": record.content_hash, "status": MemoryStatus.AUTO_CAPTURED}
    )
    assert writer.capture(kept, record).created
    repeat = writer.capture(kept, record)
    assert not repeat.created and repeat.existing == record
    assert dynamodb.scan(TableName=tables[0])["Count"] == 1
    assert dynamodb.scan(TableName=tables[1])["Count"] == 1


def test_capture_of_content_already_in_memory_is_a_duplicate_and_writes_no_candidate(
    dynamodb: DynamoDBClient, tables: tuple[str, str]
) -> None:
    record = candidate().model_copy(update={"status": InboxStatus.AUTO_CAPTURED})
    approved = memory(0).model_copy(update={"content_hash": record.content_hash})
    dynamodb.put_item(TableName=tables[1], Item=approved.to_item())
    result = AutoCaptureWriter(dynamodb, tables[1], tables[0]).capture(approved, record)
    assert result.existing == approved
    assert dynamodb.scan(TableName=tables[0])["Count"] == 0


def test_newest_reads_one_namespace_newest_first_in_one_call(
    dynamodb: DynamoDBClient, tables: tuple[str, str]
) -> None:
    for n in range(5):
        dynamodb.put_item(TableName=tables[1], Item=memory(n).to_item())
    dynamodb.put_item(TableName=tables[1], Item=memory(9, Namespace.AU).to_item())
    dynamodb.put_item(
        TableName=tables[1],
        Item={
            "namespace": {"S": "real_life"},
            "content_hash": {"S": "f" * 64},
            "created_at": {"S": "2026-12-01"},
        },
    )
    calls: list[str] = []
    dynamodb.meta.events.register("before-call.dynamodb.*", lambda model, **_: calls.append(model.name))
    records = MemoryRepository(dynamodb, tables[1]).newest(Namespace.REAL_LIFE, limit=3)
    assert calls == ["Query"]
    assert [r.summary for r in records] == ["memory 4", "memory 3"]  # the malformed newest item is left out


def _stubbed() -> tuple[DynamoDBClient, Stubber]:
    client = boto3.client("dynamodb", region_name="us-east-1")
    return client, Stubber(client)


@pytest.mark.parametrize(
    ("code", "error_type"),
    [
        ("ProvisionedThroughputExceededException", StorageUnavailableError),
        ("ThrottlingException", StorageUnavailableError),
        ("AccessDeniedException", StorageError),
    ],
)
def test_write_errors_become_storage_errors(code: str, error_type: type[StorageError]) -> None:
    client, stub = _stubbed()
    stub.add_client_error("put_item", service_error_code=code)
    with stub, pytest.raises(error_type) as raised:
        CandidateRepository(client, "t").add(candidate())
    assert raised.value.code == code
    assert type(raised.value) is error_type


def test_query_throttling_is_unavailable() -> None:
    client, stub = _stubbed()
    stub.add_client_error("query", service_error_code="ThrottlingException")
    with stub, pytest.raises(StorageUnavailableError):
        MemoryRepository(client, "t").newest(Namespace.AU, 10)


@pytest.mark.parametrize(
    ("reasons", "error_type"),
    [
        ([{"Code": "ThrottlingError"}, {"Code": "None"}], StorageUnavailableError),
        ([{"Code": "None"}, {"Code": "TransactionConflict"}], StorageUnavailableError),
        ([{"Code": "ValidationError"}, {"Code": "None"}], StorageError),
    ],
)
def test_a_cancelled_capture_without_a_duplicate_is_an_error(
    reasons: list[dict[str, str]], error_type: type[StorageError]
) -> None:
    client, stub = _stubbed()
    stub.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        response_meta={},
        modeled_fields={"CancellationReasons": reasons},
    )
    record = candidate()
    with stub, pytest.raises(error_type):
        AutoCaptureWriter(client, "m", "c").capture(memory(0), record)
