"""Pure translations of a candidate decision into what may leave the process: the redacted stored
records and the preview returned to the caller. Nothing here reads or writes storage."""

from collections.abc import Callable
from dataclasses import dataclass

from pandora_memory.hashing import candidate_id, content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, Sensitivity
from pandora_memory.secrets import Redaction
from pandora_memory.storage.records import (
    CandidateRecord,
    InboxStatus,
    MemoryRecord,
    MemoryStatus,
    utc_timestamp,
)
from pandora_memory.turn.models import CandidateOutcome, CandidatePreview, PreviewStatus

SOURCE = "chatgpt"
HIGH_RISK = frozenset({Sensitivity.HIGH, Sensitivity.PRIVATE})

Redactor = Callable[[str], Redaction]


@dataclass(frozen=True)
class Sanitised:
    """The decision's text, redacted again here so a detector miss upstream cannot reach storage."""

    summary: str
    reason: str
    cues: list[str]
    secret: bool
    secret_kinds: list[str]


def sanitise(decision: CandidateDecision, redact: Redactor) -> Sanitised:
    summary, reason = redact(decision.summary), redact(decision.reason)
    cues = [redact(cue) for cue in decision.cues]
    kinds = [*decision.secret_kinds, *summary.kinds, *reason.kinds, *(k for cue in cues for k in cue.kinds)]
    return Sanitised(
        summary=summary.text,
        reason=reason.text,
        cues=[cue.text for cue in cues if not cue.findings],
        secret=decision.status is CandidateStatus.BLOCKED_SECRET or bool(kinds),
        secret_kinds=list(dict.fromkeys(kinds)),
    )


def candidate_record(namespace: Namespace, decision: CandidateDecision, clean: Sanitised) -> CandidateRecord:
    requires_review = clean.secret or decision.requires_review or decision.sensitivity in HIGH_RISK
    return CandidateRecord(
        namespace=namespace,
        content_hash=content_hash(namespace, decision.memory_type.value, clean.summary),
        created_at=utc_timestamp(),
        memory_type=decision.memory_type,
        sensitivity=decision.sensitivity,
        summary=clean.summary,
        source=SOURCE,
        policy_version=decision.policy_version,
        status=InboxStatus.BLOCKED_SECRET if clean.secret else InboxStatus.PENDING_REVIEW,
        confidence=decision.confidence,
        requires_review=requires_review,
        reason=clean.reason,
        rules=decision.rules,
        cues=clean.cues,
        secret_kinds=clean.secret_kinds,
    )


def captured_memory(candidate: CandidateRecord) -> MemoryRecord:
    return MemoryRecord(
        namespace=candidate.namespace,
        content_hash=candidate.content_hash,
        created_at=candidate.created_at,
        memory_type=candidate.memory_type,
        sensitivity=candidate.sensitivity,
        summary=candidate.summary,
        source=candidate.source,
        policy_version=candidate.policy_version,
        status=MemoryStatus.AUTO_CAPTURED,
        candidate_id=candidate.id,
    )


def preview(
    decision: CandidateDecision,
    clean: Sanitised,
    status: PreviewStatus,
    outcome: CandidateOutcome,
    record: CandidateRecord | None = None,
    *,
    stored: bool = False,
) -> CandidatePreview:
    return CandidatePreview(
        id=record.id if record else None,
        status=status,
        outcome=outcome,
        stored=stored,
        memory_type=decision.memory_type,
        sensitivity=decision.sensitivity,
        requires_review=record.requires_review if record else decision.requires_review,
        confidence=decision.confidence,
        summary=clean.summary,
        reason=clean.reason,
        rules=decision.rules,
    )


def duplicate_preview(
    record: CandidateRecord,
    decision: CandidateDecision,
    clean: Sanitised,
    existing: CandidateRecord | MemoryRecord,
) -> CandidatePreview:
    """Names the item already stored (its id and status); this call wrote nothing."""
    return CandidatePreview(
        id=candidate_id(existing.namespace, existing.content_hash),
        status=PreviewStatus.DUPLICATE,
        outcome=CandidateOutcome.DUPLICATE,
        stored=False,
        existing_status=existing.status.value,
        memory_type=existing.memory_type,
        sensitivity=existing.sensitivity,
        requires_review=record.requires_review,
        confidence=decision.confidence,
        summary=existing.summary,
        reason=clean.reason,
        rules=decision.rules,
    )
