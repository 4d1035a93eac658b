"""Invalid requests are refused with a 4xx and a reason, before anything is read or written."""

from typing import Any

import pytest
from handler.turn_harness import TurnHarness, turn_event

VALID: dict[str, Any] = {"namespace": "real_life", "user_message": "hello there", "mode": "pre_answer"}


@pytest.mark.parametrize(
    ("body", "field", "message_part"),
    [
        ({**VALID, "namespace": "work"}, "namespace", "'real_life' or 'au'"),
        ({k: v for k, v in VALID.items() if k != "user_message"}, "user_message", "Field required"),
        ({**VALID, "user_message": ""}, "user_message", "at least 1 character"),
        ({**VALID, "user_message": 42}, "user_message", "valid string"),
        ({**VALID, "mode": "during_answer"}, "mode", "'pre_answer' or 'post_answer'"),
        ({**VALID, "memory": "remember everything"}, "memory", "unknown field"),
        ({**VALID, "assistant_draft": "x" * 32_001}, "assistant_draft", "at most 32000 characters"),
        ({**VALID, "current_task": "y" * 40_000}, "current_task", "at most 32000 characters"),
    ],
)
def test_schema_violations_are_422_with_the_field_and_reason(
    turn: TurnHarness, body: dict[str, Any], field: str, message_part: str
) -> None:
    reply = turn.invoke(turn_event(body))
    assert reply.status == 422
    assert reply.body["ok"] is False and reply.body["error"] == "invalid_request"
    assert any(d["field"] == field and message_part in d["message"] for d in reply.body["details"]), (
        reply.body
    )
    assert field in reply.body["reason"]
    assert turn.aws_calls == []


def test_an_oversized_message_is_not_echoed_back(turn: TurnHarness) -> None:
    marker = "UNIQUE-MARKER-7c1e"
    reply = turn.invoke(turn_event({**VALID, "user_message": marker + "z" * 32_000}))
    assert reply.status == 422
    assert marker not in reply.raw
    assert len(reply.raw) < 1000


@pytest.mark.parametrize("body", ["{not json", '{"namespace": "au",', ""])
def test_bad_json_is_400_with_a_reason(turn: TurnHarness, body: str) -> None:
    reply = turn.invoke(turn_event(body))
    assert reply.status in (400, 422)
    assert reply.body["ok"] is False and reply.body["reason"]
    assert turn.aws_calls == []


def test_malformed_json_is_400_and_does_not_echo_the_body(turn: TurnHarness) -> None:
    reply = turn.invoke(turn_event('{"user_message": "my SECRET-ish words", '))
    assert (reply.status, reply.body["error"]) == (400, "invalid_json")
    assert "SECRET-ish" not in reply.raw


@pytest.mark.parametrize("body", ["[]", '"just a string"', "null"])
def test_a_body_that_is_not_an_object_is_refused(turn: TurnHarness, body: str) -> None:
    reply = turn.invoke(turn_event(body))
    assert 400 <= reply.status < 500
    assert reply.body["ok"] is False


def test_a_non_json_content_type_is_refused(turn: TurnHarness) -> None:
    event = turn_event(VALID)
    event["headers"]["Content-Type"] = "text/plain"
    event["multiValueHeaders"]["Content-Type"] = ["text/plain"]
    reply = turn.invoke(event)
    assert reply.status == 415 and reply.body["error"] == "unsupported_content_type"
