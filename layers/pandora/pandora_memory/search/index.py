"""BM25F ranking over chunks and approved memories, held in memory for the warm search path.

Each entry has three fields: the chunk text (body), its heading path and its logical path's words
(weights.py has the formulas). The index ranks one or more segments (segment.py) as a single corpus:
the snapshot's chunks and the approved memories, say. Corpus statistics are summed over the segments
when the index is made; a term's weights are computed from its raw counts the first time a query uses
it and then kept, so making an index costs no per-posting work and a search only adds up postings.
"""

import heapq
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import itemgetter, mul

from pandora_memory.search.analysis import AnalysedEntry, AnalysedPassage, analyse_entry
from pandora_memory.search.records import SearchEntry, SearchHit
from pandora_memory.search.segment import MalformedSnapshotError, Postings, Segment, build_segment
from pandora_memory.search.tokenize import query_terms
from pandora_memory.search.weights import (
    DEFAULT_WEIGHTS,
    FieldWeights,
    average_length,
    idf,
    length_factors,
    saturated,
)

__all__ = [
    "DEFAULT_WEIGHTS",
    "AnalysedEntry",
    "AnalysedPassage",
    "FieldWeights",
    "LexicalIndex",
    "SearchEntry",
    "SearchHit",
    "analyse_entry",
]

Factors = tuple["array[float]", "array[float]", "array[float]"]  # body, heading, path per passage


@dataclass(frozen=True)
class _Postings:
    """Passages holding a term, ascending, with the term's BM25F weight in each (float32 saves memory)."""

    passages: "array[int]"
    weights: "array[float]"
    max_weight: float


def _under(logical_path: str, prefix: str) -> bool:
    """A prefix ending in '/' is a folder; otherwise it names a file or folder exactly."""
    if prefix.endswith("/"):
        return logical_path.startswith(prefix)
    return logical_path == prefix or logical_path.startswith(prefix + "/")


def _refuse_shared_keys(segments: Sequence[Segment]) -> None:
    if len(segments) < 2:
        return
    ordered = sorted(segments, key=len, reverse=True)
    seen = set(ordered[0].keys)
    for segment in ordered[1:]:
        for key in segment.keys:
            if key in seen:
                raise ValueError(f"duplicate search entry key {key!r}")
            seen.add(key)


class LexicalIndex:
    """Postings point at passages (sections of a chunk); an entry scores as its best passage."""

    def __init__(self, segments: Sequence[Segment], weights: FieldWeights = DEFAULT_WEIGHTS) -> None:
        self._segments = tuple(segments)
        self._weights = weights
        _refuse_shared_keys(self._segments)
        self._entry_starts = list(accumulate((len(s) for s in self._segments), initial=0))
        self._passage_starts = list(accumulate((s.passage_count for s in self._segments), initial=0))
        self._keys: list[str] = list(chain.from_iterable(s.keys for s in self._segments))
        self._owners = self._global_owners()
        passages = self._passage_starts[-1]
        self._passage_count = passages
        self._one_passage_each = passages == len(self._keys)  # then passage i is entry i
        self._averages = tuple(
            average_length(sum(sum(s.lengths[field]) for s in self._segments), passages) for field in range(3)
        )
        self._fields_on = (weights.heading != 0.0, weights.path != 0.0)
        self._factors: list[Factors] | None = None
        self._terms: dict[str, _Postings | None] = {}
        self._entry_fields: tuple[list[str], list[str]] | None = None

    @classmethod
    def build(cls, entries: Iterable[SearchEntry], weights: FieldWeights = DEFAULT_WEIGHTS) -> "LexicalIndex":
        return cls.from_analysed(map(analyse_entry, entries), weights)

    @classmethod
    def from_analysed(
        cls, analysed: Iterable[AnalysedEntry], weights: FieldWeights = DEFAULT_WEIGHTS
    ) -> "LexicalIndex":
        return cls([build_segment(analysed)], weights)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[SearchEntry]:
        """Every entry, by key."""
        return map(self._entry, sorted(range(len(self._keys)), key=self._keys.__getitem__))

    def search(
        self, query: str, limit: int = 5, path_prefix: str | None = None, namespace: str | None = None
    ) -> list[SearchHit]:
        """Best entries for the query, highest score first; ties go to the smaller key.

        `path_prefix` keeps entries whose logical path lies under it; `namespace` keeps one namespace
        (production builds one index per namespace, this is a second lock on the door).
        """
        if limit <= 0:
            return []
        allowed = self._filter(path_prefix or None, namespace)
        plan = [
            (weight * postings.max_weight, weight, postings)
            for term, weight in query_terms(query).items()
            if (postings := self._term(term)) is not None
        ]
        plan.sort(key=lambda step: step[0], reverse=True)  # rare, decisive terms first
        scores = self._passage_scores(plan, limit, allowed)
        best = self._entry_scores(scores, allowed)
        if not best:
            return []
        floor = heapq.nlargest(limit, best.values())[-1]
        keys = self._keys
        ranked = sorted((-score, keys[entry], entry) for entry, score in best.items() if score >= floor)
        return [SearchHit(self._entry(entry), -score) for score, _, entry in ranked[:limit]]

    # -- entries and passages across segments -------------------------------------------------------
    def _global_owners(self) -> "array[int]":
        if len(self._segments) == 1:
            return self._segments[0].owners
        owners: array[int] = array("I")
        for segment, start in zip(self._segments, self._entry_starts, strict=False):
            if start or segment.owners.typecode != owners.typecode:
                owners.extend(map(start.__add__, segment.owners))
            else:
                owners.extend(segment.owners)
        return owners

    def _entry(self, index: int) -> SearchEntry:
        number = bisect_right(self._entry_starts, index) - 1
        return self._segments[number].entry(index - self._entry_starts[number])

    def _namespaces_and_paths(self) -> tuple[list[str], list[str]]:
        if self._entry_fields is None:
            self._entry_fields = (
                list(chain.from_iterable(s.namespaces.values() for s in self._segments)),
                list(chain.from_iterable(s.paths.values() for s in self._segments)),
            )
        return self._entry_fields

    # -- term weights, computed on first use --------------------------------------------------------
    def _term(self, term: str) -> _Postings | None:
        try:
            return self._terms[term]
        except KeyError:
            found = self._terms[term] = self._weigh(term)
            return found

    def _passage_factors(self) -> list[Factors]:
        if self._factors is None:
            fields = self._weights.fields()
            self._factors = [
                (
                    length_factors(segment.lengths[0], *fields[0], self._averages[0]),
                    length_factors(segment.lengths[1], *fields[1], self._averages[1]),
                    length_factors(segment.lengths[2], *fields[2], self._averages[2]),
                )
                for segment in self._segments
            ]
        return self._factors

    def _weigh(self, term: str) -> _Postings | None:
        passages: array[int] = array("I")
        frequencies: list[float] = []
        for segment, start, factors in zip(
            self._segments, self._passage_starts, self._passage_factors(), strict=False
        ):
            number = segment.postings.term_numbers.get(term)
            if number is None:
                continue
            found, pseudo = _pseudo_frequencies(segment.postings, number, factors, self._fields_on)
            passages.extend(map(start.__add__, found) if start else found)
            frequencies += pseudo
        if not passages:
            return None
        weights = saturated(idf(self._passage_count, len(passages)), frequencies, self._weights.k1)
        return _Postings(passages, weights, max(weights))

    # -- scoring ------------------------------------------------------------------------------------
    def _passage_scores(
        self, plan: list[tuple[float, float, _Postings]], limit: int, allowed: Callable[[int], bool] | None
    ) -> dict[int, float]:
        """Term-at-a-time scoring with MaxScore pruning.

        Once the k-th best entry so far scores more than every remaining term could add, no passage
        outside the current set can reach the top k: the remaining terms are then looked up only for
        the passages that still can (binary search in their postings) instead of scanning them.
        """
        scores: dict[int, float] = {}
        remaining = sum(bound for bound, _, _ in plan) * (1 + 1e-9)
        for step, (bound, query_weight, postings) in enumerate(plan):
            if step and len(scores) >= limit:
                threshold = self._kth_score(scores, limit, allowed)
                if threshold is not None and remaining < threshold:
                    return self._finish_by_lookup(scores, plan[step:], threshold - remaining)
            get = scores.get
            for passage, weight in zip(postings.passages, postings.weights, strict=True):
                scores[passage] = get(passage, 0.0) + query_weight * weight
            remaining -= bound
        return scores

    @staticmethod
    def _finish_by_lookup(
        scores: dict[int, float], plan: list[tuple[float, float, _Postings]], needed: float
    ) -> dict[int, float]:
        alive = {passage: score for passage, score in scores.items() if score >= needed}
        for _, query_weight, postings in plan:
            passages, weights, size = postings.passages, postings.weights, len(postings.passages)
            for passage in alive:
                index = bisect_left(passages, passage)
                if index < size and passages[index] == passage:
                    alive[passage] += query_weight * weights[index]
        return alive

    def _kth_score(
        self, scores: dict[int, float], limit: int, allowed: Callable[[int], bool] | None
    ) -> float | None:
        """A lower bound of the k-th best entry score, or None when fewer than k entries are known."""
        if self._one_passage_each and allowed is None:
            return heapq.nlargest(limit, scores.values())[-1]
        owners, seen = self._owners, set()
        for passage, score in heapq.nlargest(4 * limit, scores.items(), key=itemgetter(1)):
            owner = owners[passage]
            if owner not in seen and (allowed is None or allowed(owner)):
                seen.add(owner)
                if len(seen) == limit:
                    return score
        return None

    def _entry_scores(
        self, scores: dict[int, float], allowed: Callable[[int], bool] | None
    ) -> dict[int, float]:
        if self._one_passage_each:
            return scores if allowed is None else {e: s for e, s in scores.items() if allowed(e)}
        best: dict[int, float] = {}
        owners = self._owners
        for passage, score in scores.items():
            owner = owners[passage]
            if score > best.get(owner, -1.0) and (allowed is None or allowed(owner)):
                best[owner] = score
        return best

    def _filter(self, path_prefix: str | None, namespace: str | None) -> Callable[[int], bool] | None:
        if path_prefix is None and namespace is None:
            return None
        verdicts: dict[str, bool] = {}
        namespaces, paths = self._namespaces_and_paths()

        def allowed(index: int) -> bool:
            if namespace is not None and namespaces[index] != namespace:
                return False
            if path_prefix is None:
                return True
            logical_path = paths[index]
            verdict = verdicts.get(logical_path)
            if verdict is None:
                verdict = verdicts[logical_path] = _under(logical_path, path_prefix)
            return verdict

        return allowed


def _pseudo_frequencies(
    postings: Postings, number: int, factors: Factors, fields_on: tuple[bool, bool]
) -> tuple["array[int]", list[float]]:
    """One segment's passages of a term and the BM25F pseudo term frequency in each.

    body count * body factor, plus heading and path count * their factors where the term is in those
    fields too. A posting only there is dropped when that field's weight is zero (it never scores).
    """
    start, stop = postings.offsets[number], postings.offsets[number + 1]
    passages = array("I", accumulate(postings.gaps[start:stop]))
    body, heading, path = factors
    if passages and passages[-1] >= len(body):
        raise MalformedSnapshotError("search snapshot postings point past the last passage")
    pseudo = list(map(mul, postings.body[start:stop], map(body.__getitem__, passages)))
    first, last = postings.extras_between(start, stop)
    if first == last:
        return passages, pseudo
    heading_on, path_on = fields_on
    dropped: list[int] = []
    for extra in range(first, last):
        position = postings.extra_at[extra] - start
        passage = passages[position]
        in_heading, in_path = postings.extra_heading[extra], postings.extra_path[extra]
        pseudo[position] = pseudo[position] + in_heading * heading[passage] + in_path * path[passage]
        if not postings.body[start + position] and not ((in_heading and heading_on) or (in_path and path_on)):
            dropped.append(position)
    if dropped:
        keep = sorted(set(range(len(passages))) - set(dropped))
        return array("I", [passages[i] for i in keep]), [pseudo[i] for i in keep]
    return passages, pseudo
