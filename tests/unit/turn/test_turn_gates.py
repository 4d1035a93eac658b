import pytest
from pandora_memory.flags import AutopilotMode, Flags
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity
from pandora_memory.turn.gates import may_auto_capture, open_gates

CAPTURE_ON = Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True)


def decision(
    sensitivity: Sensitivity = Sensitivity.LOW,
    confidence: float = 0.9,
    requires_review: bool = False,
    status: CandidateStatus = CandidateStatus.CANDIDATE,
) -> CandidateDecision:
    return CandidateDecision(
        namespace=Namespace.REAL_LIFE,
        reason="test",
        rules=["capture.test"],
        policy_version="test",
        should_create_candidate=status is CandidateStatus.CANDIDATE,
        requires_review=requires_review,
        sensitivity=sensitivity,
        memory_type=MemoryType.PREFERENCE,
        confidence=confidence,
        status=status,
        summary="prefers conventional commits",
    )


def test_defaults_queue_for_review_and_say_auto_capture_is_off() -> None:
    gates = open_gates(Flags())
    assert (gates.retrieve, gates.evaluate_candidates, gates.write_inbox, gates.auto_capture) == (
        True,
        True,
        True,
        False,
    )
    assert gates.warnings == (
        "auto-capture off (PANDORA_MEMORY_AUTOPILOT=queue): candidates wait for review",
    )


def test_off_closes_every_gate_with_one_warning() -> None:
    gates = open_gates(Flags(autopilot=AutopilotMode.OFF, auto_capture_low_risk=True))
    assert not (gates.retrieve or gates.evaluate_candidates or gates.write_inbox or gates.auto_capture)
    assert len(gates.warnings) == 1
    assert "nothing is retrieved or written" in gates.warnings[0]


def test_suggest_previews_but_never_writes() -> None:
    gates = open_gates(Flags(autopilot=AutopilotMode.SUGGEST))
    assert gates.evaluate_candidates and not gates.write_inbox and not gates.auto_capture
    assert any("suggest" in warning and "never written" in warning for warning in gates.warnings)


def test_every_closed_gate_is_named() -> None:
    flags = Flags(
        autopilot=AutopilotMode.CAPTURE_LOW_RISK,
        auto_retrieve=False,
        auto_candidate_queue=False,
        auto_capture_low_risk=False,
        sensitive_requires_approval=False,
        problems=("PANDORA_X missing",),
    )
    text = "\n".join(open_gates(flags).warnings)
    for name in (
        "PANDORA_X missing",
        "PANDORA_AUTO_RETRIEVE=false",
        "PANDORA_AUTO_CANDIDATE_QUEUE=false",
        "PANDORA_AUTO_CAPTURE_LOW_RISK=false",
        "PANDORA_SENSITIVE_MEMORY_REQUIRES_APPROVAL=false is not honoured",
    ):
        assert name in text


def test_capture_needs_the_mode_and_the_flag() -> None:
    assert open_gates(CAPTURE_ON).auto_capture
    assert not open_gates(Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK)).auto_capture
    assert not open_gates(Flags(autopilot=AutopilotMode.QUEUE, auto_capture_low_risk=True)).auto_capture


@pytest.mark.parametrize(
    ("candidate", "secret", "allowed"),
    [
        (decision(), False, True),
        (decision(sensitivity=Sensitivity.MEDIUM), False, True),
        (decision(sensitivity=Sensitivity.HIGH, requires_review=True), False, False),
        (decision(sensitivity=Sensitivity.PRIVATE, requires_review=True), False, False),
        (decision(confidence=0.79), False, False),
        (decision(), True, False),
        (decision(status=CandidateStatus.BLOCKED_SECRET), False, False),
        (decision(requires_review=True), False, False),
    ],
)
def test_only_low_risk_confident_candidates_are_captured(
    candidate: CandidateDecision, secret: bool, allowed: bool
) -> None:
    assert may_auto_capture(candidate, open_gates(CAPTURE_ON), 0.8, secret) is allowed


def test_the_approval_flag_cannot_release_high_or_private_items() -> None:
    gates = open_gates(
        Flags(
            autopilot=AutopilotMode.CAPTURE_LOW_RISK,
            auto_capture_low_risk=True,
            sensitive_requires_approval=False,
        )
    )
    assert may_auto_capture(decision(requires_review=True), gates, 0.8, False)
    for sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE):
        assert not may_auto_capture(
            decision(sensitivity=sensitivity, requires_review=True), gates, 0.8, False
        )
    assert not may_auto_capture(decision(), gates, 0.8, True)
