"""Retrieval quality on long exported conversation logs, chunked and indexed as ingest does it.

The corpus (tests/data/conversation_logs) holds chat exports in both namespaces: "## User" and
"### You" headings, "**User:**" and "**Human:**" labels and plain "User:" transcripts, 28 to 131 turns
each, on topics that share vocabulary on purpose. A question is answered at rank r when the r-th result
comes from the expected file and its text holds the expected passage (case and spacing ignored), so a
result from the right log but the wrong stretch of it is a miss; "top file" is the share whose first
result at least comes from the right log. Hit@1, MRR@5 and Recall@5 are reported for the production
ranking, for plain BM25 on the same chunks, and for the other chunking strategies.
"""

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from pandora_memory.markdown.chunking import STRATEGIES, ChunkerConfig, chunk_markdown, estimate_tokens
from pandora_memory.markdown.structure import analyse
from pandora_memory.markdown.transcript import find_turns
from pandora_memory.search.index import LexicalIndex, SearchEntry
from scoring import report
from unit.search.markdown_files import markdown_files
from unit.search.plain_bm25 import PlainBM25

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = DATA / "conversation_logs"
QUESTIONS = DATA / "conversation_log_questions.jsonl"
NAMESPACES = ("real_life", "au")
KINDS = ("exact", "paraphrase", "decision", "middle")
TOP = 5
_SPACES = re.compile(r"\s+")

Ranker = Callable[[str], list[str]]  # question -> result keys, best first


@dataclass(frozen=True)
class Question:
    namespace: str
    question: str
    expected_path: str
    expected_passage: str
    kind: str


@dataclass(frozen=True)
class Metrics:
    hit_at_1: float
    mrr: float
    recall_at_5: float
    top_file: float
    count: int

    def line(self, name: str) -> str:
        return (
            f"conversation logs {name}: Hit@1 {self.hit_at_1:.3f} MRR@5 {self.mrr:.3f} "
            f"Recall@5 {self.recall_at_5:.3f} top file {self.top_file:.3f} (n={self.count})"
        )


def folded(text: str) -> str:
    return _SPACES.sub(" ", text).casefold()


@cache
def questions() -> tuple[Question, ...]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(
        Question(
            row["namespace"], row["question"], row["expected_path"], row["expected_passage"], row["kind"]
        )
        for row in rows
    )


@cache
def corpus(namespace: str) -> dict[str, str]:
    return markdown_files(CORPUS / namespace)


@cache
def chunked(namespace: str, strategy: str = "adaptive") -> tuple[SearchEntry, ...]:
    """The namespace's chunks as ingest makes them (the default config is adaptive), one entry each."""
    return tuple(
        SearchEntry(
            f"{logical_path}#{chunk.ordinal:05d}",
            namespace,
            logical_path,
            chunk.heading_path,
            chunk.text,
            "rev-1",
        )
        for logical_path, text in corpus(namespace).items()
        for chunk in chunk_markdown(text, ChunkerConfig(strategy=strategy))
    )


@cache
def entries_by_key(namespace: str, strategy: str) -> dict[str, SearchEntry]:
    return {entry.key: entry for entry in chunked(namespace, strategy)}


def answers(question: Question, entry: SearchEntry) -> bool:
    return entry.logical_path == question.expected_path and folded(question.expected_passage) in folded(
        entry.text
    )


def evaluate(rankers: dict[str, Ranker], subset: Iterable[Question], strategy: str = "adaptive") -> Metrics:
    hits_at_1 = 0
    reciprocal = 0.0
    found = 0
    top_file = 0
    chosen = list(subset)
    for question in chosen:
        entries = entries_by_key(question.namespace, strategy)
        results = [entries[key] for key in rankers[question.namespace](question.question)[:TOP]]
        rank = next((i for i, entry in enumerate(results, 1) if answers(question, entry)), None)
        top_file += bool(results) and results[0].logical_path == question.expected_path
        if rank is not None:
            found += 1
            reciprocal += 1 / rank
            hits_at_1 += rank == 1
    count = len(chosen)
    return Metrics(hits_at_1 / count, reciprocal / count, found / count, top_file / count, count)


def lexical_ranker(index: LexicalIndex) -> Ranker:
    return lambda query: [hit.entry.key for hit in index.search(query, limit=TOP)]


@cache
def production_rankers(strategy: str = "adaptive") -> dict[str, Ranker]:
    return {
        namespace: lexical_ranker(LexicalIndex.build(chunked(namespace, strategy)))
        for namespace in NAMESPACES
    }


@cache
def plain_rankers() -> dict[str, Ranker]:
    return {namespace: PlainBM25(chunked(namespace)).rank for namespace in NAMESPACES}


def test_questions_point_at_passages_a_chunk_can_return() -> None:
    assert len(questions()) >= 60
    assert {question.namespace for question in questions()} == set(NAMESPACES)
    assert {question.kind for question in questions()} == set(KINDS)
    for question in questions():
        text = corpus(question.namespace).get(question.expected_path)
        assert text is not None, question
        assert folded(question.expected_passage) in folded(text), question
        # Otherwise no ranking could answer it: the passage would straddle a chunk boundary.
        assert any(answers(question, entry) for entry in chunked(question.namespace)), question


def test_the_logs_are_long_conversations_that_ingest_reads_as_chat_logs() -> None:
    for namespace in NAMESPACES:
        for logical_path, text in corpus(namespace).items():
            assert len(find_turns(analyse(text))) >= 20, logical_path
            assert len(text.split()) >= 1500, logical_path


@pytest.mark.parametrize("strategy", [strategy for strategy in STRATEGIES if strategy != "whole_file"])
def test_each_chunking_strategy_is_measured(strategy: str) -> None:
    # A whole log as one chunk always "holds the passage", so whole_file says nothing here.
    metrics = evaluate(production_rankers(strategy), questions(), strategy)
    chunks = [entry for namespace in NAMESPACES for entry in chunked(namespace, strategy)]
    mean_tokens = sum(estimate_tokens(entry.text) for entry in chunks) / len(chunks)
    report(
        metrics.line(f"{strategy} chunks + LexicalIndex")
        + f" chunks={len(chunks)} mean_tokens={mean_tokens:.0f}"
    )
    assert metrics.count == len(questions())
    assert 0.0 <= metrics.hit_at_1 <= metrics.mrr <= metrics.recall_at_5 <= 1.0


def test_production_ranking_beats_plain_bm25_on_conversation_logs() -> None:
    adaptive = evaluate(production_rankers(), questions())
    plain = evaluate(plain_rankers(), questions())
    report(plain.line("plain BM25 (adaptive chunks, body only)"))
    for kind in KINDS:
        subset = [question for question in questions() if question.kind == kind]
        report(evaluate(production_rankers(), subset).line(f"adaptive, {kind} questions"))
    for namespace in NAMESPACES:
        subset = [question for question in questions() if question.namespace == namespace]
        report(evaluate(production_rankers(), subset).line(f"adaptive, {namespace}"))
    assert adaptive.hit_at_1 > plain.hit_at_1
    assert adaptive.mrr > plain.mrr
    assert adaptive.hit_at_1 >= 0.68
    assert adaptive.mrr >= 0.77
    # Exchanges as chunks beat one chunk per heading (per turn, in these logs) and blind windows.
    for strategy in ("heading", "window"):
        assert adaptive.mrr > evaluate(production_rankers(strategy), questions(), strategy).mrr


def test_results_never_cross_namespaces() -> None:
    indexes = {namespace: LexicalIndex.build(chunked(namespace)) for namespace in NAMESPACES}
    for question in questions():
        for namespace, index in indexes.items():
            hits = index.search(question.question, limit=20)
            assert all(hit.entry.namespace == namespace for hit in hits)


def test_a_mixed_index_filtered_by_namespace_keeps_to_that_namespace() -> None:
    mixed = LexicalIndex.build(entry for namespace in NAMESPACES for entry in chunked(namespace))
    for question in questions():
        for namespace in NAMESPACES:
            hits = mixed.search(question.question, limit=20, namespace=namespace)
            assert all(hit.entry.namespace == namespace for hit in hits)
    # Not vacuous: these words are in both namespaces' logs, so the unfiltered index mixes them.
    for shared in ("memory", "salt", "decide"):
        assert {hit.entry.namespace for hit in mixed.search(shared, limit=50)} == set(NAMESPACES)
