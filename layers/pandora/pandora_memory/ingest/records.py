"""The stored shapes of documents and revisions, read back from DynamoDB items."""

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from pandora_memory.ingest.ordering import ACTIVE
from pandora_memory.storage.items import from_item


class ProjectionStatus(StrEnum):
    ACTIVE = ACTIVE
    PENDING = "pending"
    FAILED = "failed"


def revision_key(logical_path: str, content_hash: str) -> str:
    return f"{logical_path}#{content_hash}"


def chunk_key(logical_path: str, content_hash: str, ordinal: int) -> str:
    return f"{logical_path}#{content_hash}#{ordinal:05d}"


def _text(values: dict[str, Any], name: str) -> str | None:
    value = values.get(name)
    return str(value) if value is not None else None


@dataclass(frozen=True)
class DocumentState:
    namespace: str
    logical_path: str
    current_hash: str | None = None
    current_revision: str | None = None
    active_revision: str | None = None
    projection_status: str | None = None
    projection_attempts: int = 0
    order_key: str | None = None
    claim: str | None = None
    tombstoned: bool = False
    tombstoned_at: str | None = None
    renamed_to: str | None = None
    change_kind: str | None = None
    previous_logical_path: str | None = None

    @property
    def live(self) -> bool:
        """Has content at its path (it may still be waiting for its first projection)."""
        return not self.tombstoned and self.current_hash is not None

    @property
    def active_hash(self) -> str | None:
        if not self.active_revision:
            return None
        return self.active_revision.rsplit("#", 1)[-1]

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> "DocumentState":
        values = from_item(item)
        return cls(
            namespace=str(values["namespace"]),
            logical_path=str(values["logical_path"]),
            current_hash=_text(values, "current_hash"),
            current_revision=_text(values, "current_revision"),
            active_revision=_text(values, "active_revision"),
            projection_status=_text(values, "projection_status"),
            projection_attempts=int(values.get("projection_attempts") or 0),
            order_key=_text(values, "order_key"),
            claim=_text(values, "claim"),
            tombstoned=bool(values.get("tombstoned", False)),
            tombstoned_at=_text(values, "tombstoned_at"),
            renamed_to=_text(values, "renamed_to"),
            change_kind=_text(values, "change_kind"),
            previous_logical_path=_text(values, "previous_logical_path"),
        )


@dataclass(frozen=True)
class RevisionRecord:
    """One immutable content state of a document; supersession fields are added when it is replaced."""

    namespace: str
    revision_key: str
    logical_path: str
    content_hash: str
    change_kind: str
    created_at: str
    chunk_count: int
    snapshot_key: str | None = None
    chunker: dict[str, Any] | None = None
    previous_logical_path: str | None = None
    renamed_to: str | None = None
    redaction_kinds: tuple[str, ...] = ()
    activated_at: str | None = None
    superseded_at: str | None = None
    superseded_by: str | None = None
    summary: str | None = None
    diff: str | None = None

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> "RevisionRecord":
        values = from_item(item)
        chunker = values.get("chunker")
        return cls(
            namespace=str(values["namespace"]),
            revision_key=str(values["revision_key"]),
            logical_path=str(values["logical_path"]),
            content_hash=str(values["content_hash"]),
            change_kind=str(values["change_kind"]),
            created_at=str(values["created_at"]),
            chunk_count=int(values.get("chunk_count") or 0),
            snapshot_key=_text(values, "snapshot_key"),
            chunker=_plain(chunker) if isinstance(chunker, dict) else None,
            previous_logical_path=_text(values, "previous_logical_path"),
            renamed_to=_text(values, "renamed_to"),
            redaction_kinds=tuple(str(kind) for kind in values.get("redaction_kinds") or ()),
            activated_at=_text(values, "activated_at"),
            superseded_at=_text(values, "superseded_at"),
            superseded_by=_text(values, "superseded_by"),
            summary=_text(values, "summary"),
            diff=_text(values, "diff"),
        )


def _plain(value: Any) -> Any:
    """DynamoDB numbers come back as Decimal; the chunker config is small ints and strings."""
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_plain(inner) for inner in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value
