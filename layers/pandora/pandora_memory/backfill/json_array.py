"""Streams the items of a top-level JSON array with the standard `json` decoder.

Only a window of the text and the current item are held: an export of thousands of conversations is
never loaded whole, nor parsed into one list next to its own text.
"""

import codecs
import json
import re
from collections.abc import Iterator

from pandora_memory.backfill.errors import ExportError
from pandora_memory.backfill.source import ByteStream

DEFAULT_CHUNK_BYTES = 1 << 18  # small enough for a smooth progress bar, large enough to parse fast
_NON_WHITESPACE = re.compile(r"[^ \t\n\r]")
_BOM = "\ufeff"


class JsonArrayItems:
    """Iterates the objects of `[{...}, {...}]`; `bytes_read` says how far into the stream it is."""

    def __init__(self, stream: ByteStream, name: str, chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> None:
        self._stream = stream
        self._name = name
        self._chunk = chunk_bytes
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._json = json.JSONDecoder()
        self._text = ""
        self._pos = 0
        self._eof = False
        self.bytes_read = 0

    def __iter__(self) -> Iterator[object]:
        self._expect_array_start()
        index = 0
        while True:
            separator = self._next_char(f"{self._name} ends before its closing ']'")
            if separator == "]":
                self._pos += 1
                self._expect_end()
                return
            if index:
                if separator != ",":
                    raise ExportError(f"{self._name} is not valid JSON: expected ',' after item {index}")
                self._pos += 1
                self._next_char(f"{self._name} ends inside its array")
            index += 1
            yield self._item(index)

    # -- reading -----------------------------------------------------------------------------------

    def _fill(self, at_least: int) -> None:
        """Appends decoded text; reads grow with the pending item so a huge one is parsed few times."""
        if self._eof:
            return
        data = self._stream.read(max(self._chunk, at_least))
        self.bytes_read += len(data)
        self._eof = not data
        try:
            more = self._decoder.decode(data, final=self._eof)
        except UnicodeDecodeError as error:
            raise ExportError(
                f"{self._name} is not UTF-8 text (byte {self.bytes_read - len(data) + error.start})"
            ) from None
        self._text = self._text[self._pos :] + more
        self._pos = 0

    def _skip_whitespace(self) -> str | None:
        """Moves to the next non-whitespace character, reading as needed; None at the end of input."""
        while True:
            found = _NON_WHITESPACE.search(self._text, self._pos)
            if found:
                self._pos = found.start()
                return self._text[self._pos]
            self._pos = len(self._text)
            if self._eof:
                return None
            self._fill(0)

    def _next_char(self, missing: str) -> str:
        char = self._skip_whitespace()
        if char is None:
            raise ExportError(missing)
        return char

    def _expect_array_start(self) -> None:
        first = self._next_char(f"{self._name} is empty")
        if first == _BOM:
            self._pos += 1
            first = self._next_char(f"{self._name} is empty")
        if first == "[":
            self._pos += 1
            return
        if first == "{":
            raise ExportError(
                f"{self._name} holds one JSON object, not the list of conversations a ChatGPT export has"
            )
        raise ExportError(f"{self._name} is not JSON: it should start with '[' (a list of conversations)")

    def _expect_end(self) -> None:
        if self._skip_whitespace() is not None:
            raise ExportError(f"{self._name} is not valid JSON: extra data after the list")

    def _item(self, index: int) -> object:
        if self._text[self._pos] != "{":
            raise ExportError(f"{self._name}: item {index} is not a conversation (not a JSON object)")
        while True:
            try:
                item, end = self._json.raw_decode(self._text, self._pos)
            except json.JSONDecodeError as error:
                if self._eof:
                    # Position only: the message never quotes the text around the error.
                    raise ExportError(
                        f"{self._name} is not valid JSON in item {index}: {error.msg}"
                    ) from None
                self._fill(len(self._text) - self._pos)  # the item is cut by the window: read on
                continue
            self._pos = end
            return item
