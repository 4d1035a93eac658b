"""A failure between any two steps keeps the previous projection searchable, flags the document
pending with the step and error code, and a re-delivery of the same event completes the change."""

from collections.abc import Callable
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError
from pandora_memory.ingest import pipeline as pipeline_module
from pandora_memory.ingest.chunks import ChunkRepository
from pandora_memory.ingest.documents import DocumentRepository
from pandora_memory.ingest.outcomes import ChangeKind, IngestStepError, OutcomeKind
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.ingest.revisions import RevisionRepository
from pandora_memory.ingest.uploads import UploadStore
from pandora_memory.markdown.chunking import chunk_markdown
from pandora_memory.secrets import Redaction, redact
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture, start_ingest  # noqa: F401 - the `ingest` fixture

NO_HEADERS: Any = {}
V1 = "# Plan\n\nShip on Friday.\n"
V2 = "# Plan\n\nShip on Monday.\n\n## Owners\n\nAda.\n"

# (step the pipeline reports, class, method) for every repository call of an update.
REPOSITORY_STEPS = [
    ("s3_read", UploadStore, "read_current"),
    ("document_read", DocumentRepository, "get"),
    ("claim", DocumentRepository, "claim_upload"),
    ("revision_write", RevisionRepository, "write_text"),
    ("revision_write", RevisionRepository, "put"),
    ("chunk_write", ChunkRepository, "write"),
    ("history_read", RevisionRepository, "read_text"),
    ("projection_read", ProjectionRepository, "pointer"),
    ("projection_read", ProjectionRepository, "manifest"),
    ("projection_read", ProjectionRepository, "load_shard"),
    ("snapshot_write", ProjectionRepository, "write_shard"),
    ("snapshot_write", ProjectionRepository, "write_manifest"),
    ("swap", ProjectionRepository, "swap"),
]


def transient(operation: str = "Injected") -> ClientError:
    return ClientError({"Error": {"Code": "InternalServerError", "Message": "injected"}}, operation)


def fail(monkeypatch: pytest.MonkeyPatch, owner: type, name: str, times: int = 1) -> list[int]:
    """The next `times` calls of owner.name raise a transient AWS error; later calls go through."""
    original = getattr(owner, name)
    failures: list[int] = []

    def failing(self: Any, *args: Any, **kwargs: Any) -> Any:
        if len(failures) < times:
            failures.append(1)
            raise transient(name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, failing)
    return failures


def assert_previous_version_still_served(ingest: IngestHarness, step: str, generation: int) -> None:
    assert "Friday" in ingest.searchable_text("projects/plan")
    assert "Monday" not in ingest.searchable_text("projects/plan")
    assert ingest.pointer().generation == generation
    document = ingest.document("projects/plan")
    assert document is not None
    assert document["projection_status"] == "pending"
    assert document["projection_error"] == f"{step}: InternalServerError"
    assert document["projection_attempts"] == 1
    [first] = ingest.history("projects/plan")[:1]
    assert document["active_revision"] == first.revision_key


def assert_completed(ingest: IngestHarness) -> None:
    assert "Monday" in ingest.searchable_text("projects/plan")
    assert "Friday" not in ingest.searchable_text("projects/plan")
    document = ingest.document("projects/plan")
    assert document is not None
    assert document["projection_status"] == "active"
    assert "projection_error" not in document
    assert "projection_attempts" not in document


@pytest.mark.parametrize(
    ("step", "owner", "method"), REPOSITORY_STEPS, ids=lambda v: getattr(v, "__name__", v)
)
def test_a_failed_update_step_keeps_the_last_good_version_and_a_redelivery_completes_it(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch, step: str, owner: type, method: str
) -> None:
    ingest.upload("projects/plan", V1)
    generation = ingest.pointer().generation
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, owner, method)

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert (raised.value.step, raised.value.code) == (step, "InternalServerError")
    assert raised.value.document_marked
    assert ingest.metrics.failures == [step]
    assert_previous_version_still_served(ingest, step, generation)

    outcome = ingest.deliver(record)

    assert outcome.kind is OutcomeKind.INGESTED
    assert outcome.change_kind is ChangeKind.UPDATE
    assert_completed(ingest)


def test_a_redaction_failure_stores_no_unredacted_text(provisioned_stack: Any) -> None:
    calls: list[str] = []

    def flaky(text: str) -> Redaction:
        if "Monday" in text and not calls:
            calls.append(text)
            raise RuntimeError("detector crashed")
        return redact(text)

    ingest = start_ingest(provisioned_stack, redactor=flaky)
    ingest.upload("projects/plan", V1)
    record = ingest.put("projects/plan", V2)

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert (raised.value.step, raised.value.code) == ("redaction", "RuntimeError")
    assert not any("Monday" in str(item) for item in ingest.raw_items())
    assert not any(b"Monday" in body for body in ingest.stored_objects().values())
    assert ingest.deliver(record).kind is OutcomeKind.INGESTED
    assert_completed(ingest)


def test_a_chunker_failure_is_a_step_failure(ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest.upload("projects/plan", V1)
    record = ingest.put("projects/plan", V2)
    real_chunker: Callable[..., Any] = chunk_markdown

    def broken(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(pipeline_module, "chunk_markdown", real_chunker)
        raise ValueError("bad structure")

    monkeypatch.setattr(pipeline_module, "chunk_markdown", broken)

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert raised.value.step == "chunking"
    assert ingest.deliver(record).kind is OutcomeKind.INGESTED
    assert_completed(ingest)


def test_pending_content_is_durable_but_not_searchable(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest.upload("projects/plan", V1)
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, ProjectionRepository, "swap")

    with pytest.raises(IngestStepError):
        ingest.deliver(record)

    document = ingest.document("projects/plan")
    assert document is not None
    pending_revision = document["current_revision"]
    assert pending_revision != document["active_revision"]
    [pending] = [
        revision for revision in ingest.history("projects/plan") if revision.revision_key == pending_revision
    ]
    assert pending.snapshot_key is not None and "Monday" in ingest.revisions.read_text(pending.snapshot_key)
    assert {item["revision_key"] for item in ingest.chunk_items("projects/plan")} >= {pending_revision}
    assert all(entry.revision_id != pending_revision for entry in ingest.searchable())


def test_a_failed_first_version_is_pending_and_invisible_until_completed(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, ProjectionRepository, "write_manifest")

    with pytest.raises(IngestStepError):
        ingest.deliver(record)

    document = ingest.document("projects/plan")
    assert document is not None and document["projection_status"] == "pending"
    assert "active_revision" not in document
    assert ingest.searchable() == []
    assert ingest.deliver(record).change_kind is ChangeKind.CREATE
    assert_completed(ingest)


def test_a_failed_rename_lookup_is_retried(ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest.upload("drafts/plan", V2)
    ingest.delete("drafts/plan")
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, DocumentRepository, "recent_tombstones")

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert raised.value.step == "rename_lookup"
    assert ingest.deliver(record).change_kind is ChangeKind.RENAME


def test_a_redelivery_finishes_the_change_its_first_attempt_claimed(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest.upload("drafts/plan", V2)
    ingest.delete("drafts/plan")
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, RevisionRepository, "put")

    with pytest.raises(IngestStepError):
        ingest.deliver(record)

    # The claim made the document live; the retry must still record the rename, not an update.
    assert ingest.deliver(record).change_kind is ChangeKind.RENAME
    [revision] = ingest.history("projects/plan")
    assert revision.previous_logical_path == "drafts/plan"


def test_a_failed_delete_keeps_the_document_searchable_until_redelivered(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest.upload("projects/plan", V1)
    record = ingest.remove("projects/plan")
    fail(monkeypatch, ProjectionRepository, "swap")

    with pytest.raises(IngestStepError):
        ingest.deliver(record)

    assert "Friday" in ingest.searchable_text("projects/plan")
    document = ingest.document("projects/plan")
    assert document is not None and document["projection_status"] == "pending"
    assert ingest.deliver(record).change_kind is ChangeKind.DELETE
    assert ingest.searchable() == []


def test_the_last_automatic_attempt_flags_the_document_failed(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest.upload("projects/plan", V1)
    record = ingest.put("projects/plan", V2)
    fail(monkeypatch, ChunkRepository, "write", times=3)
    statuses = []
    for _ in range(3):
        with pytest.raises(IngestStepError):
            ingest.deliver(record)
        document = ingest.document("projects/plan")
        assert document is not None
        statuses.append((document["projection_status"], document["projection_attempts"]))

    assert statuses == [("pending", 1), ("pending", 2), ("failed", 3)]
    assert "Friday" in ingest.searchable_text("projects/plan")
    assert ingest.deliver(record).kind is OutcomeKind.INGESTED
    assert_completed(ingest)


def test_an_aws_error_inside_the_transaction_is_a_swap_failure(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", V1)
    record = ingest.put("projects/plan", V2)
    answered: list[str] = []

    def cancelled(model: Any, **_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        if answered:
            return None
        answered.append(model.name)
        parsed = {
            "Error": {"Code": "TransactionCanceledException", "Message": "injected"},
            "CancellationReasons": [{"Code": "ThrottlingError"}, {"Code": "None"}],
            "ResponseMetadata": {"HTTPStatusCode": 400},
        }
        return AWSResponse("https://fault.invalid", 400, NO_HEADERS, None), parsed

    hooks: Any = ingest.dynamodb.meta.events
    hooks.register("before-call.dynamodb.TransactWriteItems", cancelled)

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert (raised.value.step, raised.value.code) == ("swap", "TransactionCanceledException")
    assert "Friday" in ingest.searchable_text("projects/plan")
    assert ingest.deliver(record).kind is OutcomeKind.INGESTED


class _Body:
    def __init__(self, data: bytes) -> None:
        self._data = data

    def stream(self, **_: Any) -> Any:
        yield self._data


def test_throttled_chunk_writes_are_retried_by_the_client_without_failing(ingest: IngestHarness) -> None:
    throttled: list[str] = []

    # At the HTTP layer (before-send), so botocore's standard retry mode sees a real throttling reply.
    def throttle(request: Any, **_: Any) -> AWSResponse | None:
        if len(throttled) >= 2:
            return None
        throttled.append("BatchWriteItem")
        body = b'{"__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"}'
        headers: Any = {"Content-Type": "application/x-amz-json-1.0"}
        return AWSResponse(request.url, 400, headers, _Body(body))

    hooks: Any = ingest.dynamodb.meta.events
    hooks.register("before-send.dynamodb.BatchWriteItem", throttle)

    outcome = ingest.upload("projects/plan", V2)

    assert throttled == ["BatchWriteItem", "BatchWriteItem"]
    assert outcome.kind is OutcomeKind.INGESTED
    assert ingest.metrics.failures == []
