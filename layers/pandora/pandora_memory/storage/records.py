"""The shapes of the stored items and their DynamoDB attribute-value form.

Both tables key on (namespace, content_hash). Summaries and reasons are stored redacted only: the
writer redacts before it builds a record, and nothing else of the turn is kept.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity

# Re-exported: the conversions lived here before items.py, and the record models use them.
from pandora_memory.storage.items import Item as Item
from pandora_memory.storage.items import from_item as from_item
from pandora_memory.storage.items import to_item as to_item
from pandora_memory.storage.items import utc_timestamp as utc_timestamp


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
