"""Where the conversations are: a `conversations.json`, the export zip that holds one, or the unzipped
export folder. Opens it as bytes and fingerprints it, so a resumed run knows it reads the same export.
"""

import hashlib
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from pandora_memory.backfill.errors import ExportError

CONVERSATIONS_FILE = "conversations.json"
_HASH_CHUNK_BYTES = 1 << 20
# What a damaged zip member raises while it is read, besides BadZipFile.
_READ_ERRORS = (OSError, EOFError, zipfile.BadZipFile, zlib.error)


@dataclass(frozen=True)
class ExportSource:
    """`member` is the path inside the zip when the export is still zipped."""

    path: Path
    member: str | None
    size: int

    @property
    def name(self) -> str:
        return f"{self.path.name}:{self.member}" if self.member else self.path.name

    @contextmanager
    def open(self) -> Iterator["ByteStream"]:
        """Failures while opening or reading become ExportError; the caller's own errors pass through."""
        with ExitStack() as stack:
            try:
                if self.member is None:
                    stream: IO[bytes] = stack.enter_context(self.path.open("rb"))
                else:
                    archive = stack.enter_context(zipfile.ZipFile(self.path))
                    stream = stack.enter_context(archive.open(self.member))
            except _READ_ERRORS as error:
                raise self.read_error(error) from None
            except (RuntimeError, NotImplementedError):  # zipfile's words for encrypted or unsupported
                raise ExportError(
                    f"{self.name} is encrypted or compressed in a way zip cannot read"
                ) from None
            yield _ReadErrors(stream, self)

    def read_error(self, error: Exception) -> ExportError:
        if isinstance(error, OSError):
            return ExportError(f"cannot read {self.name}: {error.strerror or error}")
        return ExportError(f"{self.path.name} is a damaged zip ({error})")

    def fingerprint(self) -> str:
        """SHA-256 of the conversations document itself, so the zip and its unzipped copy match."""
        digest = hashlib.sha256()
        with self.open() as stream:
            while chunk := stream.read(_HASH_CHUNK_BYTES):
                digest.update(chunk)
        return digest.hexdigest()


class ByteStream(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _ReadErrors:
    """Turns a failing read (a corrupt zip member, a disk error) into ExportError."""

    def __init__(self, stream: IO[bytes], source: ExportSource) -> None:
        self._stream = stream
        self._source = source

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except _READ_ERRORS as error:
            raise self._source.read_error(error) from None


def locate_export(path: Path) -> ExportSource:
    """Raises ExportError with a one-line reason when `path` holds no conversations document."""
    if path.is_dir():
        inner = path / CONVERSATIONS_FILE
        if not inner.is_file():
            raise ExportError(f"{path} has no {CONVERSATIONS_FILE}: point at the export zip or the file")
        path = inner
    if not path.exists():
        raise ExportError(f"no such file: {path}")
    try:
        if zipfile.is_zipfile(path):
            return _zip_source(path)
        return ExportSource(path=path, member=None, size=path.stat().st_size)
    except OSError as error:
        raise ExportError(f"cannot read {path}: {error.strerror or error}") from None


def _zip_source(path: Path) -> ExportSource:
    try:
        with zipfile.ZipFile(path) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
    except zipfile.BadZipFile as error:
        raise ExportError(f"{path.name} is a damaged zip ({error})") from None
    named = [info for info in members if PurePosixPath(info.filename).name == CONVERSATIONS_FILE]
    if not named:
        raise ExportError(f"{path.name} holds no {CONVERSATIONS_FILE}: is it a ChatGPT data export?")
    # The export puts it at the top; a re-zipped folder nests it one level down.
    chosen = min(named, key=lambda info: info.filename.count("/"))
    return ExportSource(path=path, member=chosen.filename, size=chosen.file_size)
