"""What processing one S3 record can end in. Rejections and skips are answers, not errors."""

from dataclasses import dataclass
from enum import StrEnum


class RejectReason(StrEnum):
    """Why an input was refused. Each is a metric dimension value, so the set stays closed."""

    OTHER_BUCKET = "other_bucket"
    OTHER_PREFIX = "other_prefix"
    UNKNOWN_NAMESPACE = "unknown_namespace"
    NOT_MARKDOWN = "not_markdown"
    PATH_TRAVERSAL = "path_traversal"
    INVALID_PATH = "invalid_path"
    SECRET_IN_PATH = "secret_in_path"  # noqa: S105 - a reason name, not a credential
    INVALID_UTF8 = "invalid_utf8"
    NUL_BYTES = "nul_bytes"
    OVERSIZED = "oversized"
    MALFORMED_EVENT = "malformed_event"
    UNSUPPORTED_EVENT = "unsupported_event"


class SkipReason(StrEnum):
    """Why a valid event changed nothing: the stored state is already as new or newer."""

    DUPLICATE = "duplicate"
    STALE = "stale"
    SUPERSEDED_IN_S3 = "superseded_in_s3"
    OBJECT_GONE = "object_gone"
    KEY_STILL_PRESENT = "key_still_present"
    UNKNOWN_DOCUMENT = "unknown_document"
    TEST_EVENT = "test_event"


class ChangeKind(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    RENAME = "rename"
    DELETE = "delete"


class OutcomeKind(StrEnum):
    INGESTED = "ingested"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    REJECTED = "rejected"


@dataclass(frozen=True)
class IngestOutcome:
    """Safe to log: paths are validated (or redacted previews), hashes and counts carry no content."""

    kind: OutcomeKind
    namespace: str | None = None
    logical_path: str | None = None
    reason: str | None = None
    change_kind: ChangeKind | None = None
    revision_key: str | None = None
    chunk_count: int = 0
    redaction_count: int = 0
    generation: int | None = None
    # A rejected key, already passed through redaction and clipped: the key itself is untrusted.
    key_preview: str | None = None

    def as_log(self) -> dict[str, object]:
        fields: dict[str, object] = {
            "outcome": self.kind.value,
            "namespace": self.namespace,
            "logical_path": self.logical_path,
            "reason": self.reason,
            "change_kind": self.change_kind.value if self.change_kind else None,
            "revision_key": self.revision_key,
            "chunk_count": self.chunk_count,
            "redaction_count": self.redaction_count,
            "generation": self.generation,
            "key_preview": self.key_preview,
        }
        return {key: value for key, value in fields.items() if value is not None}


class IngestRejectedError(ValueError):
    """Bad input: logged and counted, never retried."""

    def __init__(self, reason: RejectReason, preview: str | None = None) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.preview = preview


class IngestStepError(RuntimeError):
    """A step failed (usually a transient AWS error). Raised to the runtime so the event is retried.

    The message holds the step and an error code only: never content, keys or AWS messages.
    """

    def __init__(self, step: str, code: str, *, document_marked: bool = False) -> None:
        super().__init__(f"{step}: {code}")
        self.step = step
        self.code = code
        self.document_marked = document_marked
