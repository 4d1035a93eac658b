"""Decisions the policy engine returns. Every field is explainable and free of secret plaintext."""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from pandora_memory.namespaces import Namespace


class RetrievalMode(StrEnum):
    CONTEXT_PACK = "context_pack"
    HYBRID = "hybrid"
    NONE = "none"


class Sensitivity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    PRIVATE = "private"


class MemoryType(StrEnum):
    PREFERENCE = "preference"
    PROJECT_DECISION = "project_decision"
    DEPLOYMENT_TRUTH = "deployment_truth"
    BLOCKER = "blocker"
    MERGED_PR = "merged_pr"
    ENV_CONFIG_DECISION = "env_config_decision"
    BUSINESS_PRIORITY = "business_priority"
    RELATIONSHIP_LOOP = "relationship_loop"
    RISK = "risk"
    AU_CANON = "au_canon"
    OPEN_LOOP = "open_loop"
    NONE = "none"


class CandidateStatus(StrEnum):
    CANDIDATE = "candidate"
    BLOCKED_SECRET = "blocked_secret"  # noqa: S105 - a status name, not a credential
    NOT_CANDIDATE = "not_candidate"


class _Decision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    namespace: Namespace
    reason: str = Field(description="Rules and cue words that fired, in plain words.")
    rules: list[str] = Field(default_factory=list, description="Ids of the rules that fired.")
    policy_version: str


class RetrieveDecision(_Decision):
    should_retrieve: bool
    retrieval_mode: RetrievalMode


class CandidateDecision(_Decision):
    should_create_candidate: bool
    requires_review: bool
    sensitivity: Sensitivity
    memory_type: MemoryType
    confidence: float = Field(ge=0.0, le=1.0)
    status: CandidateStatus
    summary: str = Field(description="Short, self-contained, redacted statement of the memory.")
    cues: list[str] = Field(default_factory=list, description="Cue words that produced the decision.")
    secret_kinds: list[str] = Field(default_factory=list, description="Kinds of credential found.")
