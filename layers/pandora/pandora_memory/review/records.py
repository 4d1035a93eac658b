"""The candidate as the review inbox reads it: the turn's stored record plus what review adds to it.

The turn's `CandidateRecord` defines the item; review only adds fields, it never reshapes them.
"""

from pydantic import Field

from pandora_memory.feedback.events import Correction
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.records import CandidateRecord, InboxStatus, Item, MemoryRecord, from_item

# Statuses that still wait for a person; every review action starts from one of them.
OPEN_STATUSES = frozenset({InboxStatus.PENDING_REVIEW, InboxStatus.BLOCKED_SECRET})

MEMORY_SOURCE_REVIEW = "review"
MEMORY_SOURCE_MANUAL = "manual"


class ReviewedCandidate(CandidateRecord):
    user_message_preview: str = ""
    reviewed_at: str | None = None
    reviewed_by: str | None = None
    memory_id: str | None = None
    corrected_namespace: Namespace | None = None
    corrections: list[Correction] = Field(default_factory=list)
    review_note: str | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @classmethod
    def from_stored(cls, item: Item) -> "ReviewedCandidate":
        return cls.model_validate(from_item(item))


def memory_item(memory: MemoryRecord) -> Item:
    """The memory's item plus its `memory_id` (the same `<namespace>.<hash>` form as candidate ids)."""
    item = memory.to_item()
    item["memory_id"] = {"S": memory.id}
    return item
