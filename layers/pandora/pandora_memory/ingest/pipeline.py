"""The ingest of one S3 record: validate, order, redact, store the revision, then swap the projection.

Order of effects for an upload (each step runs only if the earlier ones succeeded):
  read the current object -> reject bad input -> ordering guard -> redact -> claim the document
  (pending) -> chunk -> revision text + item -> chunk items -> next snapshot in S3 -> one transaction
  moving the projection pointer and the document's active revision together (publishing.py).
Nothing before the transaction is visible to search, so a failure at any step leaves the last good
generation searchable; the document is flagged pending with the step and error code, the error is
raised (the asynchronous retries and then the dead-letter queue take over), and a re-delivery of the
same event passes the ordering guard again and completes the change.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pandora_memory.ingest import diffs
from pandora_memory.ingest.aws_errors import error_code
from pandora_memory.ingest.chunks import ChunkRepository
from pandora_memory.ingest.content import decode_markdown
from pandora_memory.ingest.documents import DocumentRepository, UploadFacts
from pandora_memory.ingest.events import EventKind, ObjectEvent, ParsedRecord, UnusableRecord
from pandora_memory.ingest.metrics import CHANGE_UNCHANGED, IngestMetrics
from pandora_memory.ingest.ordering import EventOrder, admits, event_order
from pandora_memory.ingest.outcomes import (
    ChangeKind,
    IngestOutcome,
    IngestRejectedError,
    IngestStepError,
    OutcomeKind,
    RejectReason,
    SkipReason,
)
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.ingest.publishing import DocumentChange, ProjectionPublisher, search_entries
from pandora_memory.ingest.records import DocumentState, ProjectionStatus, revision_key
from pandora_memory.ingest.revisions import RevisionDraft, RevisionRepository
from pandora_memory.ingest.s3_keys import MemoryKey, parse_memory_key, revision_snapshot_key
from pandora_memory.ingest.steps import Attempt, Step
from pandora_memory.ingest.uploads import NotReadable, UploadStore
from pandora_memory.markdown.chunking import CHUNKER_NAME, CHUNKER_VERSION, ChunkerConfig, chunk_markdown
from pandora_memory.secrets.findings import Redaction
from pandora_memory.storage.items import utc_timestamp

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

Redactor = Callable[[str], Redaction]
Clock = Callable[[], datetime]
_KEY_PREVIEW_CHARS = 200


@dataclass(frozen=True)
class IngestPolicy:
    bucket: str
    max_markdown_bytes: int
    rename_window: timedelta
    max_projection_attempts: int
    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    max_swap_attempts: int = 5


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _system_clock() -> datetime:
    return datetime.now(UTC)


def _shows(document: DocumentState, revision: str) -> bool:
    """The document already has this revision live and searchable: an upload of it changes nothing."""
    return document.live and document.active_revision == revision and document.current_revision == revision


def _refusal(document: DocumentState, order: EventOrder) -> SkipReason:
    return SkipReason.DUPLICATE if document.claim == order.claim else SkipReason.STALE


class IngestPipeline:
    def __init__(
        self,
        *,
        uploads: UploadStore,
        documents: DocumentRepository,
        revisions: RevisionRepository,
        chunks: ChunkRepository,
        projections: ProjectionRepository,
        metrics: IngestMetrics,
        redactor: Redactor,
        policy: IngestPolicy,
        clock: Clock = _system_clock,
    ) -> None:
        self._uploads = uploads
        self._documents = documents
        self._revisions = revisions
        self._chunks = chunks
        self._metrics = metrics
        self._redact = redactor
        self._policy = policy
        self._clock = clock
        self._publisher = ProjectionPublisher(
            documents, projections, metrics, self._now, policy.max_swap_attempts
        )

    def process(self, record: ParsedRecord) -> IngestOutcome:
        """Rejections and skips are returned; IngestStepError is raised after flagging the document."""
        if isinstance(record, UnusableRecord):
            if isinstance(record.reason, RejectReason):
                return self._reject(record.reason)
            return IngestOutcome(OutcomeKind.SKIPPED, reason=record.reason.value)
        try:
            key = self._memory_key(record)
        except IngestRejectedError as rejected:
            return self._reject(rejected.reason, preview=rejected.preview)
        attempt = Attempt(key=key)
        try:
            if record.kind is EventKind.CREATED:
                return self._ingest_upload(record, attempt)
            return self._ingest_removal(record, attempt)
        except IngestRejectedError as rejected:
            return self._reject(rejected.reason, key=key)
        except Exception as error:
            raise self._fail(attempt, error) from error

    def _memory_key(self, record: ObjectEvent) -> MemoryKey:
        preview = self._redact(record.key).text[:_KEY_PREVIEW_CHARS]
        if record.bucket != self._policy.bucket:
            raise IngestRejectedError(RejectReason.OTHER_BUCKET, preview)
        try:
            key = parse_memory_key(record.key)
        except IngestRejectedError as rejected:
            raise IngestRejectedError(rejected.reason, preview) from None
        # The path becomes a DynamoDB key and a log field: it must not carry a credential.
        if self._redact(key.logical_path).findings:
            raise IngestRejectedError(RejectReason.SECRET_IN_PATH, preview)
        return key

    # --- uploads ----------------------------------------------------------------------------------

    def _ingest_upload(self, event: ObjectEvent, attempt: Attempt) -> IngestOutcome:
        key = attempt.key
        if event.sequencer:
            attempt.order = event_order(event.sequencer, self._clock(), event.version_id)
        upload = self._uploads.read_current(key.object_key, self._policy.max_markdown_bytes, event.version_id)
        if isinstance(upload, NotReadable):
            return self._skipped(key, upload.reason)
        text = decode_markdown(upload.raw, self._policy.max_markdown_bytes)
        order = attempt.order = event_order(event.sequencer, upload.last_modified, upload.version_id)

        attempt.step = Step.DOCUMENT_READ
        document = self._documents.get(key)
        if document is not None and not admits(
            document.order_key, document.claim, document.projection_status, order
        ):
            return self._skipped(key, _refusal(document, order))

        attempt.step = Step.REDACTION
        redaction = self._redact(text)
        content_hash = _sha256(redaction.text.encode("utf-8"))
        new_revision = revision_key(key.logical_path, content_hash)
        facts = UploadFacts(_sha256(upload.raw), len(upload.raw), upload.etag, upload.version_id)
        now = self._now()

        if document is not None and _shows(document, new_revision):
            attempt.step = Step.CLAIM
            if self._documents.record_unchanged(key, order, facts, new_revision, now):
                self._metrics.document(CHANGE_UNCHANGED)
                return IngestOutcome(
                    OutcomeKind.UNCHANGED, key.namespace.value, key.logical_path, revision_key=new_revision
                )
            # The document moved since it was read: take the full path, guarded by the claim.

        attempt.step = Step.RENAME_LOOKUP
        change_kind, previous_path = self._change_kind(key, document, order, content_hash)

        attempt.step = Step.CLAIM
        if not self._documents.claim_upload(
            key,
            order,
            facts,
            current_hash=content_hash,
            revision_key=new_revision,
            change_kind=change_kind,
            previous_logical_path=previous_path,
            now=now,
        ):
            return self._skipped(key, SkipReason.STALE)
        attempt.claim = order.claim

        attempt.step = Step.CHUNKING
        chunks = chunk_markdown(redaction.text, self._policy.chunker)

        attempt.step = Step.REVISION_WRITE
        snapshot_key = self._revisions.write_text(key.namespace, content_hash, redaction.text)
        self._revisions.put(
            RevisionDraft(
                namespace=key.namespace,
                revision_key=new_revision,
                logical_path=key.logical_path,
                content_hash=content_hash,
                change_kind=change_kind,
                created_at=now,
                chunk_count=len(chunks),
                char_count=len(redaction.text),
                snapshot_key=snapshot_key,
                chunker=self._chunker_record(),
                previous_logical_path=previous_path,
                redaction_kinds=redaction.kinds,
            )
        )

        attempt.step = Step.CHUNK_WRITE
        self._chunks.write(key.namespace, key.logical_path, content_hash, chunks)

        attempt.step = Step.HISTORY_READ
        companions = [self._revisions.activation(key.namespace, new_revision, now)]
        if document is not None and document.active_revision and document.active_revision != new_revision:
            companions.append(self._supersession(key, document, new_revision, redaction.text, now))
        if change_kind is ChangeKind.RENAME and previous_path is not None:
            companions.append(self._documents.rename_source(key.namespace, previous_path, key.logical_path))

        change = DocumentChange(
            key,
            order.claim,
            new_revision,
            content_hash,
            search_entries(key, content_hash, chunks),
            companions,
        )
        generation = self._publisher.publish(change, attempt)
        if generation is None:
            return self._skipped(key, SkipReason.STALE)
        self._metrics.document(change_kind.value)
        self._metrics.chunks(len(chunks))
        return IngestOutcome(
            OutcomeKind.INGESTED,
            key.namespace.value,
            key.logical_path,
            change_kind=change_kind,
            revision_key=new_revision,
            chunk_count=len(chunks),
            redaction_count=len(redaction.findings),
            generation=generation,
        )

    def _change_kind(
        self, key: MemoryKey, document: DocumentState | None, order: EventOrder, content_hash: str
    ) -> tuple[ChangeKind, str | None]:
        if document is not None and document.claim == order.claim and document.change_kind:
            # A re-delivery: finish the change the first attempt claimed.
            return ChangeKind(document.change_kind), document.previous_logical_path
        if document is not None and document.live:
            return (ChangeKind.UPDATE if document.active_revision else ChangeKind.CREATE), None
        since = utc_timestamp(self._clock() - self._policy.rename_window)
        sources = [
            path
            for path in self._documents.recent_tombstones(key.namespace, content_hash, since)
            if path != key.logical_path
        ]
        # Several deleted paths with this text: which one moved is unknowable, so it is a plain create.
        if len(sources) == 1:
            return ChangeKind.RENAME, sources[0]
        return ChangeKind.CREATE, None

    def _chunker_record(self) -> dict[str, object]:
        return {"name": CHUNKER_NAME, "version": CHUNKER_VERSION, "config": self._policy.chunker.as_dict()}

    def _supersession(
        self, key: MemoryKey, document: DocumentState, new_revision: str, new_text: str, now: str
    ) -> "TransactWriteItemTypeDef":
        old_text = self._revisions.read_text(revision_snapshot_key(key.namespace, document.active_hash or ""))
        return self._revisions.supersession(
            key.namespace,
            document.active_revision or "",
            superseded_by=new_revision,
            summary=diffs.change_summary(old_text, new_text),
            diff=diffs.bounded_diff(old_text, new_text),
            now=now,
        )

    # --- removals ---------------------------------------------------------------------------------

    def _ingest_removal(self, event: ObjectEvent, attempt: Attempt) -> IngestOutcome:
        key = attempt.key
        order = attempt.order = event_order(
            event.sequencer, event.event_time or self._clock(), event.version_id
        )
        if self._uploads.exists(key.object_key):
            return self._skipped(key, SkipReason.KEY_STILL_PRESENT)

        attempt.step = Step.DOCUMENT_READ
        document = self._documents.get(key)
        if document is None or document.current_hash is None:
            return self._skipped(key, SkipReason.UNKNOWN_DOCUMENT)
        if not admits(document.order_key, document.claim, document.projection_status, order):
            return self._skipped(key, _refusal(document, order))
        if document.tombstoned and document.projection_status == ProjectionStatus.ACTIVE:
            return self._skipped(key, SkipReason.DUPLICATE)  # already out of search

        now = self._now()
        deletion = f"{key.logical_path}#deleted-{_sha256(order.claim.encode('utf-8'))[:16]}"
        attempt.step = Step.RENAME_LOOKUP
        copy = self._copy_of(key, document.current_hash)
        change_kind = ChangeKind.RENAME if copy is not None else ChangeKind.DELETE
        attempt.step = Step.CLAIM
        if not self._documents.claim_removal(
            key, order, event.version_id, revision_key=deletion, now=now, renamed_to=copy
        ):
            return self._skipped(key, SkipReason.STALE)
        attempt.claim = order.claim

        attempt.step = Step.REVISION_WRITE
        self._revisions.put(
            RevisionDraft(
                namespace=key.namespace,
                revision_key=deletion,
                logical_path=key.logical_path,
                content_hash=document.current_hash,
                change_kind=change_kind,
                created_at=now,
                renamed_to=copy,
            )
        )
        companions: list[TransactWriteItemTypeDef] = []
        if document.active_revision:
            companions.append(
                self._revisions.supersession(
                    key.namespace,
                    document.active_revision,
                    superseded_by=deletion,
                    summary=diffs.rename_summary(copy) if copy else diffs.deletion_summary(),
                    diff=None,
                    now=now,
                )
            )
        if copy is not None:
            companions.append(self._documents.copy_check(key.namespace, copy, document.current_hash))
        generation = self._publisher.publish(
            DocumentChange(key, order.claim, None, None, [], companions), attempt
        )
        if generation is None:
            return self._skipped(key, SkipReason.STALE)
        self._metrics.document(change_kind.value)
        return IngestOutcome(
            OutcomeKind.INGESTED,
            key.namespace.value,
            key.logical_path,
            change_kind=change_kind,
            revision_key=deletion,
            generation=generation,
        )

    def _copy_of(self, key: MemoryKey, content_hash: str) -> str | None:
        """The one path this text was copied to shortly before its deletion here, if there is one.

        S3 has no rename: tools copy the object, then delete the old key, so the create arrives first
        and was recorded as a create. Its deletion here completes the rename when exactly one other live
        path was created with this very text within the rename window and has changed in no other way
        since; several such copies leave the source unknowable, and the deletion stays a deletion.
        """
        since = utc_timestamp(self._clock() - self._policy.rename_window)
        copies = [
            path
            for path in self._documents.fresh_copies(key.namespace, content_hash, since)
            if path != key.logical_path
        ]
        return copies[0] if len(copies) == 1 else None

    # --- outcomes ---------------------------------------------------------------------------------

    def _fail(self, attempt: Attempt, error: Exception) -> IngestStepError:
        code = error_code(error)
        self._metrics.failure(attempt.step.value)
        marked = False
        try:
            attempts = self._documents.mark_error(
                attempt.key,
                error=f"{attempt.step.value}: {code}",
                now=self._now(),
                claim=attempt.claim,
                newer_than=attempt.order,
            )
            if attempts is not None and attempts >= self._policy.max_projection_attempts:
                self._documents.mark_failed(attempt.key, attempts)
            marked = attempts is not None
        except Exception:  # noqa: S110 - the original failure is what the runtime must see
            pass
        return IngestStepError(attempt.step.value, code, document_marked=marked)

    def _reject(
        self, reason: RejectReason, *, preview: str | None = None, key: MemoryKey | None = None
    ) -> IngestOutcome:
        self._metrics.rejected(reason.value)
        return IngestOutcome(
            OutcomeKind.REJECTED,
            namespace=key.namespace.value if key else None,
            logical_path=key.logical_path if key else None,
            reason=reason.value,
            key_preview=None if key else preview,
        )

    def _skipped(self, key: MemoryKey, reason: SkipReason) -> IngestOutcome:
        return IngestOutcome(OutcomeKind.SKIPPED, key.namespace.value, key.logical_path, reason=reason.value)

    def _now(self) -> str:
        return utc_timestamp(self._clock())
