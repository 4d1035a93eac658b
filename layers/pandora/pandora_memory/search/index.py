"""BM25F ranking over chunks and approved memories, held in memory for the warm search path.

Each entry has three fields: the chunk text (body), its heading path and its logical path's words.
A term's weight in an entry is BM25F: the field term frequencies, each length-normalised and weighted,
are summed before BM25's saturation, then multiplied by the term's idf. That weight does not depend on
the query, so it is computed once at build time; a search only adds up the postings of its terms.
"""

import heapq
import itertools
import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import itemgetter

from pandora_memory.search.passages import split_passages
from pandora_memory.search.tokenize import heading_terms, path_terms, query_terms, term_counts


@dataclass(frozen=True)
class SearchEntry:
    key: str
    namespace: str
    logical_path: str
    heading_path: tuple[str, ...]
    text: str
    revision_id: str
    kind: str = "chunk"  # or "memory"


@dataclass(frozen=True)
class SearchHit:
    entry: SearchEntry
    score: float


@dataclass(frozen=True)
class FieldWeights:
    """BM25F parameters: weight and length normalisation per field, and the shared saturation k1."""

    body: float = 1.0
    heading: float = 2.0
    path: float = 2.0
    body_b: float = 0.75
    heading_b: float = 0.4
    path_b: float = 0.4
    k1: float = 1.2


DEFAULT_WEIGHTS = FieldWeights()


@dataclass(frozen=True)
class AnalysedPassage:
    heading_path: tuple[str, ...]
    body_terms: Mapping[str, int]


@dataclass(frozen=True)
class AnalysedEntry:
    """An entry with its passages already turned into term counts (what a snapshot stores)."""

    entry: SearchEntry
    passages: tuple[AnalysedPassage, ...]


def analyse_entry(entry: SearchEntry) -> AnalysedEntry:
    passages = split_passages(entry.text, entry.heading_path)
    return AnalysedEntry(entry, tuple(AnalysedPassage(p.heading_path, term_counts(p.text)) for p in passages))


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


class _FieldCache:
    """Heading and path terms are shared by every chunk of a section or file: count them once."""

    def __init__(self) -> None:
        self._headings: dict[tuple[str, ...], Counter[str]] = {}
        self._paths: dict[str, Counter[str]] = {}

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


def _average(lengths: list[int]) -> float:
    return (sum(lengths) / len(lengths)) if lengths and sum(lengths) else 1.0


class LexicalIndex:
    """Postings point at passages (sections of a chunk); an entry scores as its best passage."""

    def __init__(
        self, entries: list[SearchEntry], owners: "array[int]", postings: dict[str, _Postings]
    ) -> None:
        self._entries = entries
        self._owners = owners  # passage -> entry
        self._one_passage_each = len(owners) == len(entries)  # then passage i is entry i
        self._postings = postings

    @classmethod
    def build(cls, entries: Iterable[SearchEntry], weights: FieldWeights = DEFAULT_WEIGHTS) -> "LexicalIndex":
        return cls.from_analysed((analyse_entry(entry) for entry in entries), weights)

    @classmethod
    def from_analysed(
        cls, analysed: Iterable[AnalysedEntry], weights: FieldWeights = DEFAULT_WEIGHTS
    ) -> "LexicalIndex":
        ordered = sorted(analysed, key=lambda item: item.entry.key)  # results never depend on input order
        for previous, current in itertools.pairwise(ordered):
            if previous.entry.key == current.entry.key:
                raise ValueError(f"duplicate search entry key {current.entry.key!r}")
        fields = _FieldCache()
        owners = array("I")
        field_counts: list[tuple[Mapping[str, int], Counter[str], Counter[str]]] = []
        for owner, item in enumerate(ordered):
            path = fields.path(item.entry.logical_path)
            for section in item.passages:
                owners.append(owner)
                field_counts.append((section.body_terms, fields.heading(section.heading_path), path))
        lengths = [tuple(sum(counts.values()) for counts in fields_of) for fields_of in field_counts]
        averages = tuple(_average([length[i] for length in lengths]) for i in range(3))

        # term -> [passage, pseudo frequency, passage, pseudo frequency, ...]
        gathered: dict[str, list[float]] = {}
        get = gathered.get
        for passage, counts in enumerate(field_counts):
            for term, frequency in _combined_frequencies(counts, lengths[passage], averages, weights).items():
                found = get(term)
                if found is None:
                    gathered[term] = [passage, frequency]
                else:
                    found += (passage, frequency)

        count = len(field_counts)
        k1 = weights.k1
        postings: dict[str, _Postings] = {}
        for term, flat in gathered.items():
            frequency = len(flat) // 2
            idf = math.log(1.0 + (count - frequency + 0.5) / (frequency + 0.5))
            term_weights = array("f", [idf * tf / (k1 + tf) for tf in flat[1::2]])
            postings[term] = _Postings(array("I", map(int, flat[0::2])), term_weights, max(term_weights))
        return cls([item.entry for item in ordered], owners, postings)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[SearchEntry]:
        return iter(self._entries)

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
            if (postings := self._postings.get(term)) is not None
        ]
        plan.sort(key=lambda step: step[0], reverse=True)  # rare, decisive terms first
        scores = self._passage_scores(plan, limit, allowed)
        best = self._entry_scores(scores, allowed)
        if not best:
            return []
        floor = heapq.nlargest(limit, best.values())[-1]
        ranked = sorted(((-score, entry) for entry, score in best.items() if score >= floor))[:limit]
        return [SearchHit(self._entries[entry], -score) for score, entry in ranked]

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
        entries = self._entries

        def allowed(index: int) -> bool:
            entry = entries[index]
            if namespace is not None and entry.namespace != namespace:
                return False
            if path_prefix is None:
                return True
            verdict = verdicts.get(entry.logical_path)
            if verdict is None:
                verdict = verdicts[entry.logical_path] = _under(entry.logical_path, path_prefix)
            return verdict

        return allowed


def _combined_frequencies(
    counts: tuple[Mapping[str, int], Mapping[str, int], Mapping[str, int]],
    lengths: tuple[int, ...],
    averages: tuple[float, ...],
    weights: FieldWeights,
) -> dict[str, float]:
    """BM25F pseudo term frequency: sum over fields of weight * tf / length normalisation."""
    body, heading, path = counts

    def factor(weight: float, b: float, field: int) -> float:
        return weight / ((1.0 - b) + b * lengths[field] / averages[field])

    body_factor = factor(weights.body, weights.body_b, 0)
    combined = {term: frequency * body_factor for term, frequency in body.items()}
    for field_counts, field_factor in (
        (heading, factor(weights.heading, weights.heading_b, 1)),
        (path, factor(weights.path, weights.path_b, 2)),
    ):
        if field_factor:
            for term, frequency in field_counts.items():
                combined[term] = combined.get(term, 0.0) + frequency * field_factor
    return combined
