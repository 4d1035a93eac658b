"""Per memory type and per rule: how often reviewers approved, rejected, corrected or added by hand.

Pure counting over events; the same figures feed the summary endpoint and the policy's tuning.
A candidate is counted under the type the *policy* proposed and every rule that fired for it,
because those are what the tuning adjusts.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.feedback.events import FeedbackAction, FeedbackEvent


class Tally(BaseModel):
    model_config = ConfigDict(frozen=True)

    approved: int = Field(default=0, ge=0)
    rejected: int = Field(default=0, ge=0)
    corrected: int = Field(default=0, ge=0, description="Approvals that changed something.")
    added_by_hand: int = Field(default=0, ge=0, description="Memories the policy missed (manual adds).")

    @property
    def decided(self) -> int:
        return self.approved + self.rejected

    @property
    def rejection_rate(self) -> float:
        return self.rejected / self.decided if self.decided else 0.0

    @property
    def correction_rate(self) -> float:
        return self.corrected / self.approved if self.approved else 0.0


class FeedbackFigures(BaseModel):
    model_config = ConfigDict(frozen=True)

    since: str = Field(description="Start of the window (ISO-8601 UTC); empty means all time.")
    event_count: int = 0
    by_memory_type: dict[str, Tally] = Field(default_factory=dict)
    by_rule: dict[str, Tally] = Field(default_factory=dict)

    def memory_type(self, name: str) -> Tally:
        return self.by_memory_type.get(name, Tally())

    def rule(self, rule_id: str) -> Tally:
        return self.by_rule.get(rule_id, Tally())


NO_FIGURES = FeedbackFigures(since="")


@dataclass
class _Counts:
    approved: int = 0
    rejected: int = 0
    corrected: int = 0
    added_by_hand: int = 0

    def add(self, event: FeedbackEvent) -> None:
        if event.action is FeedbackAction.APPROVED:
            self.approved += 1
            self.corrected += 1 if event.corrections else 0
        elif event.action is FeedbackAction.REJECTED:
            self.rejected += 1
        else:
            self.added_by_hand += 1

    def freeze(self) -> Tally:
        return Tally(
            approved=self.approved,
            rejected=self.rejected,
            corrected=self.corrected,
            added_by_hand=self.added_by_hand,
        )


def summarise(events: Iterable[FeedbackEvent], since: str = "") -> FeedbackFigures:
    by_type: dict[str, _Counts] = {}
    by_rule: dict[str, _Counts] = {}
    count = 0
    for event in events:
        if since and event.created_at < since:
            continue
        count += 1
        by_type.setdefault(event.memory_type.value, _Counts()).add(event)
        for rule_id in dict.fromkeys(event.rules):  # a rule listed twice still voted once
            by_rule.setdefault(rule_id, _Counts()).add(event)
    return FeedbackFigures(
        since=since,
        event_count=count,
        by_memory_type={name: counts.freeze() for name, counts in sorted(by_type.items())},
        by_rule={name: counts.freeze() for name, counts in sorted(by_rule.items())},
    )


def merge(figures: Iterable[FeedbackFigures]) -> FeedbackFigures:
    """Figures of several namespaces added together (the summary endpoint without a namespace)."""
    by_type: dict[str, _Counts] = {}
    by_rule: dict[str, _Counts] = {}
    since, count = "", 0
    for part in figures:
        since = since or part.since
        count += part.event_count
        for target, source in ((by_type, part.by_memory_type), (by_rule, part.by_rule)):
            for name, tally in source.items():
                counts = target.setdefault(name, _Counts())
                counts.approved += tally.approved
                counts.rejected += tally.rejected
                counts.corrected += tally.corrected
                counts.added_by_hand += tally.added_by_hand
    return FeedbackFigures(
        since=since,
        event_count=count,
        by_memory_type={name: counts.freeze() for name, counts in sorted(by_type.items())},
        by_rule={name: counts.freeze() for name, counts in sorted(by_rule.items())},
    )
