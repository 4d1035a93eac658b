"""Turns review figures into adjustments of one candidate decision. Pure: same inputs, same output.

The policy proposes; the reviewers' record on the proposed memory type and on each rule that fired
adjusts it. A type or rule that reviewers keep rejecting is demoted (lower confidence, review always
required, or suggest-only when rejections are overwhelming). A type with a steady record of clean
approvals may have its review request waived, which makes it eligible for auto-capture. No figure
ever opens the safety gates: secrets and high or private sensitivity always wait for a person.
"""

from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.feedback.summary import FeedbackFigures, Tally
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, Sensitivity
from pandora_memory.policy.rules import section

GUARDED_SENSITIVITIES = frozenset({Sensitivity.HIGH, Sensitivity.PRIVATE})


@dataclass(frozen=True)
class TuningThresholds:
    window_days: int = 30
    cache_seconds: int = 60
    demote_min_rejections: int = 3
    demote_rejection_rate: float = 0.6
    demote_confidence_factor: float = 0.5
    suggest_only_min_rejections: int = 8
    suggest_only_rejection_rate: float = 0.85
    promote_min_approvals: int = 10
    promote_max_rejection_rate: float = 0.1
    promote_max_correction_rate: float = 0.2


@cache
def load_thresholds() -> TuningThresholds:
    """The `[feedback]` section of rules.toml (the one versioned file of policy numbers)."""
    values = section("feedback")
    return TuningThresholds(
        window_days=int(values["window_days"]),
        cache_seconds=int(values["cache_seconds"]),
        demote_min_rejections=int(values["demote_min_rejections"]),
        demote_rejection_rate=float(values["demote_rejection_rate"]),
        demote_confidence_factor=float(values["demote_confidence_factor"]),
        suggest_only_min_rejections=int(values["suggest_only_min_rejections"]),
        suggest_only_rejection_rate=float(values["suggest_only_rejection_rate"]),
        promote_min_approvals=int(values["promote_min_approvals"]),
        promote_max_rejection_rate=float(values["promote_max_rejection_rate"]),
        promote_max_correction_rate=float(values["promote_max_correction_rate"]),
    )


class TunedDecision(BaseModel):
    """The policy's decision after feedback, and what the turn may do with it.

    `auto_capture_eligible` says what the feedback allows; the turn still applies its flags and its
    confidence threshold. `suggest_only` asks the turn to preview the candidate without writing it.
    """

    model_config = ConfigDict(frozen=True)

    decision: CandidateDecision
    auto_capture_eligible: bool
    suggest_only: bool = False
    demoted_by: list[str] = Field(default_factory=list, description="Feedback keys that demoted it.")
    promoted_by: list[str] = Field(default_factory=list, description="Feedback keys that promoted it.")
    safety_gate: str | None = Field(default=None, description="Why it can never be auto-captured.")


def type_key(memory_type: str) -> str:
    return f"memory_type:{memory_type}"


def rule_key(rule_id: str) -> str:
    return f"rule:{rule_id}"


def safety_gate(decision: CandidateDecision) -> str | None:
    if decision.status is CandidateStatus.BLOCKED_SECRET or decision.secret_kinds:
        return "secret"
    if decision.sensitivity in GUARDED_SENSITIVITIES:
        return f"sensitivity:{decision.sensitivity.value}"
    return None


def _tallies(decision: CandidateDecision, figures: FeedbackFigures) -> list[tuple[str, Tally]]:
    keyed = [(type_key(decision.memory_type.value), figures.memory_type(decision.memory_type.value))]
    keyed += [(rule_key(rule_id), figures.rule(rule_id)) for rule_id in dict.fromkeys(decision.rules)]
    return keyed


def _demotes(tally: Tally, limits: TuningThresholds) -> bool:
    return (
        tally.rejected >= limits.demote_min_rejections
        and tally.rejection_rate >= limits.demote_rejection_rate
    )


def _silences(tally: Tally, limits: TuningThresholds) -> bool:
    return (
        tally.rejected >= limits.suggest_only_min_rejections
        and tally.rejection_rate >= limits.suggest_only_rejection_rate
    )


def _promotes(tally: Tally, limits: TuningThresholds) -> bool:
    return (
        tally.approved >= limits.promote_min_approvals
        and tally.rejection_rate <= limits.promote_max_rejection_rate
        and tally.correction_rate <= limits.promote_max_correction_rate
    )


def _describe(key: str, tally: Tally) -> str:
    return f"{key} approved {tally.approved}, rejected {tally.rejected}"


def tune_decision(
    decision: CandidateDecision,
    figures: FeedbackFigures,
    limits: TuningThresholds | None = None,
) -> TunedDecision:
    limits = limits or load_thresholds()
    gate = safety_gate(decision)
    if gate is not None and not decision.requires_review:
        # A guarded item always waits for a person, whatever the policy or the figures say.
        decision = decision.model_copy(update={"requires_review": True})
    if decision.status is not CandidateStatus.CANDIDATE or not decision.should_create_candidate:
        return TunedDecision(decision=decision, auto_capture_eligible=False, safety_gate=gate)

    tallies = _tallies(decision, figures)
    demoted = [(key, tally) for key, tally in tallies if _demotes(tally, limits)]
    if demoted:
        window = f" since {figures.since[:10]}" if figures.since else ""
        reason = (
            f"{decision.reason}; feedback demoted it ({'; '.join(_describe(*d) for d in demoted)}{window})"
        )
        tuned = decision.model_copy(
            update={
                "confidence": round(decision.confidence * limits.demote_confidence_factor, 3),
                "requires_review": True,
                "reason": reason,
            }
        )
        return TunedDecision(
            decision=tuned,
            auto_capture_eligible=False,
            suggest_only=any(_silences(tally, limits) for _, tally in demoted),
            demoted_by=[key for key, _ in demoted],
            safety_gate=gate,
        )

    type_tally = tallies[0]
    if gate is None and _promotes(type_tally[1], limits):
        reason = f"{decision.reason}; feedback waived review ({_describe(*type_tally)})"
        tuned = decision.model_copy(update={"requires_review": False, "reason": reason})
        return TunedDecision(decision=tuned, auto_capture_eligible=True, promoted_by=[type_tally[0]])

    return TunedDecision(
        decision=decision,
        auto_capture_eligible=gate is None and not decision.requires_review,
        safety_gate=gate,
    )
