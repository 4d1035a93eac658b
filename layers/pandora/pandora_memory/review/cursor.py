"""Opaque listing cursors: base64url of the query's LastEvaluatedKey, checked before any use.

A cursor is only accepted for the listing that produced it (same namespace and status), so it cannot
be edited to read another namespace's inbox.
"""

import base64
import binascii
import json
import re
from typing import Any

from pandora_memory.namespaces import Namespace
from pandora_memory.review.errors import InvalidCursorError
from pandora_memory.storage.records import InboxStatus, Item

MAX_CURSOR_CHARS = 1024
_KEYS = frozenset({"namespace", "content_hash", "namespace_status", "created_at"})
_HASH = re.compile(r"^[0-9a-f]{64}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$")


def encode_cursor(last_key: Item | None) -> str | None:
    if not last_key:
        return None
    compact = json.dumps(last_key, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return base64.urlsafe_b64encode(compact).decode("ascii").rstrip("=")


def _strings(document: Any) -> dict[str, str]:
    if not isinstance(document, dict) or set(document) != _KEYS:
        raise InvalidCursorError
    values: dict[str, str] = {}
    for key, value in document.items():
        if not isinstance(value, dict) or set(value) != {"S"} or not isinstance(value["S"], str):
            raise InvalidCursorError
        values[key] = value["S"]
    return values


def decode_cursor(cursor: str, namespace: Namespace, status: InboxStatus) -> Item:
    if len(cursor) > MAX_CURSOR_CHARS:
        raise InvalidCursorError
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        document = json.loads(raw.decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidCursorError from None
    values = _strings(document)
    if (
        values["namespace"] != namespace.value
        or values["namespace_status"] != f"{namespace.value}#{status.value}"
        or not _HASH.match(values["content_hash"])
        or not _TIMESTAMP.match(values["created_at"])
    ):
        raise InvalidCursorError
    return {key: {"S": value} for key, value in values.items()}
