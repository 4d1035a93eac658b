"""A segment: analysed entries held column by column, with their inverted index of raw term counts.

Entries are ordered by (logical path, key), so one document's entries and passages are contiguous.
Postings keep counts, not weights: a weight depends on corpus-wide statistics (passage count, average
field lengths, document frequency), which change whenever another segment (approved memories) joins or
a document is replaced. Per term, postings are ascending passage numbers stored as gaps (the first one
absolute), with the body count of each; the few postings whose term is also in the passage's heading or
path carry those counts in a sparse side table ("extras", addressed by posting position).
"""

import itertools
from array import array
from bisect import bisect_left
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import sub
from typing import Generic, TypeVar

from pandora_memory.search.analysis import AnalysedEntry, FieldTermCache
from pandora_memory.search.records import SearchEntry
from pandora_memory.search.texts import ListTexts, TextStore

T = TypeVar("T", bound=Hashable)


class MalformedSnapshotError(ValueError):
    """Stored search data that does not decode into a consistent segment."""


@dataclass(frozen=True)
class Column(Generic[T]):
    """One value per entry, as indexes into a table of distinct values in first-appearance order."""

    table: list[T]
    ids: "array[int]"

    @classmethod
    def of(cls, values: Iterable[T]) -> "Column[T]":
        positions: dict[T, int] = {}
        ids = array("I", [positions.setdefault(value, len(positions)) for value in values])
        return cls(list(positions), ids)

    def __getitem__(self, index: int) -> T:
        return self.table[self.ids[index]]

    def values(self, start: int = 0, stop: int | None = None) -> Iterator[T]:
        return map(self.table.__getitem__, self.ids[start:stop])


@dataclass(frozen=True)
class Postings:
    """Every term's postings, concatenated in vocabulary order; `offsets[t]:offsets[t + 1]` is term t's."""

    vocabulary: list[str]  # sorted
    offsets: "array[int]"
    gaps: "array[int]"
    body: "array[int]"
    extra_at: "array[int]"  # posting positions (ascending) whose term is in the heading or path too
    extra_heading: "array[int]"
    extra_path: "array[int]"

    @cached_property
    def term_numbers(self) -> dict[str, int]:
        return dict(zip(self.vocabulary, range(len(self.vocabulary)), strict=True))

    def extras_between(self, start: int, stop: int) -> tuple[int, int]:
        return bisect_left(self.extra_at, start), bisect_left(self.extra_at, stop)


@dataclass(frozen=True, eq=False)
class Segment:
    keys: list[str]
    namespaces: Column[str]
    paths: Column[str]
    headings: Column[tuple[str, ...]]
    revisions: Column[str]
    kinds: Column[str]
    texts: TextStore
    owners: "array[int]"  # passage -> entry (non-decreasing)
    lengths: tuple["array[int]", "array[int]", "array[int]"]  # body, heading, path length per passage
    postings: Postings

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def passage_count(self) -> int:
        return len(self.owners)

    def entry(self, index: int) -> SearchEntry:
        return SearchEntry(
            key=self.keys[index],
            namespace=self.namespaces[index],
            logical_path=self.paths[index],
            heading_path=self.headings[index],
            text=self.texts.text(index),
            revision_id=self.revisions[index],
            kind=self.kinds[index],
        )

    def entries(self) -> Iterator[SearchEntry]:
        return map(self.entry, range(len(self)))

    @cached_property
    def entry_paths(self) -> list[str]:
        return list(self.paths.values())

    def passages_of(self, start: int, stop: int) -> tuple[int, int]:
        """The passage range of entries start..stop."""
        return bisect_left(self.owners, start), bisect_left(self.owners, stop)


def empty_segment() -> Segment:
    return build_segment([])


def _refuse_duplicates(keys: Iterable[str]) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"duplicate search entry key {key!r}")
        seen.add(key)


def entry_order(item: AnalysedEntry) -> tuple[str, str]:
    return item.entry.logical_path, item.entry.key


def build_segment(analysed: Iterable[AnalysedEntry]) -> Segment:
    ordered = sorted(analysed, key=entry_order)
    keys = [item.entry.key for item in ordered]
    _refuse_duplicates(keys)
    fields = FieldTermCache()
    owners: array[int] = array("I")
    lengths: tuple[array[int], array[int], array[int]] = (array("I"), array("I"), array("I"))
    gathered: dict[str, list[int]] = {}  # term -> [passage, body count, passage, body count...]
    extras: dict[str, list[int]] = {}  # term -> [posting position, heading count, path count...]
    passage = 0
    for owner, item in enumerate(ordered):
        path = item.entry.logical_path
        path_length = fields.path(path).total()
        for section in item.passages:
            owners.append(owner)
            body = section.body_terms
            lengths[0].append(sum(body.values()))
            lengths[1].append(fields.heading(section.heading_path).total())
            lengths[2].append(path_length)
            _gather_body(gathered, passage, body)
            for term, heading_count, path_count in fields.field_terms(section.heading_path, path):
                if term in body:
                    flat = gathered[term]  # this passage's posting is its last one
                else:
                    flat = gathered.setdefault(term, [])
                    flat += (passage, 0)
                extras.setdefault(term, []).extend((len(flat) // 2 - 1, heading_count, path_count))
            passage += 1
    return Segment(
        keys=keys,
        namespaces=Column.of(item.entry.namespace for item in ordered),
        paths=Column.of(item.entry.logical_path for item in ordered),
        headings=Column.of(item.entry.heading_path for item in ordered),
        revisions=Column.of(item.entry.revision_id for item in ordered),
        kinds=Column.of(item.entry.kind for item in ordered),
        texts=ListTexts([item.entry.text for item in ordered]),
        owners=owners,
        lengths=lengths,
        postings=_concatenate(gathered, extras),
    )


def _gather_body(gathered: dict[str, list[int]], passage: int, body: Mapping[str, int]) -> None:
    get = gathered.get
    for term, count in body.items():
        flat = get(term)
        if flat is None:
            gathered[term] = [passage, count]
        else:
            flat += (passage, count)


def gaps_of(passages: Sequence[int]) -> Iterator[int]:
    """First passage, then the distance from each passage to the next."""
    return itertools.chain(passages[:1], map(sub, passages[1:], passages))


def _concatenate(gathered: dict[str, list[int]], extras: dict[str, list[int]]) -> Postings:
    vocabulary = sorted(gathered)
    offsets: array[int] = array("I", [0])
    gaps: array[int] = array("I")
    body: array[int] = array("I")
    extra_at: array[int] = array("I")
    extra_heading: array[int] = array("I")
    extra_path: array[int] = array("I")
    for term in vocabulary:
        flat = gathered[term]
        start = offsets[-1]
        gaps.extend(gaps_of(flat[0::2]))
        body.extend(flat[1::2])
        offsets.append(start + len(flat) // 2)
        found = extras.get(term)
        if found:
            # Passages were visited in order, so positions are already ascending.
            extra_at.extend(start + position for position in found[0::3])
            extra_heading.extend(found[1::3])
            extra_path.extend(found[2::3])
    return Postings(vocabulary, offsets, gaps, body, extra_at, extra_heading, extra_path)
