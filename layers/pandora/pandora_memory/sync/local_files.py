"""What a local folder holds for a sync: its Markdown files with their digests, and what is skipped.

Hidden folders (`.git`, `.obsidian`) are not entered; hidden files and other suffixes are skipped
quietly. Markdown that ingest would refuse (too large, a path S3 keys cannot carry) is reported.
"""

import hashlib
import os
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pandora_memory.ingest.config import DEFAULT_MAX_MARKDOWN_BYTES
from pandora_memory.ingest.outcomes import IngestRejectedError
from pandora_memory.ingest.s3_keys import MARKDOWN_SUFFIX, parse_memory_key
from pandora_memory.namespaces import Namespace
from pandora_memory.sync.keys import base_key, is_hidden
from pandora_memory.sync.plan import LocalFile


class SkipReason(StrEnum):
    NOT_MARKDOWN = "not markdown"
    HIDDEN = "hidden"
    TOO_LARGE = "too large"
    INVALID_PATH = "invalid path"
    UNREADABLE = "unreadable"


# Skips worth a line of their own: the file looks like memory but will not be synced.
NOTEWORTHY = frozenset({SkipReason.TOO_LARGE, SkipReason.INVALID_PATH, SkipReason.UNREADABLE})


@dataclass(frozen=True)
class Skipped:
    relative_path: str
    reason: SkipReason


@dataclass
class LocalScan:
    files: dict[str, LocalFile] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)

    def kept_paths(self) -> list[str]:
        """Markdown that exists locally but is not uploaded: its remote copy must not be deleted."""
        return [item.relative_path for item in self.skipped if item.reason in NOTEWORTHY]


def digest_file(relative_path: str, data: bytes) -> LocalFile:
    return LocalFile(
        relative_path=relative_path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        md5=hashlib.md5(data, usedforsecurity=False).hexdigest(),  # only to compare with S3 ETags
    )


def _classify(
    relative_path: str, namespace: Namespace, prefix: str, size: int, max_bytes: int
) -> SkipReason | None:
    if not relative_path.endswith(MARKDOWN_SUFFIX):
        return SkipReason.NOT_MARKDOWN
    if is_hidden(relative_path):
        return SkipReason.HIDDEN
    try:
        parse_memory_key(base_key(namespace, prefix) + relative_path)
    except IngestRejectedError:
        return SkipReason.INVALID_PATH
    if size > max_bytes:
        return SkipReason.TOO_LARGE
    return None


def scan_directory(
    root: Path,
    namespace: Namespace,
    prefix: str = "",
    *,
    max_bytes: int = DEFAULT_MAX_MARKDOWN_BYTES,
) -> LocalScan:
    scan = LocalScan()
    for directory, folders, names in os.walk(root):
        folders[:] = sorted(folder for folder in folders if not folder.startswith("."))
        for name in sorted(names):
            path = Path(directory) / name
            relative_path = path.relative_to(root).as_posix()
            try:
                size = path.stat().st_size
            except OSError:
                scan.skipped.append(Skipped(relative_path, SkipReason.UNREADABLE))
                continue
            reason = _classify(relative_path, namespace, prefix, size, max_bytes)
            if reason is None:
                try:
                    data = path.read_bytes()
                except OSError:
                    reason = SkipReason.UNREADABLE
                else:
                    scan.files[relative_path] = digest_file(relative_path, data)
                    continue
            scan.skipped.append(Skipped(relative_path, reason))
    return scan
