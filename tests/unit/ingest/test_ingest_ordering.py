"""Duplicate and out-of-order S3 events are no-ops; a stale event never overwrites a newer revision."""

from typing import Any

import pytest
from pandora_memory.ingest.documents import DocumentRepository
from pandora_memory.ingest.outcomes import ChangeKind, OutcomeKind
from pandora_memory.ingest.projections import ProjectionRepository
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture  # noqa: F401 - the `ingest` fixture

V1 = "# Plan\n\nShip on Friday.\n"
V2 = "# Plan\n\nShip on Monday.\n"
V3 = "# Plan\n\nShip on Tuesday.\n"


def without_version(record: dict[str, Any]) -> dict[str, Any]:
    """As an unversioned bucket sends it: nothing ties the record to one object version."""
    record = {**record, "s3": {**record["s3"], "object": dict(record["s3"]["object"])}}
    record["s3"]["object"].pop("versionId", None)
    return record


def test_a_repeated_event_is_a_no_op(ingest: IngestHarness) -> None:
    record = ingest.put("projects/plan", V1)
    ingest.deliver(record, sequencer="0055B5E2C1D1E0A7F1")
    items_before = ingest.raw_items()
    generation = ingest.pointer().generation

    outcome = ingest.deliver(record, sequencer="0055B5E2C1D1E0A7F1")

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "duplicate")
    assert ingest.raw_items() == items_before
    assert ingest.pointer().generation == generation
    assert ingest.metrics.documents == ["create"]


def test_a_repeated_event_without_sequencer_is_a_no_op(ingest: IngestHarness) -> None:
    record = ingest.put("projects/plan", V1)
    ingest.deliver(record)
    items_before = ingest.raw_items()

    outcome = ingest.deliver(record)

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "duplicate")
    assert ingest.raw_items() == items_before


def test_an_older_sequencer_never_overwrites_a_newer_revision(ingest: IngestHarness) -> None:
    ingest.put("projects/plan", V1)
    newer = ingest.put("projects/plan", V2)
    ingest.deliver(newer, sequencer="0100")  # 0x100 ...
    older_record = without_version(newer)

    outcome = ingest.deliver(older_record, sequencer="FF")  # ... is newer than 0xFF, despite the string order

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "stale")
    assert "Monday" in ingest.searchable_text("projects/plan")
    document = ingest.document("projects/plan")
    assert document is not None
    assert document["sequencer"].endswith("0100")


def test_an_event_for_a_version_that_is_no_longer_current_is_skipped(ingest: IngestHarness) -> None:
    first = ingest.put("projects/plan", V1)
    second = ingest.put("projects/plan", V2)

    assert ingest.deliver(second, sequencer="0000000000000002").change_kind is ChangeKind.CREATE
    outcome = ingest.deliver(first, sequencer="0000000000000001")

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "superseded_in_s3")
    assert "Monday" in ingest.searchable_text("projects/plan")
    assert [revision.change_kind for revision in ingest.history("projects/plan")] == ["create"]


def test_events_delivered_in_reverse_order_end_on_the_newest_state(ingest: IngestHarness) -> None:
    first = ingest.put("projects/plan", V1)
    second = ingest.put("projects/plan", V2)
    third = ingest.put("projects/plan", V3)

    outcomes = [
        ingest.deliver(third, sequencer="30"),
        ingest.deliver(second, sequencer="20"),
        ingest.deliver(first, sequencer="10"),
    ]

    assert [outcome.kind for outcome in outcomes] == [
        OutcomeKind.INGESTED,
        OutcomeKind.SKIPPED,
        OutcomeKind.SKIPPED,
    ]
    assert "Tuesday" in ingest.searchable_text("projects/plan")


def test_a_stale_removal_never_deletes_a_newer_upload(ingest: IngestHarness) -> None:
    ingest.deliver(ingest.put("projects/plan", V1), sequencer="10")
    removal = ingest.remove("projects/plan")
    recreated = ingest.put("projects/plan", V2)
    ingest.deliver(recreated, sequencer="30")

    outcome = ingest.deliver(removal, sequencer="20")

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "key_still_present")
    assert "Monday" in ingest.searchable_text("projects/plan")


def test_a_removal_older_than_the_stored_upload_is_stale(ingest: IngestHarness) -> None:
    ingest.deliver(ingest.put("projects/plan", V2), sequencer="30")
    removal = ingest.remove("projects/plan")

    stale = ingest.deliver(removal, sequencer="20")
    current = ingest.deliver(removal, sequencer="40")

    assert (stale.kind, stale.reason) == (OutcomeKind.SKIPPED, "stale")
    assert current.change_kind is ChangeKind.DELETE
    assert ingest.searchable() == []


def test_a_repeated_removal_is_a_no_op(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", V1)
    removal = ingest.remove("projects/plan")
    ingest.deliver(removal)
    generation = ingest.pointer().generation

    outcome = ingest.deliver(removal)

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "duplicate")
    assert ingest.pointer().generation == generation


def test_a_removal_of_a_path_never_ingested_changes_nothing(ingest: IngestHarness) -> None:
    ingest.put("projects/plan", V1)
    outcome = ingest.deliver(ingest.remove("projects/plan"))

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "unknown_document")
    assert ingest.raw_items() == []


def test_without_sequencers_successive_uploads_within_one_second_all_apply(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", V1)
    ingest.upload("projects/plan", V2)
    outcome = ingest.upload("projects/plan", V3)

    assert outcome.change_kind is ChangeKind.UPDATE
    assert "Tuesday" in ingest.searchable_text("projects/plan")
    assert len(ingest.history("projects/plan")) == 3


def test_a_concurrent_writer_moving_the_generation_makes_the_swap_rebuild_on_it(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = ProjectionRepository.write_manifest
    interleaved: list[str] = []

    def racing(self: ProjectionRepository, *args: Any, **kwargs: Any) -> str:
        key = original(self, *args, **kwargs)
        if not interleaved:
            interleaved.append("other")
            ingest.upload("projects/other", V3)  # completes its own swap in between
        return key

    monkeypatch.setattr(ProjectionRepository, "write_manifest", racing)

    outcome = ingest.upload("projects/plan", V1)

    assert outcome.kind is OutcomeKind.INGESTED
    assert ingest.pointer().generation == 2
    assert {entry.logical_path for entry in ingest.searchable()} == {"projects/plan", "projects/other"}
    assert ingest.metrics.swaps == 2


def test_a_newer_event_claiming_the_document_mid_flight_wins(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = without_version(ingest.put("projects/plan", V1))
    original = DocumentRepository.activation
    raced: list[str] = []

    def racing(self: DocumentRepository, *args: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append("newer")  # the newer event runs to completion before the older one swaps
            assert ingest.deliver(record, sequencer="20").kind is OutcomeKind.INGESTED
        return original(self, *args, **kwargs)

    monkeypatch.setattr(DocumentRepository, "activation", racing)

    outcome = ingest.deliver(record, sequencer="10")

    assert (outcome.kind, outcome.reason) == (OutcomeKind.SKIPPED, "stale")
    document = ingest.document("projects/plan")
    assert document is not None and document["sequencer"].endswith("20")
    assert document["projection_status"] == "active"
    assert ingest.metrics.swaps == 1
