"""The projection scales with the namespace: the pointer item stays small however many documents there
are, one document's ingest reads and writes one shard and a small manifest, and a failure between any
two steps of a sharded swap (a split included) keeps the previous searchable state."""

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from botocore.exceptions import ClientError
from pandora_memory.ingest.outcomes import IngestStepError, OutcomeKind
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.search import shards
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture  # noqa: F401 - the `ingest` fixture

SMALL_SHARD = 4


def note(n: int, word: str = "harbour") -> str:
    return f"# Note {n}\n\nThe {word} log entry number {n} for the lighthouse keeper.\n"


@pytest.fixture(autouse=True)
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shards of a few chunks, so a handful of documents already makes many of them."""
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", SMALL_SHARD)


def pointer_item(ingest: IngestHarness, namespace: str = "real_life") -> dict[str, Any]:
    response = ingest.dynamodb.get_item(
        TableName=ingest.settings.projections_table, Key={"namespace": {"S": namespace}}, ConsistentRead=True
    )
    return dict(response["Item"])


def test_the_pointer_item_stays_small_whatever_the_document_count(ingest: IngestHarness) -> None:
    sizes = []
    carried = []
    for n in range(60):
        ingest.upload(f"notes/{n:03d}", note(n))
        sizes.append(len(json.dumps(pointer_item(ingest))))
        carried.append("shard_keys" in pointer_item(ingest))

    assert max(sizes) < 1024, "at most INLINE_SHARD_KEYS shard keys ride on the pointer"
    assert set(pointer_item(ingest)) == {"namespace", "generation", "manifest_key", "updated_at"}
    assert sizes[-1] < 400, "past a few shards the pointer names the manifest only"
    assert carried[0] and not carried[-1]
    assert len(ingest.projected_documents()) == 60


@dataclass
class Traffic:
    """Bytes and calls the pipeline's clients send and receive, per (service, operation)."""

    calls: list[str] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)
    s3_puts: list[tuple[str, int]] = field(default_factory=list)

    def parameters(self, params: dict[str, Any], model: Any, **kwargs: Any) -> None:
        """The call as the caller made it: S3 bodies are still bytes here."""
        name = f"{model.service_model.service_name}.{model.name}"
        self.calls.append(name)
        if name == "s3.PutObject":
            size = len(params["Body"])
            self.s3_puts.append((params["Key"], size))
        else:
            size = len(json.dumps(params, default=str))
        self.sent[name] = self.sent.get(name, 0) + size

    def response(self, http_response: Any, parsed: Any, model: Any, **kwargs: Any) -> None:
        name = f"{model.service_model.service_name}.{model.name}"
        if name == "s3.GetObject":
            length = int(parsed.get("ContentLength") or 0)  # the body is a stream, not read yet
        else:
            length = len(http_response.content or b"")
        self.received[name] = self.received.get(name, 0) + length

    def total(self) -> int:
        return sum(self.sent.values()) + sum(self.received.values())


@contextmanager
def traffic(ingest: IngestHarness) -> Iterator[Traffic]:
    seen = Traffic()
    hooks: list[tuple[Any, str, Callable[..., None]]] = []
    for client in (ingest.s3, ingest.dynamodb):
        events = client.meta.events
        hooks += [(events, "provide-client-params", seen.parameters), (events, "after-call", seen.response)]
    for events, name, handler in hooks:
        events.register(name, handler)
    try:
        yield seen
    finally:
        for events, name, handler in hooks:
            events.unregister(name, handler)


def one_document_ingest(ingest: IngestHarness, n: int) -> Traffic:
    with traffic(ingest) as seen:
        assert ingest.upload(f"notes/{n:03d}", note(n, "lantern")).kind is OutcomeKind.INGESTED
    return seen


def test_one_document_ingest_reads_and_writes_one_shard_and_a_small_manifest(ingest: IngestHarness) -> None:
    for n in range(40):
        ingest.upload(f"notes/{n:03d}", note(n))
    at_40 = one_document_ingest(ingest, 1000)
    for n in range(40, 120):
        ingest.upload(f"notes/{n:03d}", note(n))
    at_120 = one_document_ingest(ingest, 1001)

    manifest = ingest.projections.manifest(ingest.pointer())
    assert manifest is not None
    shard_count = len(manifest.shards)
    assert shard_count >= 12
    all_shard_bytes = sum(
        int(ingest.s3.head_object(Bucket=ingest.bucket, Key=ref.key)["ContentLength"])
        for ref in manifest.shards
    )
    for seen in (at_40, at_120):
        projection_puts = [size for key, size in seen.s3_puts if key.startswith("projections/")]
        assert 2 <= len(projection_puts) <= 3, "the shard (or its two halves) and the manifest"
        assert seen.calls.count("s3.GetObject") == 3, "the upload, the manifest and one shard"
        assert seen.calls.count("dynamodb.TransactWriteItems") == 1
        assert sum(projection_puts) < all_shard_bytes / 3
        assert seen.sent["dynamodb.TransactWriteItems"] < 4000
    # Three times the documents: what one ingest moves grows with the manifest only (a few bytes a shard).
    assert at_120.total() < at_40.total() + 150 * shard_count


def _fail_nth(monkeypatch: pytest.MonkeyPatch, name: str, nth: int) -> None:
    original = getattr(ProjectionRepository, name)
    calls: list[int] = []

    def failing(self: ProjectionRepository, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == nth:
            raise ClientError({"Error": {"Code": "InternalServerError", "Message": "injected"}}, name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ProjectionRepository, name, failing)


@pytest.mark.parametrize(
    ("method", "nth", "step"),
    [
        ("pointer", 1, "projection_read"),
        ("manifest", 1, "projection_read"),
        ("load_shard", 1, "projection_read"),
        ("write_shard", 1, "snapshot_write"),
        ("write_shard", 2, "snapshot_write"),  # one half of a split stored, the other not
        ("write_manifest", 1, "snapshot_write"),
        ("swap", 1, "swap"),
    ],
)
def test_a_failure_at_any_step_of_a_splitting_swap_keeps_the_previous_searchable_state(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch, method: str, nth: int, step: str
) -> None:
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 100)
    for n in range(12):
        ingest.upload(f"notes/{n:03d}", note(n))
    before = sorted(entry.key for entry in ingest.searchable())
    generation = ingest.pointer().generation
    manifest_key = ingest.pointer().manifest_key
    # Now the one shard holds more than it may: the next ingest into it splits it.
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 4)
    record = ingest.put("notes/new", note(99, "lantern"))
    _fail_nth(monkeypatch, method, nth)

    with pytest.raises(IngestStepError) as raised:
        ingest.deliver(record)

    assert raised.value.step == step
    assert ingest.pointer().generation == generation
    assert ingest.pointer().manifest_key == manifest_key
    assert sorted(entry.key for entry in ingest.searchable()) == before
    assert "lantern" not in " ".join(entry.text for entry in ingest.searchable())

    monkeypatch.undo()
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 4)
    assert ingest.deliver(record).kind is OutcomeKind.INGESTED
    assert len(ingest.projections.shards(ingest.pointer())) > 1
    assert sorted(entry.key for entry in ingest.searchable() if entry.logical_path != "notes/new") == before
    assert "lantern" in ingest.searchable_text("notes/new")
