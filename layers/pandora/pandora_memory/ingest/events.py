"""S3 event notification records, as Lambda receives them (directly, or wrapped in SQS messages).

Keys arrive URL-encoded with `+` for spaces (`memory%2Freal_life%2Fmy+notes.md`); they are decoded
here once, so nothing downstream ever sees an encoded key.
"""

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any
from urllib.parse import unquote_plus

from pandora_memory.ingest.outcomes import RejectReason, SkipReason

TEST_EVENT = "s3:TestEvent"
_SEQUENCER = re.compile(r"^[0-9A-Fa-f]{1,64}$")
_CREATED_PREFIXES = ("ObjectCreated:",)
_REMOVED_PREFIXES = ("ObjectRemoved:", "LifecycleExpiration:")


class EventKind(StrEnum):
    CREATED = "created"
    REMOVED = "removed"


@dataclass(frozen=True)
class ObjectEvent:
    kind: EventKind
    event_name: str
    bucket: str
    key: str
    version_id: str | None = None
    sequencer: str | None = None
    size: int | None = None
    event_time: datetime | None = None


@dataclass(frozen=True)
class UnusableRecord:
    """A record that names no object change we handle; `reason` says why."""

    reason: RejectReason | SkipReason


ParsedRecord = ObjectEvent | UnusableRecord


def parse_event(event: Mapping[str, Any]) -> list[ParsedRecord]:
    """Every record of an invocation, in delivery order."""
    return list(_records(event))


def _records(event: Mapping[str, Any]) -> Iterator[ParsedRecord]:
    if event.get("Event") == TEST_EVENT:
        yield UnusableRecord(SkipReason.TEST_EVENT)
        return
    records = event.get("Records")
    if not isinstance(records, list):
        yield UnusableRecord(RejectReason.MALFORMED_EVENT)
        return
    for record in records:
        if not isinstance(record, Mapping):
            yield UnusableRecord(RejectReason.MALFORMED_EVENT)
        elif record.get("eventSource") == "aws:sqs":
            yield from _sqs_records(record)
        else:
            yield parse_record(record)


def _sqs_records(record: Mapping[str, Any]) -> Iterator[ParsedRecord]:
    try:
        body = json.loads(str(record.get("body", "")))
    except json.JSONDecodeError:
        yield UnusableRecord(RejectReason.MALFORMED_EVENT)
        return
    if not isinstance(body, Mapping):
        yield UnusableRecord(RejectReason.MALFORMED_EVENT)
        return
    yield from _records(body)


def parse_record(record: Mapping[str, Any]) -> ParsedRecord:
    event_name = str(record.get("eventName", ""))
    if event_name.startswith(_CREATED_PREFIXES):
        kind = EventKind.CREATED
    elif event_name.startswith(_REMOVED_PREFIXES):
        kind = EventKind.REMOVED
    else:
        return UnusableRecord(RejectReason.UNSUPPORTED_EVENT)
    s3 = record.get("s3")
    if not isinstance(s3, Mapping):
        return UnusableRecord(RejectReason.MALFORMED_EVENT)
    bucket = s3.get("bucket") or {}
    obj = s3.get("object") or {}
    raw_key = obj.get("key")
    bucket_name = bucket.get("name")
    if not isinstance(raw_key, str) or not raw_key or not isinstance(bucket_name, str):
        return UnusableRecord(RejectReason.MALFORMED_EVENT)
    sequencer = obj.get("sequencer")
    if sequencer is not None and not (isinstance(sequencer, str) and _SEQUENCER.match(sequencer)):
        return UnusableRecord(RejectReason.MALFORMED_EVENT)
    size = obj.get("size")
    return ObjectEvent(
        kind=kind,
        event_name=event_name,
        bucket=bucket_name,
        key=unquote_plus(raw_key),
        version_id=_optional_text(obj.get("versionId")),
        sequencer=sequencer,
        size=size if isinstance(size, int) else None,
        event_time=_parse_time(record.get("eventTime")),
    )


def _optional_text(value: object) -> str | None:
    # Unversioned buckets send "null" or omit the field: both mean "no version".
    if isinstance(value, str) and value and value != "null":
        return value
    return None


def _parse_time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None
