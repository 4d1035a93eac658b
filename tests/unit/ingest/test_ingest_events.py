"""S3 event records: decoded keys, versions, sequencers, and the envelopes they arrive in."""

import json
from typing import Any

from pandora_memory.ingest.events import EventKind, ObjectEvent, UnusableRecord, parse_event, parse_record
from pandora_memory.ingest.outcomes import RejectReason, SkipReason
from unit.ingest.ingest_harness import s3_record

BUCKET = "pandora-local-memory-123456789012"


def only_event(event: dict[str, Any]) -> ObjectEvent:
    [record] = parse_event(event)
    assert isinstance(record, ObjectEvent)
    return record


def test_keys_are_url_decoded_once() -> None:
    record = s3_record("ObjectCreated:Put", BUCKET, "memory/real_life/projects/pandora notes.md")
    record["s3"]["object"]["key"] = "memory/real_life/projects/pandora%20notes.md"

    assert only_event({"Records": [record]}).key == "memory/real_life/projects/pandora notes.md"


def test_form_encoded_keys_decode_plus_and_encoded_slashes() -> None:
    record = s3_record("ObjectCreated:Put", BUCKET, "memory/au/a+b c/100%.md", slash_encoded=True)
    assert record["s3"]["object"]["key"] == "memory%2Fau%2Fa%2Bb+c%2F100%25.md"

    assert only_event({"Records": [record]}).key == "memory/au/a+b c/100%.md"


def test_created_and_removed_records_carry_version_sequencer_and_size() -> None:
    created = s3_record(
        "ObjectCreated:Put", BUCKET, "memory/au/x.md", version_id="v1", sequencer="0A1B", size=12
    )
    removed = s3_record("ObjectRemoved:DeleteMarkerCreated", BUCKET, "memory/au/x.md", version_id="v2")

    first, second = parse_event({"Records": [created, removed]})

    assert isinstance(first, ObjectEvent) and isinstance(second, ObjectEvent)
    assert (first.kind, first.version_id, first.sequencer, first.size) == (
        EventKind.CREATED,
        "v1",
        "0A1B",
        12,
    )
    assert (second.kind, second.version_id, second.sequencer) == (EventKind.REMOVED, "v2", None)
    assert first.event_time is not None


def test_an_unversioned_object_has_no_version() -> None:
    record = s3_record("ObjectCreated:Put", BUCKET, "memory/au/x.md", version_id="null")

    assert only_event({"Records": [record]}).version_id is None


def test_lifecycle_expiration_is_a_removal() -> None:
    record = s3_record("LifecycleExpiration:DeleteMarkerCreated", BUCKET, "memory/au/x.md")

    assert only_event({"Records": [record]}).kind is EventKind.REMOVED


def test_records_wrapped_in_sqs_messages_are_unwrapped() -> None:
    inner = {"Records": [s3_record("ObjectCreated:Put", BUCKET, "memory/au/x.md", slash_encoded=True)]}
    event = {"Records": [{"eventSource": "aws:sqs", "body": json.dumps(inner)}]}

    assert only_event(event).key == "memory/au/x.md"


def test_the_s3_test_event_is_a_skip() -> None:
    assert parse_event({"Service": "Amazon S3", "Event": "s3:TestEvent", "Bucket": BUCKET}) == [
        UnusableRecord(SkipReason.TEST_EVENT)
    ]


def test_unusable_records_say_why() -> None:
    good = s3_record("ObjectCreated:Put", BUCKET, "memory/au/x.md")
    bad_sequencer = json.loads(json.dumps(good))
    bad_sequencer["s3"]["object"]["sequencer"] = "not-hex"
    no_key = json.loads(json.dumps(good))
    del no_key["s3"]["object"]["key"]

    assert parse_record({**good, "eventName": "ObjectRestore:Completed"}) == UnusableRecord(
        RejectReason.UNSUPPORTED_EVENT
    )
    assert parse_record(bad_sequencer) == UnusableRecord(RejectReason.MALFORMED_EVENT)
    assert parse_record(no_key) == UnusableRecord(RejectReason.MALFORMED_EVENT)
    assert parse_event({"nothing": "here"}) == [UnusableRecord(RejectReason.MALFORMED_EVENT)]
    assert parse_event({"Records": [{"eventSource": "aws:sqs", "body": "{not json"}]}) == [
        UnusableRecord(RejectReason.MALFORMED_EVENT)
    ]
