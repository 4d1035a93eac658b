"""The search reader over the stack provisioned from template.yaml, fed by the real ingest pipeline.

`SearchHarness.service` is built by `build_search_service` on clients of its own, whose every AWS
call is recorded through botocore's `before-call` event, so a test can assert what a search read.
"""

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.search.factory import build_search_service
from pandora_memory.search.reader import SearchResult, SearchService
from pandora_memory.search.settings import load_search_settings
from pandora_memory.storage.records import MemoryRecord, MemoryStatus, utc_timestamp
from unit.ingest.ingest_harness import IngestHarness, start_ingest

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@dataclass
class CallLog:
    """(service, operation) of every request the search service's clients sent, in order."""

    calls: list[tuple[str, str]] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)  # TableName of every DynamoDB call

    def __call__(self, model: Any, params: dict[str, Any], **kwargs: Any) -> None:
        service = model.service_model.service_name
        self.calls.append((service, model.name))
        if service == "dynamodb":
            self.tables.append(str(json.loads(params["body"]).get("TableName")))

    def take(self) -> list[tuple[str, str]]:
        taken, self.calls, self.tables = self.calls, [], []
        return taken


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class SearchHarness:
    ingest: IngestHarness
    service: SearchService
    calls: CallLog
    clock: FakeClock
    memory_count: int = 0

    def search(self, namespace: str, query: str, **options: Any) -> list[SearchResult]:
        return self.service.search(namespace, query, **options)

    def paths(self, namespace: str, query: str, **options: Any) -> list[str]:
        return [result.logical_path for result in self.search(namespace, query, **options)]

    def approve_memory(
        self,
        summary: str,
        namespace: Namespace = Namespace.REAL_LIFE,
        memory_type: MemoryType = MemoryType.PREFERENCE,
        *,
        bump: bool = True,
        **changes: object,
    ) -> MemoryRecord:
        """What review approval writes: the memory item, and `ADD memory_generation :one`."""
        self.memory_count += 1
        record = MemoryRecord(
            namespace=namespace,
            content_hash=content_hash(namespace, memory_type.value, summary),
            created_at=utc_timestamp(T0 + timedelta(minutes=self.memory_count)),
            memory_type=memory_type,
            sensitivity=Sensitivity.LOW,
            summary=summary,
            status=MemoryStatus.APPROVED,
        ).model_copy(update=changes)
        client = boto3.client("dynamodb")
        client.put_item(TableName=self.ingest.stack.table_names["MemoryEventsTable"], Item=record.to_item())
        if bump:
            client.update_item(
                TableName=self.ingest.stack.table_names["ProjectionsTable"],
                Key={"namespace": {"S": namespace.value}},
                UpdateExpression="ADD memory_generation :one",
                ExpressionAttributeValues={":one": {"N": "1"}},
            )
        return record


def start_search(stack: "ProvisionedStack", ingest: IngestHarness | None = None) -> SearchHarness:
    settings = load_search_settings(stack.env)
    dynamodb = boto3.client("dynamodb")
    s3 = boto3.client("s3")
    calls = CallLog()
    for client in (dynamodb, s3):
        client.meta.events.register("before-call", calls)
    clock = FakeClock()
    service = build_search_service(settings, dynamodb, s3, clock=clock)
    return SearchHarness(ingest or start_ingest(stack), service, calls, clock)


@pytest.fixture(name="search")
def search_fixture(provisioned_stack: "ProvisionedStack") -> SearchHarness:
    """Imported by the test modules, like the ingest harness's fixture."""
    return start_search(provisioned_stack)
