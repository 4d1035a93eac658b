"""The baseline every retrieval evaluation compares against: textbook BM25 over chunk bodies."""

import math
import re
from collections import Counter
from collections.abc import Iterable

from pandora_memory.search.index import SearchEntry


class PlainBM25:
    """Body text only, lower-case \\w+ words, no stemming, stop words or fields."""

    def __init__(self, entries: Iterable[SearchEntry], k1: float = 1.2, b: float = 0.75) -> None:
        self.entries = list(entries)
        self.counts = [Counter(self.words(entry.text)) for entry in self.entries]
        self.lengths = [sum(counts.values()) for counts in self.counts]
        self.average = sum(self.lengths) / len(self.lengths)
        frequency: Counter[str] = Counter()
        for counts in self.counts:
            frequency.update(counts.keys())
        total = len(self.entries)
        self.idf = {term: math.log(1 + (total - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}
        self.k1, self.b = k1, b

    @staticmethod
    def words(text: str) -> list[str]:
        return re.findall(r"\w+", text.lower())

    def rank(self, query: str) -> list[str]:
        terms = set(self.words(query))
        scored = []
        for entry, counts, length in zip(self.entries, self.counts, self.lengths, strict=True):
            score = 0.0
            for term in terms & counts.keys():
                tf = counts[term]
                norm = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * length / self.average))
                score += self.idf[term] * norm
            if score > 0:
                scored.append((score, entry.key))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [key for _, key in scored]
