"""The runner against moto tables from template.yaml: what it queues, how it dedupes and resumes, and
that a backfilled candidate is the very item a live turn stores."""

import json
from collections import Counter
from pathlib import Path
from typing import Any

import boto3
import pytest
from pandora_devstack.provision import ProvisionedStack
from pandora_memory.backfill.checkpoint import Checkpoint, CheckpointKey
from pandora_memory.backfill.conversations import Conversation, conversation_from
from pandora_memory.backfill.runner import BackfillRunner, Queued, Window
from pandora_memory.backfill.sinks import PreviewSink, RetryingSink
from pandora_memory.backfill.tally import Outcome, Tally
from pandora_memory.flags import Flags
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.models import CandidateDecision
from pandora_memory.storage.candidates import CandidateRepository, WriteResult
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.storage.errors import StorageUnavailableError
from pandora_memory.storage.records import CandidateRecord, from_item
from pandora_memory.turn.models import TurnMode, TurnRequest
from pandora_memory.turn.service import TurnService
from unit.backfill.backfill_samples import (
    DAY,
    DECISION,
    EXPECTED_OUTCOMES,
    EXPECTED_QUEUED,
    FAKE_TOKEN,
    T0,
    sample_export,
)

NS = Namespace.REAL_LIFE


def conversations(raw: list[dict[str, Any]] | None = None) -> list[Conversation]:
    return [conversation_from(c, i, "conversations.json") for i, c in enumerate(raw or sample_export(), 1)]


def queued_counts(tally: Tally) -> dict[tuple[str, str], int]:
    return {(t.value, s.value): n for (t, s), n in tally.queued.items()}


def outcome_counts(tally: Tally) -> dict[str, int]:
    return {outcome.value: tally.outcomes[outcome] for outcome in Outcome}


def candidates_table(stack: ProvisionedStack) -> str:
    return stack.table_names["CandidatesTable"]


def scan(stack: ProvisionedStack, logical_id: str) -> list[dict[str, Any]]:
    items = boto3.client("dynamodb").scan(TableName=stack.table_names[logical_id])["Items"]
    return [from_item(item) for item in items]


def repository(stack: ProvisionedStack) -> CandidateRepository:
    return CandidateRepository(boto3.client("dynamodb"), candidates_table(stack))


def test_a_dry_run_counts_by_type_and_sensitivity() -> None:
    shown: list[Queued] = []
    tally = BackfillRunner(NS, PreviewSink(), on_queued=shown.append).run(conversations())
    assert queued_counts(tally) == EXPECTED_QUEUED
    assert outcome_counts(tally) == EXPECTED_OUTCOMES
    assert (tally.conversations_read, tally.conversations_processed, tally.turns_evaluated) == (6, 6, 9)
    assert len(shown) == 5
    assert all("MongoDB" not in q.record.summary for q in shown)  # the discarded edit


def test_apply_queues_pending_review_and_blocked_items_only(provisioned_stack: ProvisionedStack) -> None:
    tally = BackfillRunner(NS, repository(provisioned_stack)).run(conversations())
    items = scan(provisioned_stack, "CandidatesTable")
    assert len(items) == 5
    assert Counter(item["status"] for item in items) == {"pending_review": 4, "blocked_secret": 1}
    assert {item["namespace"] for item in items} == {"real_life"}
    assert all(item["candidate_id"] == f"real_life.{item['content_hash']}" for item in items)
    assert scan(provisioned_stack, "MemoryEventsTable") == []  # never captured
    assert outcome_counts(tally) == EXPECTED_OUTCOMES


def test_a_second_apply_is_all_duplicates(provisioned_stack: ProvisionedStack) -> None:
    BackfillRunner(NS, repository(provisioned_stack)).run(conversations())
    before = scan(provisioned_stack, "CandidatesTable")
    again = BackfillRunner(NS, repository(provisioned_stack)).run(conversations())
    assert again.outcomes[Outcome.DUPLICATE] == 6
    assert again.queued_total == 0
    assert scan(provisioned_stack, "CandidatesTable") == before


def test_the_secret_is_in_no_item(provisioned_stack: ProvisionedStack) -> None:
    BackfillRunner(NS, repository(provisioned_stack)).run(conversations())
    items = scan(provisioned_stack, "CandidatesTable")
    assert FAKE_TOKEN not in json.dumps(items, default=str)
    [blocked] = [item for item in items if item["status"] == "blocked_secret"]
    assert blocked["requires_review"] is True
    assert blocked["secret_kinds"] == ["github_pat"]
    assert "[REDACTED:github_pat]" in blocked["summary"]


def test_a_backfilled_candidate_is_the_item_a_live_turn_stores(provisioned_stack: ProvisionedStack) -> None:
    client = boto3.client("dynamodb")
    table = candidates_table(provisioned_stack)
    live = TurnService(
        flags=_FixedFlags(),
        context_sources=[],
        candidates=CandidateRepository(client, table),
        capture=AutoCaptureWriter(client, provisioned_stack.table_names["MemoryEventsTable"], table),
        metrics=_NoMetrics(),
    )
    request = TurnRequest(
        namespace=NS, user_message=DECISION, assistant_draft="Good choice.", mode=TurnMode.POST_ANSWER
    )
    live.run(request, frozenset({NS}))
    [live_item] = scan(provisioned_stack, "CandidatesTable")

    ledger = [c for c in conversations() if c.title == "ledger"]
    tally = BackfillRunner(NS, repository(provisioned_stack)).run(ledger)
    assert tally.outcomes[Outcome.DUPLICATE] == 1  # the same turn is one candidate

    client.delete_item(
        TableName=table, Key={"namespace": {"S": NS.value}, "content_hash": {"S": live_item["content_hash"]}}
    )
    BackfillRunner(NS, repository(provisioned_stack)).run(ledger)
    backfilled = next(
        i for i in scan(provisioned_stack, "CandidatesTable") if i["summary"] == live_item["summary"]
    )
    assert {**backfilled, "created_at": ""} == {**live_item, "created_at": ""}


def test_an_interrupted_run_resumes_and_evaluates_every_turn_once(
    provisioned_stack: ProvisionedStack, tmp_path: Path
) -> None:
    raw = sample_export()
    key = CheckpointKey("cd" * 32, NS, candidates_table(provisioned_stack))
    calls: Counter[str] = Counter()
    first_of = {c.turns[0].user_message: c.id for c in conversations(raw) if c.turns}
    crash_at = conversations(raw)[3].id

    def crashing_policy(user_message: str, *args: Any, **kwargs: Any) -> CandidateDecision:
        if first_of.get(user_message) == crash_at and crash_at not in finished:
            raise RuntimeError("simulated crash")
        calls[user_message] += 1
        return should_auto_create_memory_candidate(user_message, *args, **kwargs)

    finished: set[str] = set()
    with Checkpoint.load(tmp_path, key, writable=True) as checkpoint, pytest.raises(RuntimeError):
        BackfillRunner(NS, repository(provisioned_stack), checkpoint, policy=crashing_policy).run(
            conversations(raw)
        )
    assert len(Checkpoint.load(tmp_path, key, writable=False)) == 3
    finished.add(crash_at)  # the cause is gone: the rerun gets through

    with Checkpoint.load(tmp_path, key, writable=True) as checkpoint:
        tally = BackfillRunner(NS, repository(provisioned_stack), checkpoint, policy=crashing_policy).run(
            conversations(raw)
        )
    assert tally.conversations_already_done == 3
    assert tally.conversations_processed == 3
    assert tally.outcomes[Outcome.DUPLICATE] == 1  # the repeated preference, not a re-run
    turns = [t.user_message for c in conversations(raw) for t in c.turns]
    assert all(calls[message] == turns.count(message) for message in turns)
    assert len(Checkpoint.load(tmp_path, key, writable=False)) == 6
    assert len(scan(provisioned_stack, "CandidatesTable")) == 5


def test_since_skips_older_conversations_and_leaves_them_for_later(tmp_path: Path) -> None:
    key = CheckpointKey("ef" * 32, NS, "table")
    with Checkpoint.load(tmp_path, key, writable=True) as checkpoint:
        tally = BackfillRunner(NS, PreviewSink(), checkpoint, window=Window(since=T0 + 3 * DAY)).run(
            conversations()
        )
    assert tally.conversations_before_since == 3
    assert tally.conversations_processed == 3
    assert queued_counts(tally) == {("merged_pr", "low"): 1, ("preference", "low"): 1}
    assert len(Checkpoint.load(tmp_path, key, writable=False)) == 3


def test_since_cuts_turns_inside_a_conversation_and_does_not_mark_it_done(tmp_path: Path) -> None:
    [editor] = [c for c in conversations() if c.title == "editor"]
    second_turn = editor.turns[1].created
    assert second_turn is not None
    key = CheckpointKey("01" * 32, NS, "table")
    with Checkpoint.load(tmp_path, key, writable=True) as checkpoint:
        tally = BackfillRunner(NS, PreviewSink(), checkpoint, window=Window(since=second_turn)).run([editor])
        assert editor.id not in checkpoint
    assert (tally.turns_before_since, tally.turns_evaluated) == (1, 1)


def test_limit_stops_after_n_conversations() -> None:
    tally = BackfillRunner(NS, PreviewSink(), window=Window(limit=2)).run(conversations())
    assert tally.conversations_processed == 2
    assert tally.stopped_at_limit is True
    exact = BackfillRunner(NS, PreviewSink(), window=Window(limit=6)).run(conversations())
    assert exact.stopped_at_limit is False


def test_retries_ride_out_throttling_and_give_up_after_the_last_attempt() -> None:
    record = _any_record()
    sleeps: list[float] = []

    class Flaky:
        def __init__(self, failures: int) -> None:
            self.failures = failures

        def add(self, record: CandidateRecord) -> WriteResult:
            if self.failures:
                self.failures -= 1
                raise StorageUnavailableError("candidate write", "ThrottlingException")
            return WriteResult()

    assert RetryingSink(Flaky(2), attempts=3, sleep=sleeps.append).add(record).created
    assert sleeps == [0.5, 1.0]
    with pytest.raises(StorageUnavailableError):
        RetryingSink(Flaky(3), attempts=3, sleep=sleeps.append).add(record)


def _any_record() -> CandidateRecord:
    shown: list[Queued] = []
    BackfillRunner(NS, PreviewSink(), on_queued=shown.append).run(conversations()[:1])
    return shown[0].record


class _FixedFlags:
    def current(self) -> Flags:
        return Flags()


class _NoMetrics:
    def retrieve_decision(self, *, retrieve: bool, rule_id: str | None) -> None:
        return None

    def candidate_outcome(self, *, outcome: str, memory_type: str, namespace: str) -> None:
        return None

    def turn_latency(self, *, mode: str, milliseconds: float) -> None:
        return None

    def search_request(self, *, namespace: str, found: bool) -> None:
        return None

    def search_latency(self, *, milliseconds: float) -> None:
        return None
