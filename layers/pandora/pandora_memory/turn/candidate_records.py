"""Pure translations of a candidate decision into what may leave the process: the redacted stored
records and the preview returned to the caller. Nothing here reads or writes storage."""

import re
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
# About two lines: enough for a reviewer to recall the turn, short enough to keep the item small.
MESSAGE_PREVIEW_CHARS = 280
# Runs that look like keys, tokens or hashes (the detector's misses included) are not previewed.
_RANDOM_LOOKING = re.compile(r"[A-Za-z0-9+/_\-.%!=]{20,}")
MASK = "[…]"

Redactor = Callable[[str], Redaction]


@dataclass(frozen=True)
class Sanitised:
    """The decision's text, redacted again here so a detector miss upstream cannot reach storage."""

    summary: str
    reason: str
    cues: list[str]
    secret: bool
    secret_kinds: list[str]
    user_message_preview: str = ""


def _mask_random_looking(match: re.Match[str]) -> str:
    token = match.group(0)
    has_letter = any(character.isalpha() for character in token)
    has_digit = any(character.isdigit() for character in token)
    return MASK if has_letter and has_digit else token


def message_preview(user_message: str, redact: Redactor) -> str:
    """The message on one line, cut to MESSAGE_PREVIEW_CHARS at a word where possible; "" when the
    detector finds a credential in it, since a value it missed next to the one it found (a key's secret
    beside its id) would survive redaction. Long tokens mixing letters and digits are masked for the
    same reason: a preview is for recalling the turn, not for keeping values."""
    redaction = redact(user_message)
    if redaction.findings:
        return ""
    text = _RANDOM_LOOKING.sub(_mask_random_looking, " ".join(redaction.text.split()))
    if len(text) <= MESSAGE_PREVIEW_CHARS:
        return text
    cut = text[: MESSAGE_PREVIEW_CHARS - 1]
    space = cut.rfind(" ")
    if space >= MESSAGE_PREVIEW_CHARS // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def sanitise(decision: CandidateDecision, redact: Redactor, user_message: str | None = None) -> Sanitised:
    """`user_message`, when given, becomes the stored preview (see `message_preview`). It is read only for
    a candidate free of secrets: a long message costs real time, and a secret's message is not kept."""
    summary, reason = redact(decision.summary), redact(decision.reason)
    cues = [redact(cue) for cue in decision.cues]
    kinds = [*decision.secret_kinds, *summary.kinds, *reason.kinds, *(k for cue in cues for k in cue.kinds)]
    secret = decision.status is CandidateStatus.BLOCKED_SECRET or bool(kinds)
    previewed = not secret and decision.status is CandidateStatus.CANDIDATE
    return Sanitised(
        summary=summary.text,
        reason=reason.text,
        cues=[cue.text for cue in cues if not cue.findings],
        secret=secret,
        secret_kinds=list(dict.fromkeys(kinds)),
        user_message_preview=message_preview(user_message, redact) if user_message and previewed else "",
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
        user_message_preview=clean.user_message_preview,
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
