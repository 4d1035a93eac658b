"""Runs every turn of every conversation through the live turn's candidate path and queues the result.

The decision, its redaction and the stored record come from the same functions the adaptive turn
uses, so a backfilled candidate is the item a live turn would have stored, with the same content hash
(a turn seen live and again in the export is one candidate). Backfill only ever queues for review:
it has no path to auto-capture.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from pandora_memory.backfill.conversations import Conversation
from pandora_memory.backfill.sinks import CandidateSink
from pandora_memory.backfill.tally import Outcome, Tally
from pandora_memory.backfill.thread import Turn
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.models import CandidateStatus
from pandora_memory.secrets import redact
from pandora_memory.storage.records import CandidateRecord, InboxStatus
from pandora_memory.turn.candidate_records import SOURCE, Redactor, candidate_record, sanitise
from pandora_memory.turn.service import CandidatePolicy

QUEUE_STATUSES = frozenset({InboxStatus.PENDING_REVIEW, InboxStatus.BLOCKED_SECRET})


class Progress(Protocol):
    """Which conversations are finished, and where to record one more (the checkpoint)."""

    def __contains__(self, conversation_id: object, /) -> bool: ...

    def mark_done(self, conversation_id: str) -> None: ...


class NoProgress:
    def __contains__(self, conversation_id: object) -> bool:
        return False

    def mark_done(self, conversation_id: str) -> None:
        return None


@dataclass(frozen=True)
class Queued:
    """A candidate this run queued, or would queue in a dry run (already redacted)."""

    outcome: Outcome
    record: CandidateRecord
    conversation: Conversation


@dataclass(frozen=True)
class Window:
    """`since` is epoch seconds; `limit` caps the conversations evaluated in this run."""

    since: float | None = None
    limit: int | None = None


class BackfillRunner:
    def __init__(
        self,
        namespace: Namespace,
        sink: CandidateSink,
        progress: Progress | None = None,
        *,
        window: Window = Window(),
        policy: CandidatePolicy = should_auto_create_memory_candidate,
        redactor: Redactor = redact,
        on_queued: Callable[[Queued], None] | None = None,
        on_conversation: Callable[[Tally], None] | None = None,
    ) -> None:
        self._namespace = namespace
        self._sink = sink
        self._progress: Progress = progress if progress is not None else NoProgress()
        self._window = window
        self._policy = policy
        self._redact = redactor
        self._on_queued = on_queued
        self._on_conversation = on_conversation
        self.tally = Tally()

    def run(self, conversations: Iterable[Conversation]) -> Tally:
        """Counts land in `self.tally` as they happen, so an interrupted run still shows its figures."""
        tally = self.tally
        for conversation in conversations:
            if conversation.id in self._progress:
                tally.conversations_read += 1
                tally.conversations_already_done += 1
            elif self._before_window(conversation.last_active):
                tally.conversations_read += 1
                tally.conversations_before_since += 1
            elif self._window.limit is not None and tally.conversations_processed >= self._window.limit:
                tally.stopped_at_limit = True
                break
            else:
                tally.conversations_read += 1
                self._conversation(conversation)
            if self._on_conversation:
                self._on_conversation(tally)
        return tally

    def _conversation(self, conversation: Conversation) -> None:
        complete = True
        for turn in conversation.turns:
            if self._before_window(turn.created):
                self.tally.turns_before_since += 1
                complete = False
                continue
            self._turn(turn, conversation)
        self.tally.conversations_processed += 1
        # Only a conversation read in full is finished: one cut by --since may be run again without it.
        if complete:
            self._progress.mark_done(conversation.id)

    def _turn(self, turn: Turn, conversation: Conversation) -> None:
        self.tally.turns_evaluated += 1
        decision = self._policy(
            turn.user_message,
            assistant_response=turn.assistant_response,
            namespace=self._namespace,
            source=SOURCE,
        )
        clean = sanitise(decision, self._redact, turn.user_message)
        if decision.status is CandidateStatus.NOT_CANDIDATE and not clean.secret:
            self.tally.count(Outcome.NOT_CANDIDATE, decision.memory_type, decision.sensitivity)
            return
        record = candidate_record(self._namespace, decision, clean)
        if record.status not in QUEUE_STATUSES:
            raise RuntimeError(f"backfill only queues for review, not as {record.status.value}")
        result = self._sink.add(record)
        if result.existing is not None:
            outcome = Outcome.DUPLICATE
        elif record.status is InboxStatus.BLOCKED_SECRET:
            outcome = Outcome.BLOCKED_SECRET
        else:
            outcome = Outcome.PENDING_REVIEW
        self.tally.count(outcome, record.memory_type, record.sensitivity)
        if self._on_queued and outcome is not Outcome.DUPLICATE:
            self._on_queued(Queued(outcome, record, conversation))

    def _before_window(self, moment: float | None) -> bool:
        since = self._window.since
        return since is not None and moment is not None and moment < since
