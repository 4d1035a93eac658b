"""One document's entries replaced in a segment, without tokenizing any other document again.

Entries are ordered by (logical path, key), so a document is one run of entries and one run of
passages. The new entries are analysed into a small segment that takes the old run's place: per term,
postings before the run are copied, the new ones inserted, and the ones after it copied with only their
first gap changed (gaps are relative, so a shifted tail keeps them). The result is the segment a fresh
build of the same entries would give, array for array; text blocks away from the change are reused.
"""

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate, chain, repeat
from operator import add, gt

from pandora_memory.search.analysis import analyse_entry
from pandora_memory.search.records import SearchEntry
from pandora_memory.search.segment import Column, MalformedSnapshotError, Postings, Segment, T, build_segment
from pandora_memory.search.texts import splice_texts


def _joined(parts: Iterable[Iterable[int]]) -> "array[int]":
    joined: array[int] = array("I")
    for part in parts:
        joined.extend(part if isinstance(part, array) and part.typecode == "I" else iter(part))
    return joined


def _column(old: Column[T], start: int, stop: int, new: Column[T]) -> Column[T]:
    return Column.of(chain(old.values(0, start), new.values(), old.values(stop)))


def replace_document(segment: Segment, logical_path: str, entries: Sequence[SearchEntry]) -> Segment:
    """`segment` with the entries of `logical_path` replaced by `entries` (none: the document leaves)."""
    strays = [entry.key for entry in entries if entry.logical_path != logical_path]
    if strays:
        raise ValueError(f"entries {strays[:3]!r} do not belong to {logical_path!r}")
    paths = segment.entry_paths
    if any(map(gt, paths[:-1], paths[1:])):
        raise MalformedSnapshotError("search segment entries are not in logical path order")
    start, stop = bisect_left(paths, logical_path), bisect_right(paths, logical_path)
    added = build_segment(map(analyse_entry, entries))
    new_keys = set(added.keys)
    clash = next((key for key in chain(segment.keys[:start], segment.keys[stop:]) if key in new_keys), None)
    if clash is not None:
        raise ValueError(f"duplicate search entry key {clash!r}")
    first, last = segment.passages_of(start, stop)
    entry_shift = len(added) - (stop - start)
    return Segment(
        keys=[*segment.keys[:start], *added.keys, *segment.keys[stop:]],
        namespaces=_column(segment.namespaces, start, stop, added.namespaces),
        paths=_column(segment.paths, start, stop, added.paths),
        headings=_column(segment.headings, start, stop, added.headings),
        revisions=_column(segment.revisions, start, stop, added.revisions),
        kinds=_column(segment.kinds, start, stop, added.kinds),
        texts=splice_texts(
            segment.texts,
            segment.keys,
            start,
            stop,
            added.keys,
            [added.texts.text(i) for i in range(len(added))],
        ),
        owners=_joined(
            (
                segment.owners[:first],
                map(add, added.owners, repeat(start)),
                map(add, segment.owners[last:], repeat(entry_shift)),
            )
        ),
        lengths=(
            _joined((segment.lengths[0][:first], added.lengths[0], segment.lengths[0][last:])),
            _joined((segment.lengths[1][:first], added.lengths[1], segment.lengths[1][last:])),
            _joined((segment.lengths[2][:first], added.lengths[2], segment.lengths[2][last:])),
        ),
        postings=_merge(segment.postings, added.postings, first, last, added.passage_count - (last - first)),
    )


class _Writer:
    """The merged postings, appended term by term or run by run."""

    def __init__(self) -> None:
        self.vocabulary: list[str] = []
        self.offsets: array[int] = array("I", [0])
        self.gaps: array[int] = array("I")
        self.body: array[int] = array("I")
        self.extra_at: array[int] = array("I")
        self.extra_heading: array[int] = array("I")
        self.extra_path: array[int] = array("I")

    def copy(self, source: Postings, start: int, stop: int) -> None:
        """Postings start..stop of `source` as they are, with their extras."""
        moved_by = len(self.gaps) - start
        self.gaps.extend(_same_kind(source.gaps[start:stop]))
        self.body.extend(_same_kind(source.body[start:stop]))
        first, last = source.extras_between(start, stop)
        if first < last:
            self.extra_at.extend(map(add, source.extra_at[first:last], repeat(moved_by)))
            self.extra_heading.extend(_same_kind(source.extra_heading[first:last]))
            self.extra_path.extend(_same_kind(source.extra_path[first:last]))

    def copy_terms(self, source: Postings, first: int, last: int) -> None:
        """Terms first..last of `source` with all their postings."""
        start, stop = source.offsets[first], source.offsets[last]
        moved_by = len(self.gaps) - start
        self.copy(source, start, stop)
        self.vocabulary.extend(source.vocabulary[first:last])
        self.offsets.extend(map(add, source.offsets[first + 1 : last + 1], repeat(moved_by)))

    def close(self, term: str, begin: int) -> None:
        if len(self.gaps) > begin:
            self.vocabulary.append(term)
            self.offsets.append(len(self.gaps))

    def postings(self) -> Postings:
        return Postings(
            self.vocabulary,
            self.offsets,
            self.gaps,
            self.body,
            self.extra_at,
            self.extra_heading,
            self.extra_path,
        )


def _same_kind(values: "array[int]") -> "array[int] | Iterable[int]":
    return values if values.typecode == "I" else iter(values)


def _merge(old: Postings, new: Postings, start: int, stop: int, shift: int) -> Postings:
    """Old postings without passages start..stop, the new ones (numbered from `start`) in their place,
    and old passages from `stop` on moved by `shift`.

    Passage numbers come from prefix sums of all gaps (one C-level pass): a term's passage at posting k
    is `ends[k] - ends[first posting - 1]`, and `ends` is non-decreasing, so bisect finds the change
    inside each term. Terms the change does not touch are copied in runs; the one gap each has across
    the change is patched afterwards.
    """
    ends = array("Q", accumulate(old.gaps))
    writer = _Writer()
    patches: list[int] = []  # output gap positions that cross the change
    run: int | None = None  # first old term number of the pending run of untouched terms
    old_numbers, new_numbers = old.term_numbers, new.term_numbers
    for term in sorted(old_numbers.keys() | new_numbers.keys()):
        number = old_numbers.get(term)
        if number is not None:
            low, high = old.offsets[number], old.offsets[number + 1]
            base = ends[low - 1] if low else 0
            kept = bisect_left(ends, base + start, low, high)  # first posting at or after the document
            resume = bisect_left(ends, base + stop, kept, high)  # first posting after it
            if kept == resume and term not in new_numbers:
                if run is None:
                    run, run_out = number, len(writer.gaps) - low
                if kept < high and shift:
                    patches.append(run_out + kept)
                continue
        if run is not None:
            writer.copy_terms(old, run, number if number is not None else _next_old(old, term))
            run = None
        begin, previous = len(writer.gaps), 0
        if number is not None and kept > low:
            writer.copy(old, low, kept)
            previous = ends[kept - 1] - base
        added = new_numbers.get(term)
        if added is not None:
            new_low, new_high = new.offsets[added], new.offsets[added + 1]
            position = len(writer.gaps)
            writer.copy(new, new_low, new_high)
            writer.gaps[position] += start - previous
            previous = start + sum(new.gaps[new_low:new_high])
        if number is not None and resume < high:
            position = len(writer.gaps)
            writer.copy(old, resume, high)
            writer.gaps[position] = ends[resume] - base + shift - previous
        writer.close(term, begin)
    if run is not None:
        writer.copy_terms(old, run, len(old.vocabulary))
    for position in patches:
        writer.gaps[position] += shift
    return writer.postings()


def _next_old(old: Postings, term: str) -> int:
    """The number of the first old term after `term` (a term only the new document has)."""
    return bisect_left(old.vocabulary, term)
