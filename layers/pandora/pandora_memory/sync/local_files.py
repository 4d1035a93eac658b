"""What a local folder holds for a sync: its Markdown files with their digests, what is skipped, and
what is refused.

Skipped: not memory at all (other suffixes, hidden files; hidden folders such as `.git` are not
entered). Refused: Markdown the ingest would reject, checked here with the ingest's own functions
(`parse_memory_key`, `decode_markdown`, the secret check on the path) and its size limit, so a file is
refused before upload, where the user sees it, rather than after, where only the logs do.
"""

import hashlib
import os
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pandora_memory.ingest.config import DEFAULT_MAX_MARKDOWN_BYTES
from pandora_memory.ingest.content import decode_markdown
from pandora_memory.ingest.outcomes import IngestRejectedError, RejectReason
from pandora_memory.ingest.s3_keys import MARKDOWN_SUFFIX, parse_memory_key
from pandora_memory.namespaces import Namespace
from pandora_memory.secrets import redact
from pandora_memory.sync.keys import base_key
from pandora_memory.sync.plan import LocalFile


class SkipReason(StrEnum):
    NOT_MARKDOWN = "not markdown"
    HIDDEN = "hidden file"
    HIDDEN_FOLDER = "hidden folder, not entered"


UNREADABLE = "unreadable"

_EXPLANATIONS = {
    RejectReason.INVALID_UTF8: "not UTF-8 text; save it as UTF-8",
    RejectReason.NUL_BYTES: "holds NUL bytes; not a text file",
    RejectReason.PATH_TRAVERSAL: "its path cannot be a memory key",
    RejectReason.INVALID_PATH: "its path cannot be a memory key",
    RejectReason.SECRET_IN_PATH: "its path looks like a credential; rename it",
}


@dataclass(frozen=True)
class Skipped:
    relative_path: str
    reason: SkipReason


@dataclass(frozen=True)
class Refused:
    """Markdown that is not uploaded because the ingest would reject it (or it cannot be read)."""

    relative_path: str
    reason: str  # a RejectReason value, or UNREADABLE
    explanation: str


@dataclass
class LocalScan:
    files: dict[str, LocalFile] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)

    def kept_paths(self) -> list[str]:
        """Markdown that exists locally but is not uploaded: its remote copy must not be deleted."""
        return [item.relative_path for item in self.refused]


def digest_file(relative_path: str, data: bytes) -> LocalFile:
    return LocalFile(
        relative_path=relative_path,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        md5=hashlib.md5(data, usedforsecurity=False).hexdigest(),  # only to compare with S3 ETags
    )


def refusal(relative_path: str, reason: RejectReason, max_bytes: int) -> Refused:
    if reason is RejectReason.OVERSIZED:
        explanation = f"larger than the ingest limit of {max_bytes} bytes"
    else:
        explanation = _EXPLANATIONS.get(reason, "the ingest would reject it")
    return Refused(relative_path, reason.value, explanation)


def check_path(relative_path: str, namespace: Namespace, prefix: str) -> None:
    """Raises IngestRejectedError as the ingest would for this file's key."""
    key = parse_memory_key(base_key(namespace, prefix) + relative_path)
    if redact(key.logical_path).findings:
        raise IngestRejectedError(RejectReason.SECRET_IN_PATH)


def _read_checked(path: Path, max_bytes: int) -> bytes:
    """The file's bytes, or IngestRejectedError as the ingest would raise for them."""
    if path.stat().st_size > max_bytes:  # refused without reading a file of any size
        raise IngestRejectedError(RejectReason.OVERSIZED)
    data = path.read_bytes()
    decode_markdown(data, max_bytes)
    return data


def _scan_file(
    scan: LocalScan, path: Path, relative_path: str, namespace: Namespace, prefix: str, max_bytes: int
) -> None:
    if not relative_path.endswith(MARKDOWN_SUFFIX):
        scan.skipped.append(Skipped(relative_path, SkipReason.NOT_MARKDOWN))
        return
    if path.name.startswith("."):
        scan.skipped.append(Skipped(relative_path, SkipReason.HIDDEN))
        return
    try:
        check_path(relative_path, namespace, prefix)
        data = _read_checked(path, max_bytes)
    except IngestRejectedError as rejected:
        scan.refused.append(refusal(relative_path, rejected.reason, max_bytes))
    except OSError as error:
        scan.refused.append(Refused(relative_path, UNREADABLE, error.strerror or type(error).__name__))
    else:
        scan.files[relative_path] = digest_file(relative_path, data)


def scan_directory(
    root: Path,
    namespace: Namespace,
    prefix: str = "",
    *,
    max_bytes: int = DEFAULT_MAX_MARKDOWN_BYTES,
) -> LocalScan:
    scan = LocalScan()
    for directory, folders, names in os.walk(root):
        hidden = sorted(folder for folder in folders if folder.startswith("."))
        folders[:] = sorted(folder for folder in folders if not folder.startswith("."))
        for folder in hidden:
            relative_folder = (Path(directory) / folder).relative_to(root).as_posix()
            scan.skipped.append(Skipped(relative_folder + "/", SkipReason.HIDDEN_FOLDER))
        for name in sorted(names):
            path = Path(directory) / name
            _scan_file(scan, path, path.relative_to(root).as_posix(), namespace, prefix, max_bytes)
    return scan
