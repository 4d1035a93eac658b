import json
from typing import Any

import pytest
from pandora_memory.turn import metric_names as names
from pandora_memory.turn.http import validation_details
from pandora_memory.turn.metrics import EmfTurnMetrics, reason_dimension


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("retrieve.continuation", "retrieve.continuation"),
        (None, "none"),
        ("", "none"),
        ("has spaces in it", "other"),
        ("x" * 65, "other"),
    ],
)
def test_reason_dimension_keeps_only_rule_ids(rule: str | None, expected: str) -> None:
    assert reason_dimension(rule) == expected


def test_each_metric_is_its_own_emf_block_with_its_dimension_set(capsys: pytest.CaptureFixture[str]) -> None:
    metrics = EmfTurnMetrics(service="svc")
    metrics.retrieve_decision(retrieve=False, rule_id="gate.autopilot_off")
    metrics.candidate_outcome(outcome="queued", memory_type="preference", namespace="au")
    metrics.turn_latency(mode="post_answer", milliseconds=12.34567)
    documents = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["_aws"]["CloudWatchMetrics"][0]["Dimensions"] for d in documents] == [
        [list(names.DIMENSION_SETS[names.RETRIEVE_DECISION])],
        [list(names.DIMENSION_SETS[names.CANDIDATE_OUTCOME])],
        [list(names.DIMENSION_SETS[names.TURN_LATENCY])],
    ]
    assert (documents[0]["decision"], documents[0]["reason"], documents[0]["service"]) == (
        "skip",
        "gate.autopilot_off",
        "svc",
    )
    assert (documents[1]["outcome"], documents[1]["memory_type"], documents[1]["namespace"]) == (
        "queued",
        "preference",
        "au",
    )
    assert documents[2]["TurnLatency"] == [12.346]
    assert {d["_aws"]["CloudWatchMetrics"][0]["Namespace"] for d in documents} == {"Pandora"}


LEAK = "SECRETVALUE"


def test_validation_details_never_echo_input() -> None:
    errors: list[dict[str, Any]] = [
        {
            "type": "string_too_long",
            "loc": ("body", "user_message"),
            "msg": "too long",
            "input": LEAK,
        },
        {
            "type": "extra_forbidden",
            "loc": ("body", "ghp_leaky key!"),
            "msg": "Extra",
            "input": LEAK,
        },
        {"type": "extra_forbidden", "loc": ("body", "memory"), "msg": "Extra", "input": 1},
        {"type": "json_invalid", "loc": ("body", 3), "msg": "JSON decode error", "ctx": {"error": "x"}},
    ]
    details = validation_details(errors)
    assert [(d.field, d.message) for d in details] == [
        ("user_message", "too long"),
        ("(unrecognised field)", "unknown field"),
        ("memory", "unknown field"),
        ("body", "the body is not valid JSON"),
    ]
    assert LEAK not in str(details) and "leaky" not in str(details)
