"""Candidate ids and listing cursors: parsed strictly, never trusted across namespaces."""

import base64
import json

import pytest
from pandora_memory.namespaces import Namespace
from pandora_memory.review.cursor import MAX_CURSOR_CHARS, decode_cursor, encode_cursor
from pandora_memory.review.errors import InvalidCandidateIdError, InvalidCursorError
from pandora_memory.review.ids import parse_candidate_id
from pandora_memory.storage.records import InboxStatus

HASH = "ab" * 32


def last_key(namespace: str = "real_life", status: str = "pending_review") -> dict[str, dict[str, str]]:
    return {
        "namespace": {"S": namespace},
        "content_hash": {"S": HASH},
        "namespace_status": {"S": f"{namespace}#{status}"},
        "created_at": {"S": "2026-11-29T10:00:00.123456Z"},
    }


def forge(document: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")


def test_ids_carry_their_namespace() -> None:
    assert parse_candidate_id(f"au.{HASH}") == (Namespace.AU, HASH)
    assert parse_candidate_id(f"real_life.{HASH}") == (Namespace.REAL_LIFE, HASH)


@pytest.mark.parametrize(
    "value",
    [f"fiction.{HASH}", f"au.{HASH[:-1]}", f"au.{HASH.upper()}", f"au{HASH}", f"au.{HASH}.x", "", "au."],
)
def test_malformed_ids_are_refused(value: str) -> None:
    with pytest.raises(InvalidCandidateIdError):
        parse_candidate_id(value)


def test_a_cursor_round_trips_for_its_own_listing() -> None:
    cursor = encode_cursor(last_key())
    assert cursor is not None and "=" not in cursor
    assert decode_cursor(cursor, Namespace.REAL_LIFE, InboxStatus.PENDING_REVIEW) == last_key()
    assert encode_cursor(None) is None


@pytest.mark.parametrize(
    "cursor",
    [
        encode_cursor(last_key("au")),
        encode_cursor(last_key(status="rejected")),
        forge({**last_key(), "extra": {"S": "x"}}),
        forge({**last_key(), "content_hash": {"S": "../../etc"}}),
        forge({**last_key(), "created_at": {"N": "1"}}),
        forge(["not", "an", "object"]),
        "%%%not-base64%%%",
        base64.urlsafe_b64encode(b"\xff\xfe").decode(),
        "A" * (MAX_CURSOR_CHARS + 1),
    ],
)
def test_foreign_or_forged_cursors_are_refused(cursor: str | None) -> None:
    assert cursor is not None
    with pytest.raises(InvalidCursorError):
        decode_cursor(cursor, Namespace.REAL_LIFE, InboxStatus.PENDING_REVIEW)
