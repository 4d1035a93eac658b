"""Score the labeled sets: our own (recall must be perfect) and, when present, the shared one."""

import json
from pathlib import Path

from pandora_memory.secrets import contains_secret
from scoring import SHARED_EVAL, BinaryScore, report, score_binary

OWN_SET = Path(__file__).resolve().parents[2] / "data" / "labeled_secrets.jsonl"


def _score(name: str, path: Path) -> BinaryScore:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    score = score_binary(name, ((bool(row["secret"]), contains_secret(row["text"])) for row in rows))
    report(score.line())
    return score


def test_labeled_sets_precision_and_recall() -> None:
    own = _score("secrets (own labeled set)", OWN_SET)
    shared_path = SHARED_EVAL / "secrets.jsonl"
    if shared_path.exists():
        shared = _score("secrets (shared calibration set)", shared_path)
        assert shared.total > 0

    assert own.total >= 120
    assert own.recall == 1.0
    assert own.precision >= 0.95
