"""A regex rule with the cheap literal triggers that decide whether it runs at all."""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.lazy_pattern import compiled
from pandora_memory.secrets.trie import trie_pattern

Validator = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class PatternRule:
    """`needles` are literal substrings (of the raw text, or of its lower-cased form when
    `lowercase_needles`); the regex only runs when one of them is present. The secret is the
    named group ``secret`` when the pattern has one, else the whole match.

    A pattern that opens with a lookbehind (``(?<![A-Za-z0-9_-])ghp_...``) is tried at every
    position of the text; without it, the regex engine skips ahead to the opening literal or
    character set, several times faster. `unanchored` is the pattern without that lookbehind: it
    finds where the next match may start, and `pattern` itself decides there. Both are compiled on
    first use (`source`, `flags`): most rules never run in a process."""

    name: str
    kind: str
    source: str
    needles: tuple[str, ...]
    priority: int
    lowercase_needles: bool = False
    validate: Validator | None = None
    unanchored: str | None = None
    flags: int = 0

    @property
    def pattern(self) -> re.Pattern[str]:
        return compiled(self.source, self.flags)

    def _matches(self, text: str) -> Iterator[re.Match[str]]:
        """Exactly `pattern.finditer(text)`. Before the first place `unanchored` matches, `pattern`
        cannot match either; there it matches as finditer would, unless the lookbehind fails, and
        then finditer itself goes on from the next position (rare: a token glued to a word)."""
        pattern = self.pattern
        if self.unanchored is None:
            yield from pattern.finditer(text)
            return
        search = compiled(self.unanchored, self.flags).search
        position = 0
        while (candidate := search(text, position)) is not None:
            start = candidate.start()
            match = pattern.match(text, start)
            if match is None or match.end() == start:  # an empty match: finditer's own rules
                yield from pattern.finditer(text, start if match else start + 1)
                return
            yield match
            position = match.end()

    def candidates(self, text: str) -> Iterator[Candidate]:
        has_group = "secret" in self.pattern.groupindex
        for match in self._matches(text):
            start, end = match.span("secret") if has_group else match.span()
            if start < 0 or start == end:
                continue
            if self.validate is not None and not self.validate(text[start:end]):
                continue
            yield Candidate(self.kind, start, end, self.name, self.priority)


def rule(
    name: str,
    kind: str,
    pattern: str,
    needles: tuple[str, ...],
    *,
    priority: int = 0,
    flags: int = 0,
    lowercase_needles: bool = False,
    validate: Validator | None = None,
    not_after: str | None = None,
) -> PatternRule:
    """`not_after`: a one-character class that may not stand right before a match, for the
    pattern ``(?<!not_after)pattern`` (see PatternRule)."""
    return PatternRule(
        name=name,
        kind=kind,
        source=pattern if not_after is None else f"(?<!{not_after}){pattern}",
        needles=needles,
        priority=priority,
        lowercase_needles=lowercase_needles,
        validate=validate,
        unanchored=pattern if not_after is not None else None,
        flags=flags,
    )


class RuleIndex:
    """Which rules to run for a text: one trie regex finds all needles at once.

    A needle that is a prefix of another found needle counts as found too (the regex reports only
    the longest needle at each place), so `sk-` still fires when `sk-ant-` is what matched."""

    def __init__(self, rules: tuple[PatternRule, ...]) -> None:
        self._rules = rules
        self._by_needle: dict[tuple[bool, str], list[int]] = {}
        for index, pattern_rule in enumerate(rules):
            for needle in pattern_rule.needles:
                self._by_needle.setdefault((pattern_rule.lowercase_needles, needle), []).append(index)
        self._finders = {
            lowercase: re.compile(trie_pattern(n for (lc, n) in self._by_needle if lc == lowercase) or "(?!)")
            for lowercase in (False, True)
        }
        self._prefixes = {
            key: [other for other in self._by_needle if other[0] == key[0] and key[1].startswith(other[1])]
            for key in self._by_needle
        }

    def triggered(self, text: str) -> list[PatternRule]:
        indexes: set[int] = set()
        for lowercase, haystack in ((False, text), (True, text.lower())):
            for needle in set(self._finders[lowercase].findall(haystack)):
                for key in self._prefixes[(lowercase, needle)]:
                    indexes.update(self._by_needle[key])
        return [self._rules[index] for index in sorted(indexes)]
