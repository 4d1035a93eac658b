"""Scores the retrieve policy on labeled turns: our own set (asserted) and the shared one (reported)."""

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from pandora_memory.policy.retrieve import should_auto_retrieve_memory
from scoring import SHARED_EVAL, BinaryScore, report, score_binary

OWN_SET = Path(__file__).resolve().parents[2] / "data" / "labeled_retrieve.jsonl"
RETRIEVE_CATEGORIES = {
    "ongoing_project",
    "deployment",
    "business_plan",
    "relationship_loop",
    "risk",
    "prior_decision",
    "person_context",
    "au_canon",
    "open_loop",
    "continue",
    "hard_positive",
}
SKIP_CATEGORIES = {"simple_question", "math", "generic_explanation", "casual_chat", "hard_negative"}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _score(name: str, rows: list[dict[str, Any]]) -> BinaryScore:
    misses: dict[str, list[str]] = defaultdict(list)
    pairs = []
    for row in rows:
        decision = should_auto_retrieve_memory(
            row["user_message"], namespace=row["namespace"], current_task=row["current_task"]
        )
        pairs.append((row["should_retrieve"], decision.should_retrieve))
        if decision.should_retrieve != row["should_retrieve"]:
            misses[row["category"]].append(row["id"])
    score = score_binary(name, pairs)
    report(score.line())
    for category, ids in sorted(misses.items()):
        report(f"  {name} misses in {category}: {', '.join(ids)}")
    return score


def test_own_labeled_set_is_well_formed() -> None:
    rows = _rows(OWN_SET)
    assert len(rows) >= 120
    assert len({row["id"] for row in rows}) == len(rows)
    assert {row["category"] for row in rows} == RETRIEVE_CATEGORIES | SKIP_CATEGORIES
    for row in rows:
        assert row["should_retrieve"] is (row["category"] in RETRIEVE_CATEGORIES), row["id"]
        assert row["namespace"] in ("real_life", "au")
    assert any(not row["user_message"].isascii() for row in rows)


def test_own_labeled_set_meets_the_targets() -> None:
    score = _score("retrieve (own set)", _rows(OWN_SET))
    assert score.recall >= 0.95, score.line()
    assert score.precision >= 0.90, score.line()


def test_shared_calibration_set_is_reported() -> None:
    shared = SHARED_EVAL / "retrieve.jsonl"
    if shared.exists():
        score = _score("retrieve (shared set)", _rows(shared))
        assert score.total > 0
