"""Storage failures give a clean 503 (or 500) and leave nothing half-written."""

import pytest
from handler.turn_harness import TurnHarness, load_event

PREFERENCE = "conventional commits for everything pls (feat/fix/chore), my CI lints on it"


@pytest.mark.parametrize("code", ["ProvisionedThroughputExceededException", "ThrottlingException"])
def test_a_throttled_candidate_write_is_503_and_writes_nothing(turn: TurnHarness, code: str) -> None:
    attempts = turn.fail("dynamodb", "PutItem", code)
    reply = turn.invoke(load_event("post_answer"))
    assert reply.status == 503
    assert reply.body == {
        "ok": False,
        "error": "storage_unavailable",
        "reason": "memory storage is busy; nothing was written, retry shortly",
        "details": [],
    }
    assert reply.headers.get("Retry-After") == "1"
    assert attempts
    assert turn.table_items("CandidatesTable") == []


def test_a_throttled_capture_transaction_is_503_and_writes_neither_item(
    turn: TurnHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE", "0.5")
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "capture_low_risk")
    turn.set_flag("PANDORA_AUTO_CAPTURE_LOW_RISK", "true")
    turn.fail("dynamodb", "TransactWriteItems", "ThrottlingException")
    reply = turn.turn(namespace="real_life", user_message=PREFERENCE, mode="post_answer")
    assert reply.status == 503
    assert turn.table_items("CandidatesTable") == [] and turn.table_items("MemoryEventsTable") == []


def test_a_throttled_memory_query_is_503(turn: TurnHarness) -> None:
    turn.fail("dynamodb", "Query", "ThrottlingException")
    reply = turn.invoke(load_event("pre_answer"))
    assert (reply.status, reply.body["error"]) == (503, "storage_unavailable")


def test_a_denied_write_is_a_plain_500_without_details(turn: TurnHarness) -> None:
    turn.fail("dynamodb", "PutItem", "AccessDeniedException")
    reply = turn.invoke(load_event("post_answer"))
    assert (reply.status, reply.body["error"]) == (500, "storage_error")
    assert "AccessDenied" not in reply.raw
    assert any('"code":"AccessDeniedException"' in line.replace(" ", "") for line in turn.log.lines)
