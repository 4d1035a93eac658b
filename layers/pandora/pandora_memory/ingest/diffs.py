"""Bounded descriptions of how a revision was replaced, stored on the superseded revision.

Both inputs are redacted texts, so nothing here can reintroduce a secret. Sizes are capped to keep
revision items small whatever the documents' sizes.
"""

import difflib
from collections import Counter

MAX_SUMMARY_CHARS = 400
MAX_DIFF_CHARS = 4000
# difflib is quadratic in the worst case; past this many lines only the summary is kept.
MAX_DIFF_INPUT_LINES = 4000
_HEADINGS_LISTED = 5
_TRUNCATED = "\n[diff truncated]"


def _clip(text: str, limit: int, marker: str = "…") -> str:
    return text if len(text) <= limit else text[: limit - len(marker)] + marker


def _headings(lines: list[str]) -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in lines
        if line.startswith("#") and line.lstrip("#").startswith(" ")
    ]


def _listed(label: str, names: list[str]) -> str:
    shown = ", ".join(_clip(name, 60) for name in names[:_HEADINGS_LISTED])
    more = f" (+{len(names) - _HEADINGS_LISTED} more)" if len(names) > _HEADINGS_LISTED else ""
    return f"; {label}: {shown}{more}"


def change_summary(old: str, new: str) -> str:
    """Line and heading changes, order-insensitive so it stays linear in the documents' size."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    added = sum((Counter(new_lines) - Counter(old_lines)).values())
    removed = sum((Counter(old_lines) - Counter(new_lines)).values())
    summary = f"+{added} -{removed} lines; {len(old)} -> {len(new)} chars"
    old_headings, new_headings = _headings(old_lines), _headings(new_lines)
    new_sections = [name for name in new_headings if name not in set(old_headings)]
    gone_sections = [name for name in old_headings if name not in set(new_headings)]
    if new_sections:
        summary += _listed("sections added", new_sections)
    if gone_sections:
        summary += _listed("sections removed", gone_sections)
    return _clip(summary, MAX_SUMMARY_CHARS)


def bounded_diff(old: str, new: str) -> str | None:
    """A unified diff capped at MAX_DIFF_CHARS, or None when the documents are too long to diff."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if len(old_lines) + len(new_lines) > MAX_DIFF_INPUT_LINES:
        return None
    diff = "\n".join(difflib.unified_diff(old_lines, new_lines, "before", "after", lineterm="", n=1))
    return _clip(diff, MAX_DIFF_CHARS, _TRUNCATED)


def deletion_summary() -> str:
    return "deleted"


def rename_summary(new_path: str) -> str:
    return _clip(f"renamed to {new_path}", MAX_SUMMARY_CHARS)
