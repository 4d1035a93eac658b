"""The retrieval evaluation set of tests/data: corpus chunks, questions, and when a result answers one.

Same rule as tests/unit/search/test_retrieval_quality.py: a result at rank r answers a question when it
comes from the expected file and, if a heading path is expected, overlaps that section by at least half
of the chunk or half of the section. Hit@1 and MRR@5 over the questions.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pandora_memory.markdown.chunking import ChunkerConfig, chunk_markdown
from pandora_memory.search.index import SearchEntry

from bench.report import REPO_ROOT

DATA = REPO_ROOT / "tests" / "data"
CORPUS = DATA / "retrieval_corpus"
QUESTIONS = DATA / "retrieval_questions.jsonl"
NAMESPACES = ("real_life", "au")
TOP = 5


@dataclass(frozen=True)
class Question:
    namespace: str
    text: str
    expected_path: str
    expected_heading: tuple[str, ...]


@dataclass(frozen=True)
class Span:
    logical_path: str
    start: int
    end: int


@dataclass(frozen=True)
class Quality:
    hit_at_1: float
    mrr: float
    count: int


def available() -> bool:
    return QUESTIONS.exists() and CORPUS.is_dir()


@cache
def questions() -> tuple[Question, ...]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(
        Question(row["namespace"], row["question"], row["expected_path"], tuple(row["expected_heading"]))
        for row in rows
    )


@cache
def _files(namespace: str) -> dict[str, str]:
    root = CORPUS / namespace
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob("*.md"))
    }


@cache
def corpus_entries() -> tuple[tuple[SearchEntry, ...], dict[str, Span]]:
    """The corpus as the ingest chunks it (default adaptive chunker), keyed uniquely across namespaces."""
    entries: list[SearchEntry] = []
    spans: dict[str, Span] = {}
    for namespace in NAMESPACES:
        for logical_path, text in _files(namespace).items():
            for chunk in chunk_markdown(text):
                key = f"{namespace}/{logical_path}#{chunk.ordinal:05d}"
                entries.append(
                    SearchEntry(key, namespace, logical_path, chunk.heading_path, chunk.text, "rev-1")
                )
                spans[key] = Span(logical_path, chunk.start, chunk.end)
    return tuple(entries), spans


@cache
def _sections(namespace: str, logical_path: str) -> dict[tuple[str, ...], tuple[int, int]]:
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    for chunk in chunk_markdown(_files(namespace)[logical_path], ChunkerConfig(strategy="heading")):
        for depth in range(1, len(chunk.heading_path) + 1):
            prefix = chunk.heading_path[:depth]
            start, end = found.get(prefix, (chunk.start, chunk.end))
            found[prefix] = (min(start, chunk.start), max(end, chunk.end))
    return found


def answers(question: Question, span: Span | None) -> bool:
    if span is None or span.logical_path != question.expected_path:
        return False
    if not question.expected_heading:
        return True
    section_start, section_end = _sections(question.namespace, span.logical_path)[question.expected_heading]
    overlap = min(span.end, section_end) - max(span.start, section_start)
    return overlap > 0 and (
        2 * overlap >= span.end - span.start or 2 * overlap >= section_end - section_start
    )


Ranker = Callable[[str, str], Sequence[str]]  # (namespace, question) -> result keys, best first


def evaluate(ranker: Ranker, chosen: Sequence[Question] | None = None) -> Quality:
    """Hit@1 and MRR@5; keys of distractor chunks simply never answer."""
    _, spans = corpus_entries()
    chosen = list(questions() if chosen is None else chosen)
    hits, reciprocal = 0, 0.0
    for question in chosen:
        keys = list(ranker(question.namespace, question.text))[:TOP]
        rank = next((i for i, key in enumerate(keys, 1) if answers(question, spans.get(key))), None)
        if rank is not None:
            reciprocal += 1 / rank
            hits += rank == 1
    return Quality(hits / len(chosen), reciprocal / len(chosen), len(chosen))


def corpus_path() -> Path:
    return CORPUS
