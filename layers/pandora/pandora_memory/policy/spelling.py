"""Common chat misspellings ("wat", "teh", "befor") read as the words they stand for, so that cues,
question shapes and moods still match. Only whole words from one list in rules.toml are respelled:
guessing at every unknown word would cost time on every turn and misread names."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from pandora_memory.policy.rules import section


@dataclass(frozen=True, slots=True)
class Respelling:
    words: Mapping[str, str]
    pattern: re.Pattern[str]

    def needed(self, words: Sequence[str]) -> bool:
        """One C-level set test: almost every message has none of the words."""
        return not self.words.keys().isdisjoint(words)

    def tokens(self, words: Sequence[str]) -> list[str]:
        get = self.words.get
        return [get(word, word) for word in words]

    def text(self, lowered: str) -> str:
        return self.pattern.sub(lambda match: self.words[match.group()], lowered)


@cache
def respelling() -> Respelling:
    pairs = (entry.split(" ", 1) for entry in section("spelling")["chat"])
    words = {wrong: meant for wrong, meant in pairs}
    alternation = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return Respelling(words, re.compile(rf"(?<![\w'])(?:{alternation})(?![\w])"))
