"""Everything the process writes while a block runs: stdout and stderr (Powertools logs and EMF metrics
are printed there), every logging handler's stream, and every logging record with all its fields.

Streams are teed, not silenced: output still reaches wherever it went before, so a failing run keeps
its usual diagnostics. Logging records are kept whole (message, args, extra fields) because a field
a formatter leaves out today may be printed by tomorrow's formatter.
"""

import json
import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO


class _Tee:
    """A text stream that keeps a copy of every write while recording, and always passes it on.

    A handler created during the block keeps this stream after it ends; it then only passes writes on.
    """

    def __init__(
        self, inner: TextIO, sink: list[str], lock: threading.Lock, recording: threading.Event
    ) -> None:
        self.inner = inner
        self._sink = sink
        self._lock = lock
        self._recording = recording

    def write(self, text: str) -> int:
        if self._recording.is_set():
            with self._lock:
                self._sink.append(text)
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class _RecordCollector(logging.Handler):
    def __init__(self, sink: list[str], lock: threading.Lock) -> None:
        super().__init__(level=logging.NOTSET)
        self._sink = sink
        self._lock = lock

    def emit(self, record: logging.LogRecord) -> None:
        fields = dict(record.__dict__)
        fields["rendered"] = record.getMessage()
        with self._lock:
            self._sink.append(json.dumps(fields, default=str))


@dataclass
class CapturedOutput:
    writes: list[str] = field(default_factory=list)
    records: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """Every written line and every record, one entry each."""
        written = "".join(self.writes).splitlines()
        return [line for line in written if line.strip()] + self.records


def _all_loggers() -> list[logging.Logger]:
    named = [item for item in logging.Logger.manager.loggerDict.values() if isinstance(item, logging.Logger)]
    return [logging.getLogger(), *named]


def _is_pytest_handler(handler: logging.Handler) -> bool:
    # pytest's own capture handlers write to its report; their records reach the collector anyway.
    return type(handler).__module__.startswith("_pytest")


@contextmanager
def captured_output() -> Iterator[CapturedOutput]:
    captured = CapturedOutput()
    lock = threading.Lock()
    recording = threading.Event()
    recording.set()

    def tee(stream: Any) -> Any:
        return _Tee(stream, captured.writes, lock, recording)

    old_stdout, old_stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = tee(old_stdout), tee(old_stderr)
    swapped: list[tuple[logging.StreamHandler[Any], Any]] = []
    collectors: list[tuple[logging.Logger, _RecordCollector]] = []
    try:
        for logger in _all_loggers():
            for handler in logger.handlers:
                if isinstance(handler, logging.StreamHandler) and not _is_pytest_handler(handler):
                    stream = handler.stream
                    handler.setStream(tee(stream))
                    swapped.append((handler, stream))
            if logger is logging.getLogger() or not logger.propagate:
                collector = _RecordCollector(captured.records, lock)
                logger.addHandler(collector)
                collectors.append((logger, collector))
        yield captured
    finally:
        recording.clear()
        for logger, collector in collectors:
            logger.removeHandler(collector)
        for handler, stream in swapped:
            handler.setStream(stream)
        sys.stdout, sys.stderr = old_stdout, old_stderr
