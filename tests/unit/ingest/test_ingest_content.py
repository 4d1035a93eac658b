"""Upload bytes to text, and the bounded history notes of a superseded revision."""

import pytest
from pandora_memory.ingest import diffs
from pandora_memory.ingest.content import decode_markdown
from pandora_memory.ingest.outcomes import IngestRejectedError


def test_utf8_markdown_decodes_and_loses_its_byte_order_mark() -> None:
    assert decode_markdown("\ufeff# Été\n".encode(), 100) == "# Été\n"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [(b"x" * 11, "oversized"), (b"a\x00b", "nul_bytes"), (b"\xe9t\xe9", "invalid_utf8")],
)
def test_bad_bytes_are_refused(raw: bytes, reason: str) -> None:
    with pytest.raises(IngestRejectedError) as refused:
        decode_markdown(raw, 10)

    assert refused.value.reason.value == reason


def test_the_limit_itself_is_allowed() -> None:
    assert decode_markdown(b"x" * 10, 10) == "x" * 10


def test_a_change_summary_counts_lines_and_names_sections() -> None:
    old = "# Plan\n\nFriday.\n\n## Risks\n\nNone.\n"
    new = "# Plan\n\nMonday.\n\n## Owners\n\nAda.\n"

    summary = diffs.change_summary(old, new)

    assert summary.startswith("+3 -3 lines;")
    assert "sections added: Owners" in summary
    assert "sections removed: Risks" in summary


def test_summary_and_diff_stay_bounded() -> None:
    old = "\n".join(f"# Heading {n}\nline {n}" for n in range(900))
    new = "\n".join(f"# Title {n}\nrow {n}" for n in range(900))

    assert len(diffs.change_summary(old, new)) <= diffs.MAX_SUMMARY_CHARS
    diff = diffs.bounded_diff(old, new)
    assert diff is not None and len(diff) <= diffs.MAX_DIFF_CHARS
    assert diff.endswith("[diff truncated]")


def test_documents_too_long_to_diff_keep_only_the_summary() -> None:
    old = "line\n" * diffs.MAX_DIFF_INPUT_LINES
    assert diffs.bounded_diff(old, old + "more\n") is None
    assert diffs.change_summary(old, old + "more\n").startswith("+1 -0 lines")
