"""Scanning a local folder: Markdown only, hidden folders not entered, refused files reported."""

from pathlib import Path

import pytest
from pandora_memory.ingest.content import decode_markdown
from pandora_memory.ingest.outcomes import IngestRejectedError
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
        ".git/": SkipReason.HIDDEN_FOLDER,
        ".obsidian/": SkipReason.HIDDEN_FOLDER,
        "README.txt": SkipReason.NOT_MARKDOWN,
        "topics/picture.png": SkipReason.NOT_MARKDOWN,
        "topics/UPPER.MD": SkipReason.NOT_MARKDOWN,
        "topics/.draft.md": SkipReason.HIDDEN,
    }
    assert scan.refused == []
    assert scan.kept_paths() == []


def test_files_ingest_would_refuse_are_reported_and_kept(tmp_path: Path) -> None:
    write(tmp_path, "big.md", "x" * 200)
    write(tmp_path, "ok.md", "small")
    write(tmp_path, ".md")  # no name before the suffix: hidden
    write(tmp_path, "tab\there.md")
    (tmp_path / "latin1.md").write_bytes("café".encode("latin-1"))
    (tmp_path / "nul.md").write_bytes(b"a\x00b")
    write(tmp_path, "bom.md", "\ufeff# Fine\n")

    scan = scan_directory(tmp_path, Namespace.AU, max_bytes=100)

    assert sorted(scan.files) == ["bom.md", "ok.md"]
    reasons = {item.relative_path: item.reason for item in scan.refused}
    assert reasons == {
        "big.md": "oversized",
        "tab\there.md": "invalid_path",
        "latin1.md": "invalid_utf8",
        "nul.md": "nul_bytes",
    }
    assert "100 bytes" in next(item.explanation for item in scan.refused if item.relative_path == "big.md")
    assert sorted(scan.kept_paths()) == sorted(reasons)
    assert [item.relative_path for item in scan.skipped] == [".md"]


@pytest.mark.parametrize("data", ["café".encode("latin-1"), b"\x00", b"x" * 101, "ünï".encode()])
def test_the_scan_refuses_exactly_what_the_ingest_rejects(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "note.md").write_bytes(data)
    try:
        decode_markdown(data, 100)
    except IngestRejectedError as rejected:
        expected: str | None = rejected.reason.value
    else:
        expected = None

    scan = scan_directory(tmp_path, Namespace.REAL_LIFE, max_bytes=100)

    assert [item.reason for item in scan.refused] == ([expected] if expected else [])
    assert sorted(scan.files) == ([] if expected else ["note.md"])


def test_a_path_that_looks_like_a_credential_is_refused(tmp_path: Path) -> None:
    name = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2  # shaped like a GitHub token, not a real one
    write(tmp_path, f"{name[:40]}.md")

    scan = scan_directory(tmp_path, Namespace.REAL_LIFE)

    assert [item.reason for item in scan.refused] == ["secret_in_path"]
    assert scan.files == {}


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
