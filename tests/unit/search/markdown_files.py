"""The Markdown files of an evaluation corpus folder, keyed by their path relative to it."""

from pathlib import Path


def markdown_files(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob("*.md"))
    }
