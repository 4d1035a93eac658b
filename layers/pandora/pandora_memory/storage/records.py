"""The shapes of the stored items and their DynamoDB attribute-value form.

Both tables key on (namespace, content_hash). Summaries and reasons are stored redacted only: the
writer redacts before it builds a record, and nothing else of the turn is kept.
"""

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

Item = dict[str, Any]


# boto3 loads on the first conversion, not on import: the CLI's `--help` reads these enums only.
@cache
def _serializer() -> "TypeSerializer":
    from boto3.dynamodb.types import TypeSerializer

    return TypeSerializer()


@cache
def _deserializer() -> "TypeDeserializer":
    from boto3.dynamodb.types import TypeDeserializer

    return TypeDeserializer()


class InboxStatus(StrEnum):
    """Statuses a candidate can hold in the candidates table (GSI ByStatus groups by them)."""

    PENDING_REVIEW = "pending_review"
    BLOCKED_SECRET = "blocked_secret"  # noqa: S105 - a status name, not a credential
    APPROVED = "approved"
    REJECTED = "rejected"
    AUTO_CAPTURED = "auto_captured"


class MemoryStatus(StrEnum):
    APPROVED = "approved"
    AUTO_CAPTURED = "auto_captured"


def utc_timestamp(now: datetime | None = None) -> str:
    """ISO-8601 UTC with microseconds: sorts lexically in time order (the GSI sort keys)."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def to_item(values: dict[str, Any]) -> Item:
    """Plain values to DynamoDB attribute values; floats become Decimals as DynamoDB requires."""
    cleaned = {
        key: Decimal(str(value)) if isinstance(value, float) else value
        for key, value in values.items()
        if value is not None
    }
    serializer = _serializer()
    return {key: serializer.serialize(value) for key, value in cleaned.items()}


def from_item(item: Item) -> dict[str, Any]:
    deserializer = _deserializer()
    return {key: deserializer.deserialize(value) for key, value in item.items()}


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    namespace: Namespace
    content_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    created_at: str
    memory_type: MemoryType
    sensitivity: Sensitivity
    summary: str
    source: str = "chatgpt"
    policy_version: str = ""

    @property
    def id(self) -> str:
        return f"{self.namespace.value}.{self.content_hash}"


class CandidateRecord(_Record):
    status: InboxStatus
    confidence: float = Field(ge=0.0, le=1.0)
    requires_review: bool
    reason: str
    rules: list[str] = Field(default_factory=list)
    cues: list[str] = Field(default_factory=list)
    secret_kinds: list[str] = Field(default_factory=list)
    # The redacted, bounded start of the user's message, so a reviewer sees what was said.
    user_message_preview: str = ""

    def to_item(self) -> Item:
        values = self.model_dump(mode="json")
        values["candidate_id"] = self.id
        values["namespace_status"] = f"{self.namespace.value}#{self.status.value}"
        return to_item(values)

    @classmethod
    def from_item(cls, item: Item) -> "CandidateRecord":
        return cls.model_validate(from_item(item))


class MemoryRecord(_Record):
    """A permanent memory. Open loops are memories of type open_loop until marked resolved."""

    status: MemoryStatus
    candidate_id: str = ""
    resolved: bool = False

    def to_item(self) -> Item:
        return to_item(self.model_dump(mode="json"))

    @classmethod
    def from_item(cls, item: Item) -> "MemoryRecord":
        return cls.model_validate(from_item(item))
