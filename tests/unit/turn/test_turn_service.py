"""Gating and feedback tuning of the turn service, with stub policies, a stub redactor and fixed review
figures (moto tables from template.yaml underneath, search included)."""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from mypy_boto3_dynamodb import DynamoDBClient
from pandora_devstack.provision import ProvisionedStack
from pandora_memory.feedback.summary import FeedbackFigures, Tally
from pandora_memory.flags import AutopilotMode, Flags
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import (
    CandidateDecision,
    CandidateStatus,
    MemoryType,
    RetrievalMode,
    RetrieveDecision,
    Sensitivity,
)
from pandora_memory.search.settings import load_search_settings
from pandora_memory.secrets.findings import Redaction, SecretFinding
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.storage.records import MemoryRecord, MemoryStatus, utc_timestamp
from pandora_memory.turn.auth import NamespaceNotAllowedError
from pandora_memory.turn.factory import build_search
from pandora_memory.turn.models import CandidateOutcome, PreviewStatus, TurnMode, TurnRequest
from pandora_memory.turn.search_context import SearchContextSource
from pandora_memory.turn.service import TurnService, TurnTuning

FAKE_SECRET = "FAKE-SECRET-Q7W2E9R4T1Y8"
_FAKE = re.compile(r"FAKE-SECRET-[A-Z0-9]+")
BOTH = frozenset({Namespace.REAL_LIFE, Namespace.AU})
DEFAULT_FLAGS = Flags()


def fake_redact(text: str) -> Redaction:
    findings = tuple(SecretFinding("test_key", m.start(), m.end(), "test") for m in _FAKE.finditer(text))
    return Redaction(_FAKE.sub("[REDACTED:test_key]", text), findings)


@dataclass
class FixedFlags:
    flags: Flags
    reads: int = 0

    def current(self) -> Flags:
        self.reads += 1
        return self.flags


@dataclass
class RecordingMetrics:
    events: list[tuple[str, dict[str, object]]] = field(default_factory=list)

    def retrieve_decision(self, *, retrieve: bool, rule_id: str | None) -> None:
        self.events.append(("RetrieveDecision", {"retrieve": retrieve, "rule_id": rule_id}))

    def candidate_outcome(self, *, outcome: str, memory_type: str, namespace: str) -> None:
        self.events.append(
            ("CandidateOutcome", {"outcome": outcome, "memory_type": memory_type, "ns": namespace})
        )

    def turn_latency(self, *, mode: str, milliseconds: float) -> None:
        self.events.append(("TurnLatency", {"mode": mode, "ms": milliseconds}))

    def search_request(self, *, namespace: str, found: bool) -> None:
        self.events.append(("SearchRequests", {"ns": namespace, "found": found}))

    def search_latency(self, *, milliseconds: float) -> None:
        self.events.append(("SearchLatency", {"ms": milliseconds}))

    def outcomes(self) -> list[str]:
        return [str(data["outcome"]) for name, data in self.events if name == "CandidateOutcome"]


@dataclass
class StubPolicies:
    retrieve: bool = True
    status: CandidateStatus = CandidateStatus.CANDIDATE
    sensitivity: Sensitivity = Sensitivity.LOW
    confidence: float = 0.9
    summary: str = "Prefers conventional commits for every repository"
    requires_review: bool = False
    calls: list[str] = field(default_factory=list)

    def retrieve_policy(
        self,
        user_message: str,
        conversation_type: str | None = None,
        namespace: Namespace | str | None = None,
        current_task: str | None = None,
    ) -> RetrieveDecision:
        self.calls.append("retrieve")
        return RetrieveDecision(
            namespace=Namespace(namespace or "real_life"),
            reason="stub",
            rules=["retrieve.stub" if self.retrieve else "skip.stub"],
            policy_version="stub",
            should_retrieve=self.retrieve,
            retrieval_mode=RetrievalMode.HYBRID if self.retrieve else RetrievalMode.NONE,
        )

    def candidate_policy(
        self,
        user_message: str,
        assistant_response: str | None = None,
        namespace: Namespace | str | None = None,
        source: str = "chatgpt",
    ) -> CandidateDecision:
        self.calls.append("candidate")
        secret = self.status is CandidateStatus.BLOCKED_SECRET
        high = self.sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE)
        return CandidateDecision(
            namespace=Namespace(namespace or "real_life"),
            reason="stub candidate",
            rules=["capture.stub"],
            policy_version="stub",
            should_create_candidate=self.status is CandidateStatus.CANDIDATE,
            requires_review=secret or high or self.requires_review,
            sensitivity=self.sensitivity,
            memory_type=MemoryType.PREFERENCE,
            confidence=self.confidence,
            status=self.status,
            summary=self.summary,
            secret_kinds=["test_key"] if secret else [],
        )


class FixedFeedback:
    def __init__(self, figures: FeedbackFigures) -> None:
        self._figures = figures
        self.reads: list[Namespace] = []

    def figures(self, namespace: Namespace) -> FeedbackFigures:
        self.reads.append(namespace)
        return self._figures


def preference_record(approved: int = 0, rejected: int = 0) -> FeedbackFigures:
    tally = Tally(approved=approved, rejected=rejected)
    return FeedbackFigures(since="2026-11-01T00:00:00.000000Z", by_memory_type={"preference": tally})


@dataclass
class Harness:
    dynamodb: DynamoDBClient
    stack: ProvisionedStack
    policies: StubPolicies
    metrics: RecordingMetrics
    calls: list[str]

    def service(
        self, flags: Flags = DEFAULT_FLAGS, feedback: FixedFeedback | None = None
    ) -> tuple[TurnService, FixedFlags]:
        names = self.stack.table_names
        source = FixedFlags(flags)
        search, ledger = build_search(load_search_settings(self.stack.env), self.dynamodb, boto3.client("s3"))
        service = TurnService(
            flags=source,
            context_sources=[SearchContextSource(search, ledger)],
            candidates=CandidateRepository(self.dynamodb, names["CandidatesTable"]),
            capture=AutoCaptureWriter(
                self.dynamodb,
                names["MemoryEventsTable"],
                names["CandidatesTable"],
                projections_table=names["ProjectionsTable"],
            ),
            metrics=self.metrics,
            feedback=feedback,
            retrieve_policy=self.policies.retrieve_policy,
            candidate_policy=self.policies.candidate_policy,
            redactor=fake_redact,
            tuning=TurnTuning(context_budget_tokens=500, auto_capture_min_confidence=0.8),
        )
        return service, source

    def items(self, logical_id: str) -> list[dict[str, Any]]:
        # A separate client, so inspecting the tables is not counted as the service's calls.
        scanner = boto3.client("dynamodb")
        return list(scanner.scan(TableName=self.stack.table_names[logical_id])["Items"])


@pytest.fixture
def harness(stack: ProvisionedStack) -> Iterator[Harness]:
    client = boto3.client("dynamodb")
    calls: list[str] = []
    client.meta.events.register("before-call.dynamodb.*", lambda model, **_: calls.append(model.name))
    yield Harness(client, stack, StubPolicies(), RecordingMetrics(), calls)


def pre(
    message: str = "what did we decide about commits?", ns: Namespace = Namespace.REAL_LIFE
) -> TurnRequest:
    return TurnRequest(namespace=ns, user_message=message, mode=TurnMode.PRE_ANSWER)


def post(
    message: str = "always use conventional commits", ns: Namespace = Namespace.REAL_LIFE
) -> TurnRequest:
    return TurnRequest(
        namespace=ns, user_message=message, assistant_draft="Noted.", mode=TurnMode.POST_ANSWER
    )


def seed_memory(h: Harness, summary: str, ns: Namespace = Namespace.REAL_LIFE, **extra: object) -> None:
    record = MemoryRecord(
        namespace=ns,
        content_hash=content_hash(ns, "preference", summary),
        created_at=utc_timestamp(),
        memory_type=MemoryType.PREFERENCE,
        sensitivity=Sensitivity.LOW,
        summary=summary,
        status=MemoryStatus.APPROVED,
    ).model_copy(update=extra)
    h.dynamodb.put_item(TableName=h.stack.table_names["MemoryEventsTable"], Item=record.to_item())
    h.calls.clear()


def test_pre_answer_retrieves_the_namespace_memory_through_the_search(harness: Harness) -> None:
    seed_memory(harness, "uses conventional commits everywhere")
    seed_memory(harness, "Kael has grey eyes", Namespace.AU)
    service, _ = harness.service()
    response = service.run(pre(), BOTH)
    assert response.should_retrieve
    assert "uses conventional commits everywhere" in response.context
    assert "Kael" not in response.context
    assert response.retrieval is not None and response.retrieval.item_count == 1
    assert harness.calls == ["GetItem", "Query"]  # the search pointer, then the memories it indexes
    service.run(pre(), BOTH)
    assert harness.calls == ["GetItem", "Query", "GetItem"]  # warm: the pointer alone
    assert ("RetrieveDecision", {"retrieve": True, "rule_id": "retrieve.stub"}) in harness.metrics.events


def test_a_skip_reads_nothing_beyond_the_flags(harness: Harness) -> None:
    seed_memory(harness, "uses conventional commits everywhere")
    harness.policies.retrieve = False
    service, flags = harness.service()
    response = service.run(pre("how many ounces in a cup"), BOTH)
    assert (response.should_retrieve, response.context) == (False, "")
    assert harness.calls == []
    assert flags.reads == 1


@pytest.mark.parametrize(
    ("flags", "rule"),
    [
        (Flags(auto_retrieve=False), "gate.auto_retrieve_off"),
        (Flags(autopilot=AutopilotMode.OFF), "gate.autopilot_off"),
    ],
)
def test_closed_retrieval_gate_skips_the_policy_and_the_table(
    harness: Harness, flags: Flags, rule: str
) -> None:
    service, _ = harness.service(flags)
    response = service.run(pre(), BOTH)
    assert (response.should_retrieve, response.context) == (False, "")
    assert response.retrieval is not None and response.retrieval.rules == [rule]
    assert harness.policies.calls == [] and harness.calls == []
    assert response.warnings


def test_queue_mode_queues_a_low_risk_candidate(harness: Harness) -> None:
    service, _ = harness.service()
    response = service.run(post(), BOTH)
    preview = response.candidate_preview
    assert preview is not None and response.should_create_candidate
    assert (preview.status, preview.outcome, preview.stored) == (
        PreviewStatus.PENDING_REVIEW,
        CandidateOutcome.QUEUED,
        True,
    )
    [item] = harness.items("CandidatesTable")
    assert item["candidate_id"] == {"S": preview.id}
    assert item["namespace_status"] == {"S": "real_life#pending_review"}
    assert harness.items("MemoryEventsTable") == []
    assert harness.calls == ["PutItem"]


@pytest.mark.parametrize("sensitivity", [Sensitivity.HIGH, Sensitivity.PRIVATE])
def test_sensitive_candidates_require_review_even_when_capture_is_on(
    harness: Harness, sensitivity: Sensitivity
) -> None:
    harness.policies.sensitivity = sensitivity
    flags = Flags(
        autopilot=AutopilotMode.CAPTURE_LOW_RISK,
        auto_capture_low_risk=True,
        sensitive_requires_approval=False,
    )
    service, _ = harness.service(flags)
    response = service.run(post(), BOTH)
    preview = response.candidate_preview
    assert preview is not None
    assert (preview.outcome, preview.requires_review) == (CandidateOutcome.REVIEW_REQUIRED, True)
    assert harness.items("MemoryEventsTable") == []
    assert any("is not honoured" in warning for warning in response.warnings)


def test_a_repeat_is_a_duplicate_with_the_same_id_and_no_new_item(harness: Harness) -> None:
    service, _ = harness.service()
    first = service.run(post(), BOTH).candidate_preview
    second = service.run(post(), BOTH).candidate_preview
    assert first is not None and second is not None
    assert (second.status, second.outcome, second.stored) == (
        PreviewStatus.DUPLICATE,
        CandidateOutcome.DUPLICATE,
        False,
    )
    assert (second.id, second.existing_status) == (first.id, "pending_review")
    assert len(harness.items("CandidatesTable")) == 1


def test_capture_low_risk_writes_memory_and_candidate_and_then_deduplicates(harness: Harness) -> None:
    service, _ = harness.service(Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True))
    first = service.run(post(), BOTH).candidate_preview
    assert first is not None
    assert (first.status, first.outcome, first.stored) == (
        PreviewStatus.AUTO_CAPTURED,
        CandidateOutcome.AUTO_CAPTURED,
        True,
    )
    [memory] = harness.items("MemoryEventsTable")
    [candidate] = harness.items("CandidatesTable")
    assert memory["status"] == {"S": "auto_captured"} and candidate["status"] == {"S": "auto_captured"}
    assert memory["candidate_id"] == {"S": first.id}
    again = service.run(post(), BOTH).candidate_preview
    assert again is not None and (again.outcome, again.id) == (CandidateOutcome.DUPLICATE, first.id)
    assert len(harness.items("MemoryEventsTable")) == 1
    assert harness.calls == ["TransactWriteItems", "TransactWriteItems"]


@pytest.mark.parametrize(
    "flags",
    [
        Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK),
        Flags(autopilot=AutopilotMode.QUEUE, auto_capture_low_risk=True),
    ],
)
def test_capture_needs_both_the_mode_and_the_flag(harness: Harness, flags: Flags) -> None:
    service, _ = harness.service(flags)
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None and preview.outcome is CandidateOutcome.QUEUED
    assert harness.items("MemoryEventsTable") == []


def test_a_low_confidence_candidate_is_queued_not_captured(harness: Harness) -> None:
    harness.policies.confidence = 0.6
    service, _ = harness.service(Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True))
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None and preview.outcome is CandidateOutcome.QUEUED
    assert harness.items("MemoryEventsTable") == []


@pytest.mark.parametrize(
    ("flags", "warning"),
    [
        (Flags(autopilot=AutopilotMode.SUGGEST), "PANDORA_MEMORY_AUTOPILOT=suggest"),
        (Flags(auto_candidate_queue=False), "PANDORA_AUTO_CANDIDATE_QUEUE=false"),
    ],
)
def test_preview_only_modes_write_nothing(harness: Harness, flags: Flags, warning: str) -> None:
    service, _ = harness.service(flags)
    response = service.run(post(), BOTH)
    preview = response.candidate_preview
    assert preview is not None
    assert (preview.status, preview.outcome, preview.stored) == (
        PreviewStatus.PREVIEW,
        CandidateOutcome.SUGGEST_ONLY,
        False,
    )
    assert harness.calls == []
    assert any(warning in w for w in response.warnings)


def test_off_evaluates_nothing_and_writes_nothing(harness: Harness) -> None:
    service, _ = harness.service(Flags(autopilot=AutopilotMode.OFF))
    response = service.run(post(), BOTH)
    assert response.candidate_preview is None and not response.should_create_candidate
    assert harness.policies.calls == [] and harness.calls == []
    assert harness.metrics.outcomes() == ["disabled"]


def test_not_a_candidate_is_explained_and_not_written(harness: Harness) -> None:
    harness.policies.status = CandidateStatus.NOT_CANDIDATE
    service, _ = harness.service()
    response = service.run(post("thanks!"), BOTH)
    preview = response.candidate_preview
    assert preview is not None and preview.status is PreviewStatus.NOT_CANDIDATE and preview.id is None
    assert not response.should_create_candidate
    assert harness.calls == []
    assert harness.metrics.outcomes() == ["not_candidate"]


@pytest.mark.parametrize("status", [CandidateStatus.BLOCKED_SECRET, CandidateStatus.CANDIDATE])
def test_a_secret_is_stored_only_as_a_redacted_blocked_record(
    harness: Harness, status: CandidateStatus
) -> None:
    # The second case: the policy missed it, but the summary still held it; redaction catches it.
    harness.policies.status = status
    harness.policies.summary = f"deploy key is {FAKE_SECRET}"
    service, _ = harness.service(Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True))
    response = service.run(post(f"my deploy key is {FAKE_SECRET}"), BOTH)
    preview = response.candidate_preview
    assert preview is not None
    assert (preview.status, preview.outcome, preview.stored) == (
        PreviewStatus.BLOCKED_SECRET,
        CandidateOutcome.BLOCKED_SECRET,
        True,
    )
    [item] = harness.items("CandidatesTable")
    assert item["namespace_status"] == {"S": "real_life#blocked_secret"}
    assert FAKE_SECRET not in str(item) and "[REDACTED:test_key]" in str(item)
    assert harness.items("MemoryEventsTable") == []
    assert FAKE_SECRET not in response.model_dump_json()
    assert any("secret withheld (test_key)" in warning for warning in response.warnings)


def test_a_token_scoped_to_au_cannot_touch_real_life(harness: Harness) -> None:
    service, flags = harness.service()
    for request in (pre(), post()):
        with pytest.raises(NamespaceNotAllowedError):
            service.run(request, frozenset({Namespace.AU}))
    assert flags.reads == 0 and harness.calls == [] and harness.policies.calls == []


def test_every_turn_reports_its_latency_by_mode(harness: Harness) -> None:
    service, _ = harness.service()
    service.run(pre(), BOTH)
    service.run(post(), BOTH)
    modes = [data["mode"] for name, data in harness.metrics.events if name == "TurnLatency"]
    assert modes == ["pre_answer", "post_answer"]


# -- feedback tuning ----------------------------------------------------------------------------------


def test_a_type_reviewers_keep_rejecting_is_demoted_to_review(harness: Harness) -> None:
    feedback = FixedFeedback(preference_record(rejected=3))
    service, _ = harness.service(feedback=feedback)
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None
    assert (preview.outcome, preview.requires_review, preview.stored) == (
        CandidateOutcome.REVIEW_REQUIRED,
        True,
        True,
    )
    assert preview.confidence == pytest.approx(0.45)  # halved
    assert "feedback demoted it (memory_type:preference approved 0, rejected 3" in preview.reason
    [item] = harness.items("CandidatesTable")
    assert item["requires_review"] == {"BOOL": True}
    assert feedback.reads == [Namespace.REAL_LIFE]


def test_an_overwhelmingly_rejected_type_is_only_previewed(harness: Harness) -> None:
    service, _ = harness.service(feedback=FixedFeedback(preference_record(rejected=8)))
    response = service.run(post(), BOTH)
    preview = response.candidate_preview
    assert preview is not None
    assert (preview.status, preview.outcome, preview.stored) == (
        PreviewStatus.PREVIEW,
        CandidateOutcome.SUGGEST_ONLY,
        False,
    )
    assert harness.items("CandidatesTable") == [] and harness.calls == []
    assert harness.metrics.outcomes() == ["suggest_only"]


def test_a_demoted_type_is_never_auto_captured(harness: Harness) -> None:
    capture = Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True)
    service, _ = harness.service(capture, FixedFeedback(preference_record(approved=1, rejected=4)))
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None and preview.outcome is CandidateOutcome.REVIEW_REQUIRED
    assert harness.items("MemoryEventsTable") == []


def test_a_steady_approval_record_waives_review_so_capture_may_happen(harness: Harness) -> None:
    harness.policies.requires_review = True  # low risk, but the policy asked for a look
    capture = Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True)
    without, _ = harness.service(capture)
    first = without.run(post("always rebase before merging"), BOTH).candidate_preview
    assert first is not None and first.outcome is CandidateOutcome.REVIEW_REQUIRED

    service, _ = harness.service(capture, FixedFeedback(preference_record(approved=10)))
    harness.policies.summary = "Prefers rebasing before every merge"
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None
    assert (preview.outcome, preview.requires_review) == (CandidateOutcome.AUTO_CAPTURED, False)
    assert "feedback waived review" in preview.reason
    assert len(harness.items("MemoryEventsTable")) == 1
    [projection] = harness.items("ProjectionsTable")
    assert projection["memory_generation"] == {"N": "1"}  # search reloads its memories at once


def test_promotion_never_opens_the_safety_gates(harness: Harness) -> None:
    harness.policies.sensitivity = Sensitivity.HIGH
    capture = Flags(autopilot=AutopilotMode.CAPTURE_LOW_RISK, auto_capture_low_risk=True)
    service, _ = harness.service(capture, FixedFeedback(preference_record(approved=50)))
    preview = service.run(post(), BOTH).candidate_preview
    assert preview is not None and preview.outcome is CandidateOutcome.REVIEW_REQUIRED
    assert harness.items("MemoryEventsTable") == []


@pytest.mark.parametrize(
    ("flags", "status"),
    [
        (Flags(autopilot=AutopilotMode.SUGGEST), CandidateStatus.CANDIDATE),
        (Flags(auto_candidate_queue=False), CandidateStatus.CANDIDATE),
        (DEFAULT_FLAGS, CandidateStatus.NOT_CANDIDATE),
    ],
)
def test_figures_are_read_only_when_a_candidate_may_be_written(
    harness: Harness, flags: Flags, status: CandidateStatus
) -> None:
    harness.policies.status = status
    feedback = FixedFeedback(preference_record(rejected=8))
    service, _ = harness.service(flags, feedback)
    service.run(post(), BOTH)
    assert feedback.reads == []


def test_the_stored_candidate_keeps_a_bounded_message_preview(harness: Harness) -> None:
    service, _ = harness.service()
    message = "always use conventional commits,\n\nin every repository " + "and more words " * 40
    service.run(post(message), BOTH)
    [item] = harness.items("CandidatesTable")
    stored = item["user_message_preview"]["S"]
    assert stored.startswith("always use conventional commits, in every repository and more")
    assert len(stored) <= 280 and stored.endswith("…")


def test_a_message_holding_a_secret_leaves_no_preview(harness: Harness) -> None:
    service, _ = harness.service()
    service.run(post(f"always use conventional commits, token {FAKE_SECRET}"), BOTH)
    [item] = harness.items("CandidatesTable")
    assert item["user_message_preview"] == {"S": ""} and FAKE_SECRET not in str(item)
