"""Review decisions: approve (with edits or corrections), reject, add by hand, and the feedback summary.

Reads the candidate once, checks what the reviewer asked for, then writes one conditional transaction
(status change + memory + feedback event). Every summary a person types passes the secret check
before it can be stored; a summary holding a secret is refused whole, never stored, never echoed.
"""

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

from pandora_memory.feedback.events import Correction, FeedbackAction, FeedbackEvent
from pandora_memory.feedback.provider import window_start
from pandora_memory.feedback.summary import FeedbackFigures, merge, summarise
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.policy.rules import policy_version
from pandora_memory.review.cursor import decode_cursor, encode_cursor
from pandora_memory.review.errors import (
    CandidateNotFoundError,
    EditRequiredError,
    InvalidEditError,
    SecretInSummaryError,
    StatusConflictError,
)
from pandora_memory.review.ids import parse_candidate_id
from pandora_memory.review.metrics import ReviewMetrics, record_actions
from pandora_memory.review.records import MEMORY_SOURCE_MANUAL, MEMORY_SOURCE_REVIEW, ReviewedCandidate
from pandora_memory.review.repository import ReviewRepository, StatusChange
from pandora_memory.storage.records import InboxStatus, MemoryRecord, MemoryStatus, utc_timestamp

if TYPE_CHECKING:
    # Types only: the detectors behind them load when a text is first redacted (see the factory).
    from pandora_memory.secrets.findings import Redaction

logger = Logger(child=True)

Redactor = Callable[[str], "Redaction"]

MAX_SUMMARY_CHARS = 1000
MAX_NOTE_CHARS = 500


@dataclass(frozen=True)
class ApprovalEdits:
    """What the reviewer changed. A field left None keeps the candidate's value; nothing is inferred."""

    summary: str | None = None
    memory_type: MemoryType | None = None
    sensitivity: Sensitivity | None = None
    namespace: Namespace | None = None


@dataclass(frozen=True)
class Approved:
    candidate: ReviewedCandidate
    memory: MemoryRecord


@dataclass(frozen=True)
class CandidatePage:
    candidates: list[ReviewedCandidate]
    cursor: str | None


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _new_event_id() -> str:
    return uuid.uuid4().hex


class ReviewService:
    def __init__(
        self,
        repository: ReviewRepository,
        redactor: Redactor,
        metrics: ReviewMetrics,
        now: Callable[[], datetime] = _utc_now,
        new_event_id: Callable[[], str] = _new_event_id,
    ) -> None:
        self._repository = repository
        self._redact = redactor
        self._metrics = metrics
        self._now = now
        self._new_event_id = new_event_id

    # -- reads ------------------------------------------------------------------------------------

    def list_candidates(
        self, namespace: Namespace, status: InboxStatus, limit: int, cursor: str | None = None
    ) -> CandidatePage:
        start = decode_cursor(cursor, namespace, status) if cursor else None
        candidates, last = self._repository.page(namespace, status, limit, start)
        return CandidatePage(candidates=candidates, cursor=encode_cursor(last))

    def get_candidate(self, candidate_id: str) -> ReviewedCandidate:
        namespace, hash_hex = parse_candidate_id(candidate_id)
        candidate = self._repository.get(namespace, hash_hex)
        if candidate is None:
            raise CandidateNotFoundError
        return candidate

    def feedback_summary(self, namespaces: Iterable[Namespace], days: int) -> FeedbackFigures:
        since = window_start(self._now(), days)
        parts = [summarise(self._repository.feedback.events(ns, since=since), since) for ns in namespaces]
        return merge(parts)

    # -- review actions ---------------------------------------------------------------------------

    def approve(self, candidate_id: str, edits: ApprovalEdits, reviewer: str) -> Approved:
        candidate = self._open_candidate(candidate_id)
        summary = candidate.summary if edits.summary is None else self._checked_summary(edits.summary)
        if candidate.status is InboxStatus.BLOCKED_SECRET and summary == candidate.summary:
            raise EditRequiredError(candidate.status.value)
        memory_type = edits.memory_type or candidate.memory_type
        if memory_type is MemoryType.NONE:
            raise InvalidEditError("choose a memory type: this candidate has none")
        sensitivity = edits.sensitivity or candidate.sensitivity
        target = edits.namespace or candidate.namespace

        corrections = [
            correction
            for correction, changed in (
                (Correction.NAMESPACE, target is not candidate.namespace),
                (Correction.SENSITIVITY, sensitivity is not candidate.sensitivity),
                (Correction.SUMMARY, summary != candidate.summary),
                (Correction.MEMORY_TYPE, memory_type is not candidate.memory_type),
            )
            if changed
        ]
        now = utc_timestamp(self._now())
        memory = MemoryRecord(
            namespace=target,
            content_hash=content_hash(target, memory_type.value, summary),
            created_at=now,
            memory_type=memory_type,
            sensitivity=sensitivity,
            summary=summary,
            source=MEMORY_SOURCE_REVIEW,
            policy_version=candidate.policy_version,
            status=MemoryStatus.APPROVED,
            candidate_id=candidate.id,
        )
        reviewed = candidate.model_copy(
            update={
                "status": InboxStatus.APPROVED,
                "reviewed_at": now,
                "reviewed_by": reviewer,
                "memory_id": memory.id,
                "corrected_namespace": target if target is not candidate.namespace else None,
                "corrections": corrections,
            }
        )
        event = self._event(candidate, FeedbackAction.APPROVED, now, reviewer, corrections, memory)
        self._repository.approve(StatusChange(reviewed, candidate.status, now, reviewer), memory, event)

        record_actions(self._metrics, event)
        logger.info(
            "candidate approved",
            extra={
                "candidate_id": candidate.id,
                "memory_id": memory.id,
                "corrections": [correction.value for correction in corrections],
                "reviewed_by": reviewer,
            },
        )
        if target is not candidate.namespace:
            logger.info(
                "namespace corrected",
                extra={
                    "candidate_id": candidate.id,
                    "from_namespace": candidate.namespace.value,
                    "to_namespace": target.value,
                    "reviewed_by": reviewer,
                },
            )
        return Approved(candidate=reviewed, memory=memory)

    def reject(self, candidate_id: str, note: str | None, reviewer: str) -> ReviewedCandidate:
        candidate = self._open_candidate(candidate_id)
        clean_note = self._redact(note.strip()[:MAX_NOTE_CHARS]).text if note and note.strip() else None
        now = utc_timestamp(self._now())
        reviewed = candidate.model_copy(
            update={
                "status": InboxStatus.REJECTED,
                "reviewed_at": now,
                "reviewed_by": reviewer,
                "review_note": clean_note,
                "corrections": [],
            }
        )
        event = self._event(candidate, FeedbackAction.REJECTED, now, reviewer, [], None, clean_note or "")
        self._repository.reject(StatusChange(reviewed, candidate.status, now, reviewer), event)
        record_actions(self._metrics, event)
        logger.info(
            "candidate rejected",
            extra={"candidate_id": candidate.id, "reviewed_by": reviewer, "rules": candidate.rules},
        )
        return reviewed

    def add_memory(
        self,
        namespace: Namespace,
        summary: str,
        memory_type: MemoryType,
        sensitivity: Sensitivity,
        reviewer: str,
    ) -> MemoryRecord:
        """A memory the policy missed (a false negative), stored directly as approved."""
        if memory_type is MemoryType.NONE:
            raise InvalidEditError("choose a memory type")
        clean = self._checked_summary(summary)
        now = utc_timestamp(self._now())
        memory = MemoryRecord(
            namespace=namespace,
            content_hash=content_hash(namespace, memory_type.value, clean),
            created_at=now,
            memory_type=memory_type,
            sensitivity=sensitivity,
            summary=clean,
            source=MEMORY_SOURCE_MANUAL,
            policy_version=policy_version(),
            status=MemoryStatus.APPROVED,
        )
        event = FeedbackEvent(
            namespace=namespace,
            event_id=self._new_event_id(),
            created_at=now,
            action=FeedbackAction.MANUAL_ADD,
            memory_type=memory_type,
            sensitivity=sensitivity,
            final_memory_type=memory_type,
            final_sensitivity=sensitivity,
            memory_id=memory.id,
            policy_version=memory.policy_version,
            summary=clean,
            reviewed_by=reviewer,
        )
        self._repository.add_memory(memory, event)
        record_actions(self._metrics, event)
        logger.info("memory added by hand", extra={"memory_id": memory.id, "reviewed_by": reviewer})
        return memory

    # -- shared -----------------------------------------------------------------------------------

    def _open_candidate(self, candidate_id: str) -> ReviewedCandidate:
        candidate = self.get_candidate(candidate_id)
        if not candidate.is_open:
            raise StatusConflictError(candidate.status.value)
        return candidate

    def _checked_summary(self, text: str) -> str:
        summary = " ".join(text.split())
        if not summary:
            raise InvalidEditError("the summary is empty")
        if len(summary) > MAX_SUMMARY_CHARS:
            raise InvalidEditError(f"the summary is longer than {MAX_SUMMARY_CHARS} characters")
        redaction = self._redact(summary)
        if redaction.findings:
            raise SecretInSummaryError(redaction.kinds)
        return summary

    def _event(
        self,
        candidate: ReviewedCandidate,
        action: FeedbackAction,
        now: str,
        reviewer: str,
        corrections: list[Correction],
        memory: MemoryRecord | None,
        note: str = "",
    ) -> FeedbackEvent:
        return FeedbackEvent(
            namespace=candidate.namespace,
            event_id=self._new_event_id(),
            created_at=now,
            action=action,
            corrections=corrections,
            memory_type=candidate.memory_type,
            sensitivity=candidate.sensitivity,
            final_memory_type=memory.memory_type if memory else None,
            final_sensitivity=memory.sensitivity if memory else None,
            corrected_namespace=memory.namespace if memory and Correction.NAMESPACE in corrections else None,
            candidate_id=candidate.id,
            candidate_status=candidate.status.value,
            memory_id=memory.id if memory else "",
            policy_version=candidate.policy_version,
            rules=candidate.rules,
            cues=candidate.cues,
            confidence=candidate.confidence,
            requires_review=candidate.requires_review,
            summary=candidate.summary,
            user_message_preview=candidate.user_message_preview,
            note=note,
            reviewed_by=reviewer,
        )
