"""Where a synced folder lives in the bucket, and which relative paths a sync manages.

A sync manages exactly the Markdown files outside hidden folders, on both sides: a remote key that
the local scan could never produce (a hidden folder, another suffix) is never deleted by it.
"""

from pandora_memory.ingest.s3_keys import MARKDOWN_SUFFIX, MEMORY_PREFIX
from pandora_memory.namespaces import Namespace


class InvalidPrefixError(ValueError):
    pass


def normalise_prefix(prefix: str | None) -> str:
    """`notes/claude/` -> `notes/claude`; refuses empty, `.` and `..` segments and backslashes."""
    if prefix is None:
        return ""
    trimmed = prefix.strip().strip("/")
    if not trimmed:
        return ""
    segments = trimmed.split("/")
    if "\\" in trimmed or any(segment in {"", ".", ".."} for segment in segments):
        raise InvalidPrefixError(f"invalid prefix {prefix!r}: use folder names separated by '/'")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in trimmed):
        raise InvalidPrefixError("invalid prefix: control characters are not allowed")
    return trimmed


def base_key(namespace: Namespace, prefix: str = "") -> str:
    """The key prefix a sync owns: `memory/<namespace>/` or `memory/<namespace>/<prefix>/`."""
    folder = f"{prefix}/" if prefix else ""
    return f"{MEMORY_PREFIX}{namespace.value}/{folder}"


def is_hidden(relative_path: str) -> bool:
    return any(segment.startswith(".") for segment in relative_path.split("/"))


def is_managed(relative_path: str) -> bool:
    return relative_path.endswith(MARKDOWN_SUFFIX) and not is_hidden(relative_path)
