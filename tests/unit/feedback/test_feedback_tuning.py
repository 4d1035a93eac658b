"""The pure tuning: rejections demote, clean approvals may waive review, safety gates never open."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pandora_memory.feedback.summary import FeedbackFigures, Tally
from pandora_memory.feedback.tuning import (
    TuningThresholds,
    load_thresholds,
    rule_key,
    safety_gate,
    tune_decision,
    type_key,
)
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity

LIMITS = TuningThresholds()


def decision(**changes: Any) -> CandidateDecision:
    values: dict[str, Any] = {
        "namespace": Namespace.REAL_LIFE,
        "reason": "standing preference (always)",
        "rules": ["candidate.preference.standing"],
        "policy_version": "test",
        "should_create_candidate": True,
        "requires_review": False,
        "sensitivity": Sensitivity.LOW,
        "memory_type": MemoryType.PREFERENCE,
        "confidence": 0.9,
        "status": CandidateStatus.CANDIDATE,
        "summary": "Prefers tabs in Go files",
        "cues": ["always"],
    }
    values.update(changes)
    return CandidateDecision(**values)


def figures(types: dict[str, Tally] | None = None, rules: dict[str, Tally] | None = None) -> FeedbackFigures:
    return FeedbackFigures(
        since="2026-11-01T00:00:00.000000Z", by_memory_type=types or {}, by_rule=rules or {}
    )


def test_thresholds_come_from_the_rules_file() -> None:
    limits = load_thresholds()
    assert limits.window_days == 30
    assert limits.cache_seconds == 60
    assert 0 < limits.demote_rejection_rate <= 1
    assert limits.suggest_only_min_rejections >= limits.demote_min_rejections


def test_no_figures_leave_the_decision_as_the_policy_made_it() -> None:
    original = decision()
    tuned = tune_decision(original, figures(), LIMITS)
    assert tuned.decision == original
    assert tuned.auto_capture_eligible is True
    assert not tuned.demoted_by and not tuned.promoted_by and not tuned.suggest_only


def test_a_rejected_rule_demotes_the_decision() -> None:
    tally = Tally(approved=1, rejected=4)
    tuned = tune_decision(decision(), figures(rules={"candidate.preference.standing": tally}), LIMITS)
    assert tuned.demoted_by == [rule_key("candidate.preference.standing")]
    assert tuned.decision.confidence == pytest.approx(0.45)
    assert tuned.decision.requires_review is True
    assert tuned.auto_capture_eligible is False
    assert tuned.suggest_only is False
    assert "feedback demoted it" in tuned.decision.reason
    assert "rejected 4" in tuned.decision.reason


def test_a_rejected_memory_type_demotes_the_decision() -> None:
    tuned = tune_decision(decision(), figures(types={"preference": Tally(rejected=3)}), LIMITS)
    assert tuned.demoted_by == [type_key("preference")]


def test_overwhelming_rejections_make_it_suggest_only() -> None:
    tuned = tune_decision(decision(), figures(types={"preference": Tally(approved=1, rejected=9)}), LIMITS)
    assert tuned.suggest_only is True
    assert tuned.auto_capture_eligible is False


def test_few_rejections_or_a_low_rate_do_not_demote() -> None:
    assert not tune_decision(decision(), figures(types={"preference": Tally(rejected=2)}), LIMITS).demoted_by
    mostly_approved = Tally(approved=20, rejected=5)
    assert not tune_decision(decision(), figures(types={"preference": mostly_approved}), LIMITS).demoted_by


def test_steady_clean_approvals_waive_review_for_a_low_risk_item() -> None:
    asked_for_review = decision(requires_review=True, sensitivity=Sensitivity.MEDIUM)
    tuned = tune_decision(asked_for_review, figures(types={"preference": Tally(approved=12)}), LIMITS)
    assert tuned.promoted_by == [type_key("preference")]
    assert tuned.decision.requires_review is False
    assert tuned.auto_capture_eligible is True
    assert tuned.decision.confidence == asked_for_review.confidence


def test_approvals_with_many_corrections_do_not_promote() -> None:
    corrected = Tally(approved=12, corrected=6)
    tuned = tune_decision(decision(requires_review=True), figures(types={"preference": corrected}), LIMITS)
    assert not tuned.promoted_by
    assert tuned.auto_capture_eligible is False


def test_a_demoted_rule_outweighs_an_approved_type() -> None:
    tuned = tune_decision(
        decision(),
        figures(
            types={"preference": Tally(approved=50)},
            rules={"candidate.preference.standing": Tally(rejected=5)},
        ),
        LIMITS,
    )
    assert tuned.demoted_by and not tuned.promoted_by
    assert tuned.auto_capture_eligible is False


def test_not_a_candidate_is_never_tuned() -> None:
    nothing = decision(should_create_candidate=False, status=CandidateStatus.NOT_CANDIDATE)
    tuned = tune_decision(nothing, figures(types={"preference": Tally(approved=100)}), LIMITS)
    assert tuned.decision == nothing
    assert tuned.auto_capture_eligible is False


GUARDED = [
    decision(status=CandidateStatus.BLOCKED_SECRET, secret_kinds=["aws_access_key_id"], requires_review=True),
    decision(status=CandidateStatus.BLOCKED_SECRET, requires_review=False),
    decision(secret_kinds=["password"]),
    decision(sensitivity=Sensitivity.HIGH, requires_review=True),
    decision(sensitivity=Sensitivity.PRIVATE, requires_review=True),
    decision(sensitivity=Sensitivity.PRIVATE, requires_review=False),  # a policy slip still waits
]


@pytest.mark.parametrize("guarded", GUARDED)
@given(approved=st.integers(min_value=0, max_value=100_000))
def test_no_amount_of_approvals_opens_a_safety_gate(guarded: CandidateDecision, approved: int) -> None:
    clean = Tally(approved=approved)
    tuned = tune_decision(
        guarded,
        figures(types={guarded.memory_type.value: clean}, rules={r: clean for r in guarded.rules}),
        LIMITS,
    )
    assert tuned.auto_capture_eligible is False
    assert tuned.decision.requires_review is True
    assert not tuned.promoted_by
    assert safety_gate(guarded) is not None


def test_the_safety_gate_names_the_reason() -> None:
    assert safety_gate(GUARDED[0]) == "secret"
    assert safety_gate(GUARDED[3]) == "sensitivity:high"
    assert safety_gate(GUARDED[4]) == "sensitivity:private"
    assert safety_gate(decision()) is None
