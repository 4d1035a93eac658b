"""Request and response bodies of the review API. Every text field returned is stored redacted."""

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.feedback.summary import FeedbackFigures, Tally
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.review.records import ReviewedCandidate
from pandora_memory.review.service import MAX_NOTE_CHARS, MAX_SUMMARY_CHARS
from pandora_memory.storage.records import InboxStatus, MemoryRecord


class CandidateView(BaseModel):
    id: str = Field(description="<namespace>.<content hash>: the id alone names the candidate.")
    namespace: Namespace
    status: InboxStatus
    created_at: str
    memory_type: MemoryType
    sensitivity: Sensitivity
    confidence: float
    requires_review: bool
    summary: str
    reason: str
    rules: list[str]
    cues: list[str]
    secret_kinds: list[str]
    policy_version: str
    source: str
    user_message_preview: str
    reviewed_at: str | None = None
    reviewed_by: str | None = None
    memory_id: str | None = None
    corrected_namespace: Namespace | None = None
    corrections: list[str] = Field(default_factory=list)
    review_note: str | None = None

    @classmethod
    def of(cls, record: ReviewedCandidate) -> "CandidateView":
        return cls(
            id=record.id,
            namespace=record.namespace,
            status=record.status,
            created_at=record.created_at,
            memory_type=record.memory_type,
            sensitivity=record.sensitivity,
            confidence=record.confidence,
            requires_review=record.requires_review,
            summary=record.summary,
            reason=record.reason,
            rules=record.rules,
            cues=record.cues,
            secret_kinds=record.secret_kinds,
            policy_version=record.policy_version,
            source=record.source,
            user_message_preview=record.user_message_preview,
            reviewed_at=record.reviewed_at,
            reviewed_by=record.reviewed_by,
            memory_id=record.memory_id,
            corrected_namespace=record.corrected_namespace,
            corrections=[correction.value for correction in record.corrections],
            review_note=record.review_note,
        )


class MemoryView(BaseModel):
    id: str
    namespace: Namespace
    memory_type: MemoryType
    sensitivity: Sensitivity
    summary: str
    created_at: str
    source: str
    status: str
    candidate_id: str | None = None

    @classmethod
    def of(cls, record: MemoryRecord) -> "MemoryView":
        return cls(
            id=record.id,
            namespace=record.namespace,
            memory_type=record.memory_type,
            sensitivity=record.sensitivity,
            summary=record.summary,
            created_at=record.created_at,
            source=record.source,
            status=record.status.value,
            candidate_id=record.candidate_id or None,
        )


class CandidateList(BaseModel):
    candidates: list[CandidateView]
    cursor: str | None = Field(description="Pass back to get the next page; null on the last page.")


class ApproveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str | None = Field(default=None, max_length=MAX_SUMMARY_CHARS)
    memory_type: MemoryType | None = None
    sensitivity: Sensitivity | None = None
    namespace: Namespace | None = Field(
        default=None, description="Explicit namespace correction: the memory is stored there instead."
    )


class RejectRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str | None = Field(default=None, max_length=MAX_NOTE_CHARS)


class ManualAddRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    namespace: Namespace
    summary: str = Field(min_length=1, max_length=MAX_SUMMARY_CHARS)
    memory_type: MemoryType
    sensitivity: Sensitivity = Sensitivity.MEDIUM


class ApproveResponse(BaseModel):
    candidate: CandidateView
    memory: MemoryView


class RejectResponse(BaseModel):
    candidate: CandidateView


class ManualAddResponse(BaseModel):
    memory: MemoryView


class TallyView(BaseModel):
    approved: int
    rejected: int
    corrected: int
    added_by_hand: int
    rejection_rate: float

    @classmethod
    def of(cls, tally: Tally) -> "TallyView":
        return cls(
            approved=tally.approved,
            rejected=tally.rejected,
            corrected=tally.corrected,
            added_by_hand=tally.added_by_hand,
            rejection_rate=round(tally.rejection_rate, 4),
        )


class FeedbackSummaryResponse(BaseModel):
    namespaces: list[Namespace]
    days: int
    since: str
    event_count: int
    by_memory_type: dict[str, TallyView]
    by_rule: dict[str, TallyView]

    @classmethod
    def of(
        cls, figures: FeedbackFigures, namespaces: list[Namespace], days: int
    ) -> "FeedbackSummaryResponse":
        return cls(
            namespaces=namespaces,
            days=days,
            since=figures.since,
            event_count=figures.event_count,
            by_memory_type={name: TallyView.of(tally) for name, tally in figures.by_memory_type.items()},
            by_rule={name: TallyView.of(tally) for name, tally in figures.by_rule.items()},
        )


class ErrorDetail(BaseModel):
    field: str
    message: str


class ErrorResponse(BaseModel):
    ok: bool = False
    error: str = Field(description="Machine-readable error code.")
    reason: str = Field(description="What was wrong, in plain words.")
    current_status: str | None = Field(default=None, description="On 409: the candidate's status now.")
    details: list[ErrorDetail] = Field(default_factory=list)
