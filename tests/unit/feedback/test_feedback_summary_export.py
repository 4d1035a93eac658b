"""Counting review outcomes per type and rule, and exporting them as labeled examples."""

import json
from pathlib import Path
from typing import Any

from pandora_memory.feedback.events import Correction, FeedbackAction, FeedbackEvent
from pandora_memory.feedback.export import (
    LABEL_FIELDS,
    TextSource,
    example_text,
    labeled_example,
    labeled_lines,
)
from pandora_memory.feedback.summary import merge, summarise
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity

LABELED_SET = Path(__file__).resolve().parents[2] / "data" / "labeled_capture.jsonl"


def event(action: FeedbackAction, number: int = 0, **changes: Any) -> FeedbackEvent:
    values: dict[str, Any] = {
        "namespace": Namespace.REAL_LIFE,
        "event_id": f"{number:032x}",
        "created_at": f"2026-11-{10 + number % 10:02d}T10:00:00.000000Z",
        "action": action,
        "memory_type": MemoryType.PREFERENCE,
        "sensitivity": Sensitivity.LOW,
        "rules": ["rule.a", "rule.b"],
        "summary": "Prefers tabs",
        "user_message_preview": "i prefer tabs in go files",
    }
    values.update(changes)
    return FeedbackEvent(**values)


def test_summary_counts_per_type_and_per_rule() -> None:
    events = [
        event(FeedbackAction.APPROVED, 1),
        event(FeedbackAction.APPROVED, 2, corrections=[Correction.SENSITIVITY]),
        event(FeedbackAction.REJECTED, 3, rules=["rule.a", "rule.a"]),
        event(FeedbackAction.MANUAL_ADD, 4, rules=[], memory_type=MemoryType.BLOCKER),
    ]
    figures = summarise(events)
    assert figures.event_count == 4
    preference = figures.memory_type("preference")
    assert (preference.approved, preference.rejected, preference.corrected) == (2, 1, 1)
    assert preference.rejection_rate == 1 / 3
    assert preference.correction_rate == 0.5
    assert figures.rule("rule.a").rejected == 1  # listed twice, voted once
    assert figures.rule("rule.b").rejected == 0
    assert figures.memory_type("blocker").added_by_hand == 1
    assert figures.rule("unknown").decided == 0


def test_summary_leaves_out_events_before_the_window() -> None:
    figures = summarise(
        [event(FeedbackAction.REJECTED, 1), event(FeedbackAction.REJECTED, 9)],
        since="2026-11-15T00:00:00.000000Z",
    )
    assert figures.event_count == 1


def test_merge_adds_namespaces_together() -> None:
    real = summarise([event(FeedbackAction.APPROVED, 1)])
    au = summarise([event(FeedbackAction.REJECTED, 2, namespace=Namespace.AU)])
    merged = merge([real, au])
    assert merged.event_count == 2
    assert merged.memory_type("preference").decided == 2


def test_events_round_trip_through_dynamodb_items() -> None:
    original = event(
        FeedbackAction.APPROVED,
        5,
        corrections=[Correction.NAMESPACE],
        corrected_namespace=Namespace.AU,
        confidence=0.82,
    )
    item = original.to_item()
    assert item["event_key"] == {"S": f"{original.created_at}#{original.event_id}"}
    assert FeedbackEvent.from_item(item) == original


def test_export_follows_the_labeled_set_format() -> None:
    with LABELED_SET.open(encoding="utf-8") as stream:
        reference = json.loads(stream.readline())
    lines = list(
        labeled_lines(
            [
                event(FeedbackAction.REJECTED, 1),
                event(
                    FeedbackAction.APPROVED,
                    2,
                    final_memory_type=MemoryType.PROJECT_DECISION,
                    final_sensitivity=Sensitivity.PRIVATE,
                    corrected_namespace=Namespace.AU,
                ),
                event(FeedbackAction.MANUAL_ADD, 3, user_message_preview="", summary="Ships on Fridays"),
            ]
        )
    )
    examples = [json.loads(line) for line in lines]
    for example in examples:
        assert tuple(example) == LABEL_FIELDS
        assert set(example) == set(reference)
    negative, corrected, added = examples
    assert negative["should_create_candidate"] is False
    assert negative["memory_type"] == "none"
    assert corrected == {
        "id": f"feedback-{2:032x}",
        "user_message": "i prefer tabs in go files",
        "assistant_response": None,
        "namespace": "au",
        "should_create_candidate": True,
        "memory_type": "project_decision",
        "sensitivity": "private",
        "requires_review": True,
        "contains_secret": False,
    }
    assert added["user_message"] == "Ships on Fridays"


def test_an_event_without_text_is_not_exported() -> None:
    assert labeled_example(event(FeedbackAction.REJECTED, 1, summary="", user_message_preview="")) is None


def test_a_candidate_blocked_for_a_secret_is_labelled_as_holding_one() -> None:
    blocked = {
        "candidate_status": "blocked_secret",
        "user_message_preview": "",  # the turn's message is never kept for a blocked candidate
        "summary": "Blocked (github_pat): Decision: rotate the key [REDACTED:github_pat]",
    }
    approved = labeled_example(event(FeedbackAction.APPROVED, 1, corrections=[Correction.SUMMARY], **blocked))
    rejected = labeled_example(event(FeedbackAction.REJECTED, 2, **blocked))

    assert approved is not None and rejected is not None
    for example in (approved, rejected):
        assert example["contains_secret"] is True
        assert example["user_message"] == "Decision: rotate the key [REDACTED:github_pat]"
        assert example["id"].endswith("-summary")
    assert (approved["should_create_candidate"], rejected["should_create_candidate"]) == (True, False)


def test_a_pending_candidates_preview_is_the_text_and_holds_no_secret() -> None:
    example = labeled_example(event(FeedbackAction.APPROVED, 1, candidate_status="pending_review"))

    assert example is not None
    assert (example["user_message"], example["contains_secret"]) == ("i prefer tabs in go files", False)
    assert example["id"] == f"feedback-{1:032x}"
    assert example_text(event(FeedbackAction.MANUAL_ADD, 2, user_message_preview="")) == (
        "Prefers tabs",
        TextSource.SUMMARY,
    )
