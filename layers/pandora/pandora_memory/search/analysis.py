"""Entries turned into term counts: the only place that tokenizes what gets indexed.

A chunk is cut into passages (its sections); each passage has body term counts, and shares the heading
and path term counts of its heading path and logical path, which are counted once per distinct value.
"""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from pandora_memory.search.passages import split_passages
from pandora_memory.search.records import SearchEntry
from pandora_memory.search.tokenize import heading_terms, path_terms, term_counts


@dataclass(frozen=True)
class AnalysedPassage:
    heading_path: tuple[str, ...]
    body_terms: Mapping[str, int]


@dataclass(frozen=True)
class AnalysedEntry:
    """An entry with its passages already turned into term counts."""

    entry: SearchEntry
    passages: tuple[AnalysedPassage, ...]


def analyse_entry(entry: SearchEntry) -> AnalysedEntry:
    passages = split_passages(entry.text, entry.heading_path)
    return AnalysedEntry(entry, tuple(AnalysedPassage(p.heading_path, term_counts(p.text)) for p in passages))


# (term, heading count, path count) of every term in a passage's heading or path field.
FieldTerms = tuple[tuple[str, int, int], ...]


class FieldTermCache:
    """Heading and path terms are shared by every passage of a section or file: count them once."""

    def __init__(self) -> None:
        self._headings: dict[tuple[str, ...], Counter[str]] = {}
        self._paths: dict[str, Counter[str]] = {}
        self._pairs: dict[tuple[tuple[str, ...], str], FieldTerms] = {}

    def heading(self, heading_path: tuple[str, ...]) -> Counter[str]:
        found = self._headings.get(heading_path)
        if found is None:
            found = self._headings[heading_path] = Counter(heading_terms(heading_path))
        return found

    def path(self, logical_path: str) -> Counter[str]:
        found = self._paths.get(logical_path)
        if found is None:
            found = self._paths[logical_path] = Counter(path_terms(logical_path))
        return found

    def field_terms(self, heading_path: tuple[str, ...], logical_path: str) -> FieldTerms:
        found = self._pairs.get((heading_path, logical_path))
        if found is None:
            heading, path = self.heading(heading_path), self.path(logical_path)
            found = tuple((term, heading.get(term, 0), path.get(term, 0)) for term in {**heading, **path})
            self._pairs[(heading_path, logical_path)] = found
        return found
