"""Copies what a handler prints, per thread, while it still reaches the real stdout.

The local API serves requests on several threads at once, so `contextlib.redirect_stdout` (one
process-wide stream) would mix handlers. A tee is put on `sys.stdout` while any capture is open and
hands each write to the capture of the thread that wrote it.
"""

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

_thread = threading.local()
_lock = threading.Lock()
_open_captures = 0


class _ThreadTee:
    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        sink: list[str] | None = getattr(_thread, "sink", None)
        if sink is not None:
            sink.append(text)
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()

    def __getattr__(self, name: str) -> Any:
        # encoding, fileno, isatty... behave as the stream underneath.
        return getattr(self.inner, name)


@contextmanager
def captured_stdout() -> Iterator[list[str]]:
    """Yields the list that receives this thread's writes to stdout until the block ends."""
    global _open_captures
    chunks: list[str] = []
    with _lock:
        if not isinstance(sys.stdout, _ThreadTee):
            sys.stdout = cast(TextIO, _ThreadTee(sys.stdout))
        _open_captures += 1
    outer: list[str] | None = getattr(_thread, "sink", None)
    _thread.sink = chunks
    try:
        yield chunks
    finally:
        _thread.sink = outer
        if outer is not None:
            outer.extend(chunks)
        with _lock:
            _open_captures -= 1
            current = sys.stdout
            # Someone else (a test runner) may have swapped stdout meanwhile; only our tee is undone.
            if _open_captures == 0 and isinstance(current, _ThreadTee):
                sys.stdout = current.inner
