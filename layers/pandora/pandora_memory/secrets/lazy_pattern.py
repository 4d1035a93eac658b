"""Regexes compiled at their first use, once per process.

Most messages hold no credential noun and no provider prefix, so most of the detector's patterns
never run in a container's first requests, and many never run at all. Compiled at import, they
cost every function that redacts (the turn's first request included) tens of milliseconds of
pure-Python regex compilation.
"""

import re
import sys
from functools import cache


@cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(source, flags)


class LazyPattern:
    """`re.compile(source, flags)` in waiting: `match` and `search` compile it the first time, and keep
    it, so the detector's per-message calls pay no cache lookup."""

    __slots__ = ("_pattern", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._pattern: re.Pattern[str] | None = None

    def _compiled(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = compiled(self.source, self.flags)
        return self._pattern

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._compiled().match(text, pos, endpos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._compiled().search(text, pos, endpos)
