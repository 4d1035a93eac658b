"""Scores the candidate policy on labeled turns: ours (asserted) and the shared calibration set (reported).

A line with a credential is judged on being blocked or review-gated, never on candidate precision.
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.models import CandidateDecision, CandidateStatus
from scoring import SHARED_EVAL, BinaryScore, report, score_binary

OWN_SET = Path(__file__).resolve().parents[2] / "data" / "labeled_capture.jsonl"
MEMORY_TYPES = {
    "preference",
    "project_decision",
    "deployment_truth",
    "blocker",
    "merged_pr",
    "env_config_decision",
    "business_priority",
    "relationship_loop",
    "risk",
    "au_canon",
    "open_loop",
}


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def _decide(row: dict[str, Any]) -> CandidateDecision:
    return should_auto_create_memory_candidate(
        row["user_message"], row["assistant_response"], row["namespace"]
    )


class SetScore:
    def __init__(self, name: str, rows: list[dict[str, Any]]) -> None:
        decided = [(row, _decide(row)) for row in rows]
        plain = [(row, d) for row, d in decided if not row["contains_secret"]]
        secret = [(row, d) for row, d in decided if row["contains_secret"]]
        self.candidates: BinaryScore = score_binary(
            f"{name} candidate",
            ((row["should_create_candidate"], d.status is CandidateStatus.CANDIDATE) for row, d in plain),
        )
        true_candidates = [(row, d) for row, d in plain if row["should_create_candidate"]]
        self.typed = sum(d.memory_type.value == row["memory_type"] for row, d in true_candidates)
        self.type_accuracy = self.typed / len(true_candidates) if true_candidates else 1.0
        sensitive = [(row, d) for row, d in decided if row["sensitivity"] in ("high", "private")]
        self.sensitive_reviewed = (
            sum(d.requires_review for _, d in sensitive) / len(sensitive) if sensitive else 1.0
        )
        gated = [d.status is CandidateStatus.BLOCKED_SECRET or d.requires_review for _, d in secret]
        self.secrets_gated = sum(gated) / len(gated) if gated else 1.0
        self.misses = [
            f"{row['id']}: expected {row['memory_type']}, got {d.status.value}/{d.memory_type.value}"
            for row, d in plain
            if (d.status is CandidateStatus.CANDIDATE) != row["should_create_candidate"]
            or (row["should_create_candidate"] and d.memory_type.value != row["memory_type"])
        ]
        report(self.candidates.line())
        report(
            f"{name} memory_type accuracy {self.type_accuracy:.3f} ({self.typed}/{len(true_candidates)}); "
            f"high/private reviewed {self.sensitive_reviewed:.3f} (n={len(sensitive)}); "
            f"secrets blocked or gated {self.secrets_gated:.3f} (n={len(secret)})"
        )


def test_own_labeled_set_covers_what_the_policy_must_handle() -> None:
    rows = list(_rows(OWN_SET))
    assert len(rows) >= 130
    assert {row["memory_type"] for row in rows if row["should_create_candidate"]} >= MEMORY_TYPES
    assert {row["sensitivity"] for row in rows} == {"low", "medium", "high", "private"}
    assert sum(row["contains_secret"] for row in rows) >= 15
    assert sum(row["assistant_response"] is not None for row in rows) >= 8
    assert sum(not row["user_message"].isascii() for row in rows) >= 5
    assert len({row["id"] for row in rows}) == len(rows)


def test_own_labeled_set_meets_the_targets() -> None:
    score = SetScore("own set", list(_rows(OWN_SET)))
    assert score.candidates.recall >= 0.95, score.misses
    assert score.candidates.precision >= 0.95, score.misses
    assert score.type_accuracy >= 0.90, score.misses
    assert score.sensitive_reviewed == 1.0
    assert score.secrets_gated == 1.0


def test_shared_calibration_set_is_reported() -> None:
    shared = SHARED_EVAL / "capture.jsonl"
    if shared.exists():
        score = SetScore("shared set", list(_rows(shared)))
        # The public slice calibrates; the maintainers' held-out bar is recall 0.90, precision 0.85.
        assert score.candidates.recall >= 0.90, score.misses
        assert score.candidates.precision >= 0.85, score.misses
        assert score.type_accuracy >= 0.80, score.misses
        assert score.sensitive_reviewed == 1.0
        assert score.secrets_gated == 1.0
