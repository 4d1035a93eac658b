"""Retrieval quality on a synthetic two-namespace memory corpus, per chunking strategy and vs plain BM25.

A question is answered at rank r when the r-th result comes from the expected file and, if an expected
heading path is given, covers that section: the chunk and the section (the heading's line up to the
next heading of the same or a higher level) overlap by at least half of the chunk or half of the
section. So a whole-file chunk counts, and so does a window inside a long section, but a neighbour
section that merely shares a chunk boundary does not. Hit@1, MRR@5 and Recall@5 are reported; with one
relevant section per question, Recall@5 is the share answered in the top five.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest
from pandora_memory.markdown.chunking import STRATEGIES, ChunkerConfig, chunk_markdown, estimate_tokens
from pandora_memory.search.index import LexicalIndex, SearchEntry, SearchHit
from scoring import report
from unit.search.markdown_files import markdown_files
from unit.search.plain_bm25 import PlainBM25

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = DATA / "retrieval_corpus"
QUESTIONS = DATA / "retrieval_questions.jsonl"
NAMESPACES = ("real_life", "au")
TOP = 5

Span = tuple[str, int, int]  # logical path, start, end


@dataclass(frozen=True)
class Question:
    namespace: str
    question: str
    expected_path: str
    expected_heading: tuple[str, ...]


@dataclass(frozen=True)
class Metrics:
    hit_at_1: float
    mrr: float
    recall_at_5: float
    count: int

    def line(self, name: str) -> str:
        return (
            f"retrieval {name}: Hit@1 {self.hit_at_1:.3f} MRR@5 {self.mrr:.3f} "
            f"Recall@5 {self.recall_at_5:.3f} (n={self.count})"
        )


@cache
def questions() -> tuple[Question, ...]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(
        Question(row["namespace"], row["question"], row["expected_path"], tuple(row["expected_heading"]))
        for row in rows
    )


@cache
def corpus(namespace: str) -> dict[str, str]:
    return markdown_files(CORPUS / namespace)


@cache
def sections(namespace: str, logical_path: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """Every heading path of a file with its section span, from the one-chunk-per-heading strategy."""
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    for chunk in chunk_markdown(corpus(namespace)[logical_path], ChunkerConfig(strategy="heading")):
        for depth in range(1, len(chunk.heading_path) + 1):
            prefix = chunk.heading_path[:depth]
            start, end = found.get(prefix, (chunk.start, chunk.end))
            found[prefix] = (min(start, chunk.start), max(end, chunk.end))
    return found


@cache
def chunked(namespace: str, strategy: str) -> tuple[tuple[SearchEntry, ...], dict[str, Span]]:
    entries: list[SearchEntry] = []
    spans: dict[str, Span] = {}
    for logical_path, text in corpus(namespace).items():
        for chunk in chunk_markdown(text, ChunkerConfig(strategy=strategy)):
            key = f"{logical_path}#{chunk.ordinal:05d}"
            entries.append(SearchEntry(key, namespace, logical_path, chunk.heading_path, chunk.text, "rev-1"))
            spans[key] = (logical_path, chunk.start, chunk.end)
    return tuple(entries), spans


def answers(question: Question, span: Span) -> bool:
    logical_path, start, end = span
    if logical_path != question.expected_path:
        return False
    if not question.expected_heading:
        return True
    section_start, section_end = sections(question.namespace, logical_path)[question.expected_heading]
    overlap = min(end, section_end) - max(start, section_start)
    return overlap > 0 and (2 * overlap >= end - start or 2 * overlap >= section_end - section_start)


Ranker = Callable[[str], list[str]]  # question -> result keys, best first


def evaluate(
    rankers: dict[str, Ranker], spans: dict[str, dict[str, Span]], subset: Iterable[Question]
) -> Metrics:
    hits_at_1 = 0
    reciprocal = 0.0
    found = 0
    chosen = list(subset)
    for question in chosen:
        keys = rankers[question.namespace](question.question)[:TOP]
        rank = next(
            (i for i, key in enumerate(keys, 1) if answers(question, spans[question.namespace][key])), None
        )
        if rank is not None:
            found += 1
            reciprocal += 1 / rank
            hits_at_1 += rank == 1
    count = len(chosen)
    return Metrics(hits_at_1 / count, reciprocal / count, found / count, count)


def lexical_ranker(index: LexicalIndex) -> Ranker:
    return lambda query: [hit.entry.key for hit in index.search(query, limit=TOP)]


@cache
def strategy_metrics(strategy: str) -> Metrics:
    rankers: dict[str, Ranker] = {}
    spans: dict[str, dict[str, Span]] = {}
    for namespace in NAMESPACES:
        entries, spans[namespace] = chunked(namespace, strategy)
        rankers[namespace] = lexical_ranker(LexicalIndex.build(entries))
    return evaluate(rankers, spans, questions())


@cache
def plain_bm25_metrics() -> Metrics:
    rankers: dict[str, Ranker] = {}
    spans: dict[str, dict[str, Span]] = {}
    for namespace in NAMESPACES:
        entries, spans[namespace] = chunked(namespace, "adaptive")
        rankers[namespace] = PlainBM25(entries).rank
    return evaluate(rankers, spans, questions())


def test_questions_point_at_real_files_and_headings() -> None:
    assert len(questions()) >= 60
    assert {question.namespace for question in questions()} == set(NAMESPACES)
    for question in questions():
        assert question.expected_path in corpus(question.namespace), question
        if question.expected_heading:
            assert question.expected_heading in sections(question.namespace, question.expected_path), question


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_each_strategy_is_measured(strategy: str) -> None:
    metrics = strategy_metrics(strategy)
    chunks = [entry for namespace in NAMESPACES for entry in chunked(namespace, strategy)[0]]
    mean_tokens = sum(estimate_tokens(entry.text) for entry in chunks) / len(chunks)
    report(
        metrics.line(f"{strategy} chunks + LexicalIndex")
        + f" chunks={len(chunks)} mean_tokens={mean_tokens:.0f}"
    )
    assert metrics.count == len(questions())
    assert 0.0 <= metrics.hit_at_1 <= metrics.mrr <= metrics.recall_at_5 <= 1.0


def test_adaptive_meets_the_target_and_beats_plain_bm25() -> None:
    adaptive, plain = strategy_metrics("adaptive"), plain_bm25_metrics()
    report(plain.line("plain BM25 (adaptive chunks, body only)"))
    for namespace in NAMESPACES:
        subset = [question for question in questions() if question.namespace == namespace]
        rankers = {namespace: lexical_ranker(LexicalIndex.build(chunked(namespace, "adaptive")[0]))}
        report(
            evaluate(rankers, {namespace: chunked(namespace, "adaptive")[1]}, subset).line(
                f"adaptive, {namespace}"
            )
        )
    assert adaptive.mrr >= plain.mrr
    assert adaptive.hit_at_1 >= 0.85
    assert adaptive.mrr >= 0.90


def test_results_never_cross_namespaces() -> None:
    indexes = {namespace: LexicalIndex.build(chunked(namespace, "adaptive")[0]) for namespace in NAMESPACES}
    for question in questions():
        for namespace, index in indexes.items():
            for hit in index.search(question.question, limit=20):
                assert hit.entry.namespace == namespace


def test_a_mixed_index_filtered_by_namespace_only_returns_that_namespace() -> None:
    mixed = LexicalIndex.build(
        replace(entry, key=f"{namespace}/{entry.key}")
        for namespace in NAMESPACES
        for entry in chunked(namespace, "adaptive")[0]
    )
    shared_words = ["Kael", "deploy", "chapter", "memory", "birthday", "카엘"]
    for query in shared_words + [question.question for question in questions()]:
        for namespace in NAMESPACES:
            hits: list[SearchHit] = mixed.search(query, limit=20, namespace=namespace)
            assert all(hit.entry.namespace == namespace for hit in hits)
    # The filter is not vacuous: the shared words really do match both namespaces unfiltered.
    for query in ["Kael", "deploy", "chapter"]:
        assert {hit.entry.namespace for hit in mixed.search(query, limit=50)} == set(NAMESPACES)
