"""Autopilot flags are read from SSM through the handler; anything wrong fails safe and says so."""

from typing import Any

import pytest
from handler.turn_harness import TurnHarness

DECISION = "we decided: production deploys go through the staging stage first, always"
PREFERENCE = "conventional commits for everything pls (feat/fix/chore), my CI lints on it"


def post(turn: TurnHarness, message: str = DECISION) -> dict[str, Any]:
    reply = turn.turn(namespace="real_life", user_message=message, mode="post_answer")
    assert reply.status == 200, reply.body
    return reply.body


def test_template_defaults_queue_and_warn_that_auto_capture_is_off(turn: TurnHarness) -> None:
    body = post(turn)
    assert body["autopilot"] == "queue"
    assert body["warnings"] == [
        "auto-capture off (PANDORA_MEMORY_AUTOPILOT=queue): candidates wait for review"
    ]


@pytest.mark.parametrize(
    "flags",
    [
        {"PANDORA_MEMORY_AUTOPILOT": "capture_low_risk"},
        {"PANDORA_AUTO_CAPTURE_LOW_RISK": "true"},
        {"PANDORA_ENABLE_AUTO_CAPTURE": "true"},
    ],
)
def test_auto_capture_needs_both_the_mode_and_the_flag(turn: TurnHarness, flags: dict[str, str]) -> None:
    for name, value in flags.items():
        turn.set_flag(name, value)
    preview = post(turn, PREFERENCE)["candidate_preview"]
    assert preview["status"] == "pending_review"
    assert turn.table_items("MemoryEventsTable") == []


@pytest.mark.parametrize("capture_flag", ["PANDORA_AUTO_CAPTURE_LOW_RISK", "PANDORA_ENABLE_AUTO_CAPTURE"])
def test_with_both_enabled_a_low_risk_candidate_is_captured_consistently(
    turn: TurnHarness, capture_flag: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The confidence bar is configuration; set it here so policy tuning cannot flip this test.
    monkeypatch.setenv("PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE", "0.5")
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "capture_low_risk")
    if capture_flag == "PANDORA_ENABLE_AUTO_CAPTURE":
        turn.delete_flag("PANDORA_AUTO_CAPTURE_LOW_RISK")
    turn.set_flag(capture_flag, "true")
    body = post(turn, PREFERENCE)
    preview = body["candidate_preview"]
    assert (preview["status"], preview["outcome"], preview["stored"]) == (
        "auto_captured",
        "auto_captured",
        True,
    )
    [memory] = turn.table_items("MemoryEventsTable")
    [candidate] = turn.table_items("CandidatesTable")
    assert memory["candidate_id"]["S"] == candidate["candidate_id"]["S"] == preview["id"]
    assert turn.calls_to("dynamodb") == ["Query", "TransactWriteItems"]  # the review figures, then one write
    assert not any("auto-capture" in warning for warning in body["warnings"])


def test_suggest_previews_and_writes_nothing(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "suggest")
    body = post(turn)
    preview = body["candidate_preview"]
    assert (preview["status"], preview["outcome"], preview["stored"]) == ("preview", "suggest_only", False)
    assert turn.table_items("CandidatesTable") == [] and turn.calls_to("dynamodb") == []
    assert any("suggest" in warning for warning in body["warnings"])


def test_off_retrieves_nothing_and_writes_nothing(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "off")
    pre = turn.turn(
        namespace="real_life", user_message="continue the deploy plan from last time", mode="pre_answer"
    )
    body = post(turn)
    assert (pre.body["should_retrieve"], pre.body["context"]) == (False, "")
    assert (body["should_create_candidate"], body["candidate_preview"]) == (False, None)
    assert turn.calls_to("dynamodb") == []
    assert turn.table_items("CandidatesTable") == []


def test_auto_retrieve_off_reads_no_memory(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_AUTO_RETRIEVE", "false")
    reply = turn.turn(
        namespace="real_life", user_message="continue the deploy plan from last time", mode="pre_answer"
    )
    assert (reply.body["should_retrieve"], reply.body["retrieval"]["rules"]) == (
        False,
        ["gate.auto_retrieve_off"],
    )
    assert any("PANDORA_AUTO_RETRIEVE=false" in warning for warning in reply.body["warnings"])
    assert turn.calls_to("dynamodb") == []


def test_queue_flag_off_only_previews(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_AUTO_CANDIDATE_QUEUE", "false")
    body = post(turn)
    assert body["candidate_preview"]["stored"] is False
    assert turn.table_items("CandidatesTable") == []


def test_approval_flag_set_false_is_reported_as_not_honoured(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_SENSITIVE_MEMORY_REQUIRES_APPROVAL", "false")
    body = post(turn)
    assert any("is not honoured for high or private" in w for w in body["warnings"])


def test_invalid_flag_values_fail_safe_with_warnings(turn: TurnHarness) -> None:
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "yolo")
    turn.set_flag("PANDORA_AUTO_CAPTURE_LOW_RISK", "true")
    body = post(turn, PREFERENCE)
    assert body["autopilot"] == "queue"
    assert body["candidate_preview"]["status"] == "pending_review"
    warnings = "\n".join(body["warnings"])
    assert "PANDORA_MEMORY_AUTOPILOT is not off, suggest, queue or capture_low_risk" in warnings
    assert turn.table_items("MemoryEventsTable") == []


def test_missing_flags_fail_safe_with_warnings(turn: TurnHarness) -> None:
    for name in ("PANDORA_MEMORY_AUTOPILOT", "PANDORA_AUTO_RETRIEVE", "PANDORA_AUTO_CAPTURE_LOW_RISK"):
        turn.delete_flag(name)
    body = post(turn)
    assert body["autopilot"] == "queue"
    warnings = "\n".join(body["warnings"])
    for name in ("PANDORA_MEMORY_AUTOPILOT missing", "PANDORA_AUTO_RETRIEVE missing"):
        assert name in warnings


def test_ssm_unavailable_fails_safe_and_the_turn_still_answers(turn: TurnHarness) -> None:
    attempts = turn.fail("ssm", "GetParametersByPath", "InternalServerError", status=500)
    pre = turn.turn(
        namespace="real_life", user_message="continue the deploy plan from last time", mode="pre_answer"
    )
    body = post(turn)
    assert pre.status == 200 and pre.body["should_retrieve"] is True
    assert body["autopilot"] == "queue"
    assert body["candidate_preview"]["status"] == "pending_review"
    assert any("flags unreadable (SSM error)" in w for w in body["warnings"])
    assert attempts and len(set(attempts)) == 1
    assert len(attempts) <= 3  # the second turn is served from the fail-safe window, not another outage call


def test_flags_are_cached_between_turns(turn: TurnHarness) -> None:
    post(turn)
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "off")  # not seen until the 60 s cache window ends
    body = post(turn, "we decided the beta opens to 50 users in March")
    assert body["autopilot"] == "queue"
    assert turn.calls_to("ssm") == ["GetParametersByPath"]
