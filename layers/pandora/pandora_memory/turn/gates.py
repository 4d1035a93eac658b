"""What the autopilot flags allow for this turn, and a plain warning for every gate that is closed."""

from dataclasses import dataclass

from pandora_memory import flags as f
from pandora_memory.flags import AutopilotMode, Flags
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, Sensitivity


@dataclass(frozen=True)
class Gates:
    autopilot: AutopilotMode
    retrieve: bool
    evaluate_candidates: bool
    write_inbox: bool
    auto_capture: bool
    sensitive_requires_approval: bool
    warnings: tuple[str, ...]


def open_gates(flags: Flags) -> Gates:
    warnings = list(flags.problems)
    if flags.autopilot is AutopilotMode.OFF:
        warnings.append(f"autopilot off ({f.AUTOPILOT}=off): nothing is retrieved or written")
        return Gates(flags.autopilot, False, False, False, False, True, tuple(warnings))

    if not flags.auto_retrieve:
        warnings.append(f"auto-retrieve off ({f.AUTO_RETRIEVE}=false): no memory context is read")

    write_inbox = flags.autopilot is not AutopilotMode.SUGGEST and flags.auto_candidate_queue
    if flags.autopilot is AutopilotMode.SUGGEST:
        warnings.append(
            f"candidate inbox off ({f.AUTOPILOT}=suggest): candidates are previewed, never written"
        )
    elif not flags.auto_candidate_queue:
        warnings.append(
            f"candidate inbox off ({f.AUTO_CANDIDATE_QUEUE}=false): candidates are previewed, never written"
        )

    auto_capture = flags.autopilot is AutopilotMode.CAPTURE_LOW_RISK and flags.auto_capture_low_risk
    if flags.autopilot is not AutopilotMode.CAPTURE_LOW_RISK:
        warnings.append(
            f"auto-capture off ({f.AUTOPILOT}={flags.autopilot.value}): candidates wait for review"
        )
    elif not flags.auto_capture_low_risk:
        warnings.append(f"auto-capture off ({f.AUTO_CAPTURE_LOW_RISK}=false): candidates wait for review")

    if not flags.sensitive_requires_approval:
        warnings.append(
            f"{f.SENSITIVE_REQUIRES_APPROVAL}=false is not honoured for high or private memories and "
            "secrets: they always wait for review"
        )
    return Gates(
        autopilot=flags.autopilot,
        retrieve=flags.auto_retrieve,
        evaluate_candidates=True,
        write_inbox=write_inbox,
        auto_capture=auto_capture,
        sensitive_requires_approval=flags.sensitive_requires_approval,
        warnings=tuple(warnings),
    )


LOW_RISK = frozenset({Sensitivity.LOW, Sensitivity.MEDIUM})


def may_auto_capture(decision: CandidateDecision, gates: Gates, min_confidence: float, secret: bool) -> bool:
    """Low-risk only: low or medium sensitivity, confident, no secret, and no review demanded."""
    if not gates.auto_capture or secret or decision.status is not CandidateStatus.CANDIDATE:
        return False
    if decision.sensitivity not in LOW_RISK or decision.confidence < min_confidence:
        return False
    # The flag may waive the policy's review request only for low-risk items (checked above).
    return not (decision.requires_review and gates.sensitive_requires_approval)
