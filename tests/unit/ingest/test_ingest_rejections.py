"""Every kind of bad input is refused with a reason and a metric; nothing is stored and nothing raises."""

from typing import Any

import pytest
from pandora_memory.ingest.events import UnusableRecord
from pandora_memory.ingest.outcomes import OutcomeKind, RejectReason
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture, s3_record, start_ingest  # noqa: F401 - the `ingest` fixture

GOOD = b"# Notes\n\nA perfectly ordinary note.\n"

# One key per reason here; test_ingest_keys.py covers the variants without AWS.
BAD_KEYS = [
    ("notes/real_life/plan.md", "other_prefix"),
    ("memory/work/plan.md", "unknown_namespace"),
    ("memory/real_life/plan.txt", "not_markdown"),
    ("memory/real_life/../au/plan.md", "path_traversal"),
    ("memory/real_life//plan.md", "invalid_path"),
    ("memory/real_life/keys/AKIAQ3EGRTL2Y6ZKXJ7P.md", "secret_in_path"),
]

BAD_BODIES = [
    pytest.param(b"caf\xe9 au lait", "invalid_utf8", id="latin-1"),
    pytest.param(b"# Notes\n\xc3\x28\n", "invalid_utf8", id="broken-sequence"),
    pytest.param(b"# Notes\n\x00\n", "nul_bytes", id="nul"),
]


def assert_nothing_stored(ingest: IngestHarness) -> None:
    assert ingest.raw_items() == []
    assert ingest.stored_objects() == {}


@pytest.mark.parametrize(("key", "reason"), BAD_KEYS, ids=[reason for _, reason in BAD_KEYS])
def test_a_bad_key_is_rejected_and_nothing_is_stored(ingest: IngestHarness, key: str, reason: str) -> None:
    record = s3_record("ObjectCreated:Put", ingest.bucket, key, size=len(GOOD))

    outcome = ingest.deliver(record)

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, reason)
    assert ingest.metrics.rejections == [reason]
    assert_nothing_stored(ingest)


def test_a_rejected_key_is_only_reported_redacted(ingest: IngestHarness) -> None:
    outcome = ingest.deliver(
        s3_record("ObjectCreated:Put", ingest.bucket, "memory/real_life/keys/AKIAQ3EGRTL2Y6ZKXJ7P.md")
    )

    assert outcome.key_preview is not None
    assert "AKIAQ3EGRTL2Y6ZKXJ7P" not in str(outcome.as_log())


@pytest.mark.parametrize(("body", "reason"), BAD_BODIES)
def test_bad_content_is_rejected_and_nothing_is_stored(
    ingest: IngestHarness, body: bytes, reason: str
) -> None:
    outcome = ingest.deliver(ingest.put("notes/plan", body))

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, reason)
    assert outcome.logical_path == "notes/plan"
    assert ingest.metrics.rejections == [reason]
    assert_nothing_stored(ingest)


def test_an_oversized_upload_is_rejected_and_nothing_is_stored(provisioned_stack: Any) -> None:
    ingest = start_ingest(provisioned_stack, environ={"MAX_MARKDOWN_BYTES": "1024"})

    outcome = ingest.deliver(ingest.put("notes/plan", b"# Big\n\n" + b"word " * 300))

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, "oversized")
    assert_nothing_stored(ingest)


def test_the_default_size_limit_is_two_megabytes(ingest: IngestHarness) -> None:
    assert ingest.settings.max_markdown_bytes == 2 * 1024 * 1024


def test_a_bad_new_version_leaves_the_previous_one_searchable(ingest: IngestHarness) -> None:
    ingest.upload("notes/plan", GOOD)
    generation = ingest.pointer().generation

    outcome = ingest.deliver(ingest.put("notes/plan", b"bad \x00 bytes"))

    assert outcome.kind is OutcomeKind.REJECTED
    assert "perfectly ordinary" in ingest.searchable_text("notes/plan")
    assert ingest.pointer().generation == generation


def test_a_record_from_another_bucket_is_rejected(ingest: IngestHarness) -> None:
    outcome = ingest.deliver(
        s3_record("ObjectCreated:Put", "someone-elses-bucket", "memory/real_life/plan.md")
    )

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, "other_bucket")
    assert_nothing_stored(ingest)


def test_a_removal_with_a_bad_key_is_rejected_too(ingest: IngestHarness) -> None:
    outcome = ingest.deliver(s3_record("ObjectRemoved:Delete", ingest.bucket, "memory/work/plan.md"))

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, "unknown_namespace")


def test_a_malformed_record_is_rejected(ingest: IngestHarness) -> None:
    outcome = ingest.pipeline.process(UnusableRecord(RejectReason.MALFORMED_EVENT))

    assert (outcome.kind, outcome.reason) == (OutcomeKind.REJECTED, "malformed_event")
    assert ingest.metrics.rejections == ["malformed_event"]
