"""Looks for secret values in texts, whole or in part, and says where without repeating the value.

A value is looked for as written and JSON-escaped; each long token in it is also looked for by two
16-character windows (its middle and its end), so a secret cut short by a preview or a log field still
counts. Short or digit-only values (PINs, door codes) would match innocent timestamps and hashes
anywhere, so they are only looked for as whole words in the texts their own turn produced.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

MIN_GLOBAL_LENGTH = 7
WINDOW = 16
MIN_WINDOWED_TOKEN = 24


@dataclass(frozen=True)
class Finding:
    source: str  # which corpus line the value came from
    value_kind: str  # declared | detected | suspected
    value_length: int
    where: str

    def __str__(self) -> str:
        return f"{self.source}: a {self.value_kind} value ({self.value_length} chars) found in {self.where}"


def hunted_globally(value: str) -> bool:
    return len(value) >= MIN_GLOBAL_LENGTH and any(character.isalpha() for character in value)


def needles(value: str) -> set[str]:
    found = {value, json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]}
    for token in value.split():
        if len(token) >= MIN_WINDOWED_TOKEN:
            middle = len(token) // 2 - WINDOW // 2
            found.add(token[middle : middle + WINDOW])
            found.add(token[-WINDOW:])
    return found


def whole_word(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![0-9A-Za-z])" + re.escape(value) + r"(?![0-9A-Za-z])")


@dataclass(frozen=True)
class HuntedValue:
    source: str
    kind: str
    value: str


class Haystack:
    """Many texts joined once, so each needle is searched in one pass."""

    SEPARATOR = "\x00"

    def __init__(self, texts: Iterable[tuple[str, str]]) -> None:
        self._places: list[str] = []
        self._starts: list[int] = []
        parts: list[str] = []
        offset = 0
        for where, text in texts:
            self._places.append(where)
            self._starts.append(offset)
            parts.append(text)
            offset += len(text) + len(self.SEPARATOR)
        self._joined = self.SEPARATOR.join(parts)
        self.count = len(self._places)
        self.characters = len(self._joined)

    def _place(self, offset: int) -> str:
        low, high = 0, len(self._starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self._starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return self._places[low]

    def places_of(self, needle: str) -> list[str]:
        places: list[str] = []
        start = self._joined.find(needle)
        while start != -1:
            places.append(self._place(start))
            start = self._joined.find(needle, start + 1)
        return places


def hunt(values: Iterable[HuntedValue], haystack: Haystack) -> list[Finding]:
    findings: list[Finding] = []
    for hunted in values:
        places = {place for needle in needles(hunted.value) for place in haystack.places_of(needle)}
        findings += [
            Finding(hunted.source, hunted.kind, len(hunted.value), place) for place in sorted(places)
        ]
    return findings
