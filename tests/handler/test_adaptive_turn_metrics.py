"""Every decision is an EMF metric with the dimension sets named in metric_names."""

from typing import Any

import pytest
from handler.turn_harness import TurnHarness, emf_documents, load_event
from pandora_memory.turn import metric_names as names


def metrics_by_name(printed: str) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for document in emf_documents(printed):
        [block] = document["_aws"]["CloudWatchMetrics"]
        assert block["Namespace"] == names.METRICS_NAMESPACE
        for metric in block["Metrics"]:
            assert block["Dimensions"] == [list(names.DIMENSION_SETS[metric["Name"]])]
            assert metric["Unit"] == names.UNITS[metric["Name"]]
            found.setdefault(metric["Name"], []).append(document)
    return found


def test_pre_answer_emits_the_retrieve_decision_and_latency(
    turn: TurnHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    turn.invoke(load_event("pre_answer"))
    turn.turn(namespace="real_life", user_message="how many ounces in a cup", mode="pre_answer")
    found = metrics_by_name(capsys.readouterr().out)
    decisions = [(d[names.DIM_DECISION], d[names.DIM_REASON]) for d in found[names.RETRIEVE_DECISION]]
    assert [decision for decision, _ in decisions] == ["retrieve", "skip"]
    assert all(reason and " " not in reason for _, reason in decisions)
    assert [d[names.DIM_MODE] for d in found[names.TURN_LATENCY]] == ["pre_answer", "pre_answer"]
    assert all(value >= 0 for d in found[names.TURN_LATENCY] for value in d[names.TURN_LATENCY])
    assert names.CANDIDATE_OUTCOME not in found


def test_post_answer_emits_the_candidate_outcome(
    turn: TurnHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    turn.invoke(load_event("post_answer"))
    turn.invoke(load_event("post_answer"))
    found = metrics_by_name(capsys.readouterr().out)
    outcomes = found[names.CANDIDATE_OUTCOME]
    assert [d[names.DIM_OUTCOME] for d in outcomes][1] == "duplicate"
    assert outcomes[0][names.DIM_OUTCOME] in ("queued", "review_required")
    assert {d[names.DIM_NAMESPACE] for d in outcomes} == {"real_life"}
    assert all(d[names.DIM_MEMORY_TYPE] in {t.value for t in names_memory_types()} for d in outcomes)
    assert [d[names.DIM_MODE] for d in found[names.TURN_LATENCY]] == ["post_answer", "post_answer"]
    assert names.RETRIEVE_DECISION not in found


def test_outcome_values_and_dimension_limits() -> None:
    assert set(names.OUTCOME_VALUES) >= {
        "queued",
        "review_required",
        "blocked_secret",
        "duplicate",
        "auto_captured",
        "suggest_only",
        "disabled",
    }
    assert all(len(dims) <= 30 for dims in names.DIMENSION_SETS.values())


def names_memory_types() -> list[Any]:
    from pandora_memory.policy.models import MemoryType

    return list(MemoryType)
