"""The counts a backfill reports: conversations, turns, outcomes, and queued items by type and sensitivity."""

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pandora_memory.policy.models import MemoryType, Sensitivity


class Outcome(StrEnum):
    PENDING_REVIEW = "pending_review"
    BLOCKED_SECRET = "blocked_secret"  # noqa: S105 - an outcome name, not a credential
    DUPLICATE = "duplicate"
    NOT_CANDIDATE = "not_candidate"


QUEUED = (Outcome.PENDING_REVIEW, Outcome.BLOCKED_SECRET)


@dataclass
class Tally:
    conversations_read: int = 0
    conversations_processed: int = 0
    conversations_already_done: int = 0
    conversations_before_since: int = 0
    turns_evaluated: int = 0
    turns_before_since: int = 0
    stopped_at_limit: bool = False
    outcomes: Counter[Outcome] = field(default_factory=Counter)
    queued: Counter[tuple[MemoryType, Sensitivity]] = field(default_factory=Counter)

    def count(self, outcome: Outcome, memory_type: MemoryType, sensitivity: Sensitivity) -> None:
        self.outcomes[outcome] += 1
        if outcome in QUEUED:
            self.queued[memory_type, sensitivity] += 1

    @property
    def queued_total(self) -> int:
        return sum(self.outcomes[outcome] for outcome in QUEUED)

    def by_type(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for (memory_type, _), number in self.queued.items():
            totals[memory_type.value] += number
        return dict(sorted(totals.items()))

    def by_sensitivity(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for (_, sensitivity), number in self.queued.items():
            totals[sensitivity.value] += number
        return {level.value: totals[level.value] for level in Sensitivity if totals[level.value]}

    def as_dict(self) -> dict[str, Any]:
        return {
            "conversations": {
                "read": self.conversations_read,
                "processed": self.conversations_processed,
                "already_done": self.conversations_already_done,
                "before_since": self.conversations_before_since,
            },
            "turns": {"evaluated": self.turns_evaluated, "before_since": self.turns_before_since},
            "outcomes": {outcome.value: self.outcomes[outcome] for outcome in Outcome},
            "queued_by_type": self.by_type(),
            "queued_by_sensitivity": self.by_sensitivity(),
            "queued_by_type_and_sensitivity": {
                f"{memory_type.value}/{sensitivity.value}": number
                for (memory_type, sensitivity), number in sorted(self.queued.items())
            },
            "stopped_at_limit": self.stopped_at_limit,
        }
