"""Precision/recall bookkeeping for labeled policy sets, printed in pytest's terminal summary."""

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# The public calibration sets beside the repository (CI lays shared/ next to the clone).
SHARED_EVAL = Path(
    os.environ.get("PANDORA_SHARED_EVAL", Path(__file__).resolve().parents[2] / "shared" / "eval")
)


@dataclass(frozen=True)
class BinaryScore:
    name: str
    true_positive: int
    false_positive: int
    false_negative: int
    true_negative: int

    @property
    def precision(self) -> float:
        flagged = self.true_positive + self.false_positive
        return self.true_positive / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        actual = self.true_positive + self.false_negative
        return self.true_positive / actual if actual else 1.0

    @property
    def total(self) -> int:
        return self.true_positive + self.false_positive + self.false_negative + self.true_negative

    def line(self) -> str:
        return (
            f"{self.name}: precision {self.precision:.3f} recall {self.recall:.3f} "
            f"(n={self.total}, tp={self.true_positive}, fp={self.false_positive}, "
            f"fn={self.false_negative}, tn={self.true_negative})"
        )


def score_binary(name: str, pairs: Iterable[tuple[bool, bool]]) -> BinaryScore:
    """`pairs` yields (expected, predicted)."""
    tp = fp = fn = tn = 0
    for expected, predicted in pairs:
        if expected and predicted:
            tp += 1
        elif predicted:
            fp += 1
        elif expected:
            fn += 1
        else:
            tn += 1
    return BinaryScore(name, tp, fp, fn, tn)


REPORT_LINES: list[str] = []


def report(line: str) -> None:
    """Queue a line for the end-of-run summary (shown even when tests pass and output is captured)."""
    REPORT_LINES.append(line)
