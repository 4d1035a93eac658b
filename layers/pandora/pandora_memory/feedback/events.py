"""A feedback event: what a reviewer did with what the policy proposed, and which rules proposed it.

Events are immutable (one conditional put each) and hold only redacted text. The policy version,
rules and cues of the candidate travel with the event, so a summary can name the rule that misfired.
"""

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.storage.records import Item, from_item, to_item

EVENT_ID_PATTERN = r"^[0-9a-f]{32}$"


class FeedbackAction(StrEnum):
    APPROVED = "approved"
    REJECTED = "rejected"  # the policy proposed something not worth keeping: a false positive
    MANUAL_ADD = "manual_add"  # the policy missed something worth keeping: a false negative


class Correction(StrEnum):
    """What a reviewer changed while approving."""

    NAMESPACE = "namespace"
    SENSITIVITY = "sensitivity"
    SUMMARY = "summary"
    MEMORY_TYPE = "memory_type"


class FeedbackEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    namespace: Namespace = Field(description="Namespace the policy decided in (the candidate's own).")
    event_id: str = Field(pattern=EVENT_ID_PATTERN)
    created_at: str
    action: FeedbackAction
    corrections: list[Correction] = Field(default_factory=list)
    memory_type: MemoryType = Field(description="Type the policy proposed (manual add: the chosen one).")
    sensitivity: Sensitivity = Field(description="Sensitivity the policy proposed (manual add: chosen).")
    final_memory_type: MemoryType | None = None
    final_sensitivity: Sensitivity | None = None
    corrected_namespace: Namespace | None = None
    candidate_id: str = ""
    candidate_status: str = Field(default="", description="The candidate's status before the review.")
    memory_id: str = ""
    policy_version: str = ""
    rules: list[str] = Field(default_factory=list)
    cues: list[str] = Field(default_factory=list)
    confidence: float | None = None
    requires_review: bool | None = None
    summary: str = Field(default="", description="The candidate's redacted summary (manual add: the memory).")
    user_message_preview: str = Field(default="", description="Redacted, bounded start of the message.")
    note: str = Field(default="", description="The reviewer's redacted reason for a rejection.")
    reviewed_by: str = ""

    @property
    def event_key(self) -> str:
        """Sort key: time first, so a window of days is one key-range query."""
        return f"{self.created_at}#{self.event_id}"

    def to_item(self) -> Item:
        values: dict[str, Any] = self.model_dump(mode="json")
        values["event_key"] = self.event_key
        return to_item(values)

    @classmethod
    def from_item(cls, item: Item) -> "FeedbackEvent":
        return cls.model_validate(from_item(item))
