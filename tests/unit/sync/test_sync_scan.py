"""Scanning a local folder: Markdown only, hidden folders not entered, refused files reported."""

from pathlib import Path

import pytest
from pandora_memory.namespaces import Namespace
from pandora_memory.sync.keys import InvalidPrefixError, base_key, normalise_prefix
from pandora_memory.sync.local_files import SkipReason, scan_directory


def write(root: Path, relative: str, text: str = "# Note\n") -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_scan_keeps_markdown_outside_hidden_folders(tmp_path: Path) -> None:
    for relative in (
        "MEMORY.md",
        "topics/deploy.md",
        "topics/deep/nested.md",
        "topics/picture.png",
        "README.txt",
        ".git/HEAD.md",
        ".obsidian/workspace.md",
        "topics/.draft.md",
        "topics/UPPER.MD",
    ):
        write(tmp_path, relative)

    scan = scan_directory(tmp_path, Namespace.REAL_LIFE)

    assert sorted(scan.files) == ["MEMORY.md", "topics/deep/nested.md", "topics/deploy.md"]
    reasons = {item.relative_path: item.reason for item in scan.skipped}
    assert reasons == {
        "README.txt": SkipReason.NOT_MARKDOWN,
        "topics/picture.png": SkipReason.NOT_MARKDOWN,
        "topics/UPPER.MD": SkipReason.NOT_MARKDOWN,
        "topics/.draft.md": SkipReason.HIDDEN,
    }
    assert scan.kept_paths() == []


def test_files_ingest_would_refuse_are_reported_and_kept(tmp_path: Path) -> None:
    write(tmp_path, "big.md", "x" * 200)
    write(tmp_path, "ok.md", "small")
    write(tmp_path, ".md")  # no name before the suffix: hidden
    write(tmp_path, "tab\there.md")

    scan = scan_directory(tmp_path, Namespace.AU, max_bytes=100)

    assert sorted(scan.files) == ["ok.md"]
    reasons = {item.relative_path: item.reason for item in scan.skipped}
    assert reasons["big.md"] is SkipReason.TOO_LARGE
    assert reasons["tab\there.md"] is SkipReason.INVALID_PATH
    assert sorted(scan.kept_paths()) == ["big.md", "tab\there.md"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(None, ""), ("", ""), ("/", ""), ("claude", "claude"), ("/notes/claude/", "notes/claude")],
)
def test_prefixes_are_normalised(raw: str | None, expected: str) -> None:
    assert normalise_prefix(raw) == expected


@pytest.mark.parametrize("raw", ["a//b", "../up", "a/./b", "a\\b"])
def test_bad_prefixes_are_refused(raw: str) -> None:
    with pytest.raises(InvalidPrefixError):
        normalise_prefix(raw)


def test_base_keys() -> None:
    assert base_key(Namespace.REAL_LIFE) == "memory/real_life/"
    assert base_key(Namespace.AU, "claude") == "memory/au/claude/"
