"""The figures provider (cached per namespace) and the loop closing: review outcomes change the next
capture decision."""

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import boto3
from pandora_memory.feedback.events import FeedbackAction, FeedbackEvent
from pandora_memory.feedback.provider import FeedbackFiguresProvider, build_feedback_provider
from pandora_memory.feedback.tuning import tune_decision
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity
from pandora_memory.review.factory import build_review_service
from pandora_memory.review.settings import load_review_settings
from pandora_memory.storage.errors import StorageUnavailableError

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

from handler.review_harness import seed_candidate


class FakeReader:
    def __init__(self, events: list[FeedbackEvent]) -> None:
        self.events_by_call: list[tuple[Namespace, str | None]] = []
        self._events = events
        self.failing = False

    def events(self, namespace: Namespace, since: str | None = None) -> list[FeedbackEvent]:
        self.events_by_call.append((namespace, since))
        if self.failing:
            raise StorageUnavailableError("feedback query", "ThrottlingException")
        return [event for event in self._events if event.namespace is namespace]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rejection(number: int) -> FeedbackEvent:
    return FeedbackEvent(
        namespace=Namespace.REAL_LIFE,
        event_id=f"{number:032x}",
        created_at=f"2026-11-20T10:00:{number:02d}.000000Z",
        action=FeedbackAction.REJECTED,
        memory_type=MemoryType.BLOCKER,
        sensitivity=Sensitivity.LOW,
        rules=["candidate.blocker.cue"],
    )


def blocker_decision() -> CandidateDecision:
    return CandidateDecision(
        namespace=Namespace.REAL_LIFE,
        reason="blocker cue (stuck on)",
        rules=["candidate.blocker.cue"],
        policy_version="test",
        should_create_candidate=True,
        requires_review=False,
        sensitivity=Sensitivity.LOW,
        memory_type=MemoryType.BLOCKER,
        confidence=0.85,
        status=CandidateStatus.CANDIDATE,
        summary="Stuck on the IAM policy for the review route",
    )


FIXED_NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_figures_are_read_once_per_window_per_namespace() -> None:
    reader, clock = FakeReader([rejection(1)]), Clock()
    provider = FeedbackFiguresProvider(
        reader, window_days=30, max_age_seconds=60, clock=clock, now=lambda: FIXED_NOW
    )
    first = provider.figures(Namespace.REAL_LIFE)
    clock.now += 59
    assert provider.figures(Namespace.REAL_LIFE) is first
    provider.figures(Namespace.AU)
    assert reader.events_by_call == [
        (Namespace.REAL_LIFE, "2026-10-30T12:00:00.000000Z"),
        (Namespace.AU, "2026-10-30T12:00:00.000000Z"),
    ]
    clock.now += 2
    provider.figures(Namespace.REAL_LIFE)
    assert len(reader.events_by_call) == 3
    assert first.memory_type("blocker").rejected == 1


def test_unreadable_figures_promote_nothing_and_are_retried_after_the_window() -> None:
    reader, clock = FakeReader([rejection(1)]), Clock()
    reader.failing = True
    provider = FeedbackFiguresProvider(reader, max_age_seconds=60, clock=clock, now=lambda: FIXED_NOW)
    figures = provider.figures(Namespace.REAL_LIFE)
    assert figures.event_count == 0
    provider.figures(Namespace.REAL_LIFE)
    assert len(reader.events_by_call) == 1
    reader.failing = False
    clock.now += 61
    assert provider.figures(Namespace.REAL_LIFE).event_count == 1


def test_a_streak_of_rejections_changes_the_next_decision(provisioned_stack: "ProvisionedStack") -> None:
    client: Any = boto3.client("dynamodb")
    settings = load_review_settings(provisioned_stack.env)
    service = build_review_service(settings, client)
    provider = build_feedback_provider(client, settings.feedback_table)

    before = tune_decision(blocker_decision(), provider.figures(Namespace.REAL_LIFE))
    assert before.auto_capture_eligible is True and not before.demoted_by

    for number in range(4):
        record = seed_candidate(
            client,
            settings.candidates_table,
            f"Stuck on thing number {number}",
            memory_type="blocker",
            rules=("candidate.blocker.cue",),
        )
        service.reject(record.id, "not a blocker, just a question", "arn:aws:iam::123456789012:user/tester")

    provider.clear()  # the next container minute
    after = tune_decision(blocker_decision(), provider.figures(Namespace.REAL_LIFE))
    assert after.demoted_by == ["memory_type:blocker", "rule:candidate.blocker.cue"]
    assert after.auto_capture_eligible is False
    assert after.decision.requires_review is True
    assert after.decision.confidence < blocker_decision().confidence
    # Rejections in one namespace say nothing about the other.
    au = blocker_decision().model_copy(update={"namespace": Namespace.AU})
    assert not tune_decision(au, provider.figures(Namespace.AU)).demoted_by
