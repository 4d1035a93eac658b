"""Where the words of a message stand.

Asked a handful of times per message (phrases, masks, names, recalled events), so each ask scans
the words in C (list.count, list.index) rather than indexing every word up front: building a
word-to-places table costs more than the few scans it would save.
"""

from collections.abc import Iterable


class WordPositions:
    __slots__ = ("words", "wordset")

    def __init__(self, words: list[str], wordset: set[str]) -> None:
        self.words = words
        self.wordset = wordset

    def first(self, word: str) -> int | None:
        return self.words.index(word) if word in self.wordset else None

    def of(self, word: str) -> list[int]:
        """Every place of `word`, in order. Counting first spares the ValueError that would end a
        plain `index` loop: raising it costs more than scanning the words."""
        found: list[int] = []
        position = -1
        for _ in range(self.words.count(word) if word in self.wordset else 0):
            position = self.words.index(word, position + 1)
            found.append(position)
        return found

    def in_order(self, found: Iterable[str]) -> list[str]:
        """Words of the message in the order they first appear: set iteration order changes with
        the hash seed, and reasons must not."""
        found = list(found)
        if len(found) < 2:
            return found
        return sorted(found, key=self.words.index)
