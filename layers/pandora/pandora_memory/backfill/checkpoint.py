"""Which conversations of an export a run has finished, so an interrupted backfill resumes there.

One JSON-lines file per (export, namespace, table): a header naming them, then one conversation id
per line, appended and flushed as each conversation completes. A line cut short by a crash is
ignored; that conversation runs again and its writes come back as duplicates.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from pandora_memory.backfill.errors import CheckpointError
from pandora_memory.namespaces import Namespace

FORMAT = "pandora-memory backfill checkpoint"
VERSION = 1
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9_.-]")


@dataclass(frozen=True)
class CheckpointKey:
    export_sha256: str
    namespace: Namespace
    table: str

    def file_name(self) -> str:
        table = _UNSAFE_IN_NAME.sub("_", self.table)
        return f"{self.export_sha256[:16]}.{self.namespace.value}.{table}.jsonl"

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "export_sha256": self.export_sha256,
            "namespace": self.namespace.value,
            "table": self.table,
        }


class Checkpoint:
    """Read-only unless `writable`: a dry run honours what an earlier --apply finished, records nothing."""

    def __init__(self, path: Path, key: CheckpointKey, done: set[str], *, writable: bool) -> None:
        self.path = path
        self.key = key
        self._done = done
        self._writable = writable
        self._stream: IO[str] | None = None

    @classmethod
    def load(cls, directory: Path, key: CheckpointKey, *, writable: bool) -> "Checkpoint":
        path = directory / key.file_name()
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return cls(path, key, set(), writable=writable)
        except (OSError, UnicodeDecodeError) as error:
            raise CheckpointError(f"cannot read the checkpoint {path}: {error}") from None
        if not lines or _parse(lines[0]) != key.header():
            raise CheckpointError(
                f"{path} is not this run's checkpoint: delete it or pass --restart to start over"
            )
        done = {value for value in map(_parse, lines[1:]) if isinstance(value, str)}
        return cls(path, key, done, writable=writable)

    def __contains__(self, conversation_id: object) -> bool:
        return conversation_id in self._done

    def __len__(self) -> int:
        return len(self._done)

    def mark_done(self, conversation_id: str) -> None:
        if not self._writable or conversation_id in self._done:
            return
        stream = self._stream or self._open()
        try:
            stream.write(json.dumps(conversation_id) + "\n")
            stream.flush()  # the line is the promise: once written, a rerun skips the conversation
        except OSError as error:
            raise CheckpointError(f"cannot write the checkpoint {self.path}: {error.strerror}") from None
        self._done.add(conversation_id)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> "Checkpoint":
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _open(self) -> IO[str]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            stream = self.path.open("a", encoding="utf-8")
            if fresh:
                stream.write(json.dumps(self.key.header()) + "\n")
            elif not _ends_with_newline(self.path):
                stream.write("\n")  # a crash left half a line: start clean after it
        except OSError as error:
            raise CheckpointError(f"cannot write the checkpoint {self.path}: {error.strerror}") from None
        self._stream = stream
        return stream


def discard(directory: Path, key: CheckpointKey) -> bool:
    """Removes the checkpoint so the next run starts from the first conversation."""
    path = directory / key.file_name()
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as error:
        raise CheckpointError(f"cannot remove the checkpoint {path}: {error.strerror}") from None
    return True


def _parse(line: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        return None


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as stream:
        stream.seek(-1, 2)
        return stream.read(1) == b"\n"
