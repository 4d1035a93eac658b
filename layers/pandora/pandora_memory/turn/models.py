"""Request and response of the adaptive turn endpoint (the GPT Action). Field text feeds the OpenAPI."""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.flags import AutopilotMode
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, RetrievalMode, Sensitivity

MAX_TEXT_CHARS = 32_000


class TurnMode(StrEnum):
    PRE_ANSWER = "pre_answer"
    POST_ANSWER = "post_answer"


class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace: Namespace = Field(
        description="Memory world of the turn: real_life, or au for the fiction universe. Never mixed."
    )
    user_message: str = Field(
        min_length=1, max_length=MAX_TEXT_CHARS, description="The user's latest message, verbatim."
    )
    assistant_draft: str | None = Field(
        default=None,
        max_length=MAX_TEXT_CHARS,
        description="post_answer: the answer just given, so decisions in it can become candidates.",
    )
    current_task: str | None = Field(
        default=None,
        max_length=MAX_TEXT_CHARS,
        description="Optional short label of what the user is working on (helps retrieval).",
    )
    mode: TurnMode = Field(
        description="pre_answer before replying (may return memory context); post_answer after replying "
        "(may queue a memory candidate for review)."
    )


class CandidateOutcome(StrEnum):
    """What happened to the turn's candidate; also the `outcome` dimension of the CandidateOutcome metric."""

    QUEUED = "queued"
    REVIEW_REQUIRED = "review_required"
    BLOCKED_SECRET = "blocked_secret"  # noqa: S105 - an outcome name, not a credential
    DUPLICATE = "duplicate"
    AUTO_CAPTURED = "auto_captured"
    SUGGEST_ONLY = "suggest_only"
    DISABLED = "disabled"
    NOT_CANDIDATE = "not_candidate"


class PreviewStatus(StrEnum):
    PENDING_REVIEW = "pending_review"
    BLOCKED_SECRET = "blocked_secret"  # noqa: S105 - a status name, not a credential
    AUTO_CAPTURED = "auto_captured"
    DUPLICATE = "duplicate"
    PREVIEW = "preview"
    NOT_CANDIDATE = "not_candidate"


class RetrievalInfo(BaseModel):
    reason: str = Field(description="Why memory was or was not retrieved.")
    mode: RetrievalMode
    rules: list[str] = Field(description="Ids of the rules or gates behind the decision.")
    item_count: int = Field(ge=0, description="Note passages, open loops and memories in `context`.")
    estimated_tokens: int = Field(ge=0)
    truncated: bool = Field(description="True when items were left out to stay within the size budget.")
    sources: list[str] = Field(
        default_factory=list, description="Paths of the notes quoted in `context`, best match first."
    )


class CandidatePreview(BaseModel):
    id: str | None = Field(description="Candidate id (namespace.hash); null when the turn holds none.")
    status: PreviewStatus
    outcome: CandidateOutcome
    stored: bool = Field(description="True when this call wrote the candidate (or memory).")
    existing_status: str | None = Field(
        default=None, description="For a duplicate: the status of the item already stored."
    )
    memory_type: MemoryType
    sensitivity: Sensitivity
    requires_review: bool
    confidence: float = Field(ge=0.0, le=1.0)
    summary: str = Field(description="Redacted one-line statement of the memory.")
    reason: str = Field(description="Rules and cue words behind the decision.")
    rules: list[str]


class TurnResponse(BaseModel):
    ok: bool = True
    namespace: Namespace
    mode: TurnMode
    autopilot: AutopilotMode = Field(description="Autopilot mode in force (safe default when flags fail).")
    should_retrieve: bool
    context: str = Field(
        description="Memory context to use in the answer (pre_answer); empty when nothing was retrieved."
    )
    retrieval: RetrievalInfo | None = Field(description="The retrieval decision; null in post_answer.")
    should_create_candidate: bool
    candidate_preview: CandidatePreview | None = Field(
        description="The candidate decision and what was done with it; null in pre_answer or when off."
    )
    warnings: list[str] = Field(description="Every autopilot gate that is off, and why.")
    policy_version: str


class ErrorDetail(BaseModel):
    field: str
    message: str


class ErrorResponse(BaseModel):
    ok: bool = False
    error: str = Field(description="Machine-readable error code.")
    reason: str = Field(description="What was wrong, in plain words.")
    details: list[ErrorDetail] = Field(default_factory=list)
