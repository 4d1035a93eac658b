"""The cold-start report's table, from given timings (no process is started here)."""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # the benchmarks are a top-level package of the repository, not installed
    sys.path.insert(0, str(REPO))

from bench.cold_requests import REFERENCE_PREFIX  # noqa: E402
from bench.cold_start import ColdTiming, Sample, table  # noqa: E402

REFERENCE = f"{REFERENCE_PREFIX}bare handler + boto3 and one client"


def _timing(label: str, import_ms: float, request_ms: float = 0.0) -> ColdTiming:
    sample = Sample(import_ms / 1000, import_ms / 1000, request_ms / 1000, request_ms / 1000)
    return ColdTiming(label, Path(f"functions/{label.split()[0]}/app.py"), [sample])


def test_each_import_is_shown_beside_the_bare_handler_and_the_reference() -> None:
    result = table(
        [
            _timing("bare", 100),
            _timing(REFERENCE, 300),
            _timing("token_authorizer", 140, request_ms=60),
            _timing("adaptive_turn", 450, request_ms=300),
        ]
    )

    reference_row, authorizer_row, turn_row = result.rows
    assert reference_row.split(" | ")[1:4] == ["300", "**3.00×**", "1.00×"]
    assert reference_row.endswith("| reference |")
    assert authorizer_row == (
        "| token_authorizer | 140 | **1.40×** | 0.47× | 200 | **2.00×** | 140 / 200 | met |"
    )
    assert turn_row.split(" | ")[1:4] == ["450", "**4.50×**", "1.50×"]
    assert turn_row.endswith("| MISSED |")
    assert result.figures["import_reference_ratio:adaptive_turn"] == 1.5
    assert [timing.label for timing in result.over] == ["adaptive_turn"]


def test_without_a_reference_row_the_column_says_so() -> None:
    result = table([_timing("bare", 100), _timing("token_authorizer", 120)])

    assert result.rows == ["| token_authorizer | 120 | **1.20×** | – | 120 | **1.20×** | 120 / 120 | met |"]
    assert not any(name.startswith("import_reference_ratio") for name in result.figures)
