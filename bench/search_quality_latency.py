"""Search quality and warm latency at 1k, 10k and 100k chunks, beside rank-bm25 and SQLite FTS5.

Every size indexes the same entries in all three engines (bench/search_engines.py): the chunks of the
retrieval evaluation corpus (tests/data/retrieval_corpus, both namespaces, chunked as ingest chunks
them) plus synthetic distractor chunks up to the size (bench/corpus.py: 40-300 words of a person's
vocabulary, split between the namespaces). Quality is Hit@1 and MRR@5 on the evaluation questions
(tests/data/retrieval_questions.jsonl), each searched in its own namespace; a distractor never answers.
Latency is per query, warm (index built, ten queries first), the questions as the workload, the three
engines timed one after another on each query in rotating order so machine noise hits them alike;
the timed calls are the ones scored.
Memory is the resident-set growth while each engine is built at the largest size (the chunk entries
themselves already exist; FTS5 keeps its own copy of the text).
Aims: quality at least the others' at every size; median latency within twice FTS5's.
"Pandora stored shards" is the search reader's shape: one index per namespace over that namespace's
shards as stored in S3 (cut by path hash, encoded and decoded). Its rankings are compared, question by
question (keys and scores), with one whole-namespace snapshot of the same entries, the format it
replaced: they must be identical.
"""

import gc
import os
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.shards import ROOT, leaves
from pandora_memory.search.snapshot import decode_shard, decode_snapshot, encode_snapshot

from bench.corpus import distractor_entries
from bench.plots import line_panels
from bench.report import REPORT_PATH, Section, median, percentile
from bench.retrieval_eval import NAMESPACES, TOP, Quality, Ranker, corpus_entries, evaluate, questions
from bench.search_engines import Fts5Engine, PandoraEngine, RankBm25Engine, fts5_compiled_in

SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 3_000)
# rank-bm25 scores every document in Python for each query term: about a second a query at 100k.
ROUNDS_UP_TO_10K, ROUNDS_ABOVE = 3, 1
PLOT = REPORT_PATH.parent / "bench-search-latency.png"
LATENCY_AIM = 2.0


class Engine(Protocol):
    name: str

    def __init__(self, entries: Sequence[SearchEntry]) -> None: ...

    def search(self, namespace: str, query: str) -> list[str]: ...


def _by_namespace(entries: Sequence[SearchEntry]) -> dict[str, list[SearchEntry]]:
    grouped: dict[str, list[SearchEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.namespace, []).append(entry)
    return grouped


def stored_shards_index(entries: Sequence[SearchEntry]) -> LexicalIndex:
    """One namespace's index as the reader loads it: its shards, each encoded and decoded."""
    documents = {entry.logical_path: entry.revision_id for entry in entries}
    cut = leaves(ROOT, documents, entries)
    return LexicalIndex([decode_shard(encode_snapshot(shard.segment, shard.documents))[0] for shard in cut])


class StoredShardsEngine:
    name = "Pandora stored shards"

    def __init__(self, entries: Sequence[SearchEntry]) -> None:
        grouped = _by_namespace(entries).items()
        self.indexes = {namespace: stored_shards_index(own) for namespace, own in grouped}

    def search(self, namespace: str, query: str) -> list[str]:
        return [
            hit.entry.key for hit in self.indexes[namespace].search(query, limit=TOP, namespace=namespace)
        ]


def oracle_agreement(entries: Sequence[SearchEntry], engine: StoredShardsEngine) -> tuple[int, int]:
    """Questions whose top results (keys and scores) equal one whole-namespace snapshot's, and all."""
    whole = {
        namespace: LexicalIndex([decode_snapshot(encode_snapshot(own))])
        for namespace, own in _by_namespace(entries).items()
    }
    asked = questions()
    same = 0
    for question in asked:
        ranked = [
            [(hit.entry.key, hit.score) for hit in index.search(question.text, limit=TOP)]
            for index in (whole[question.namespace], engine.indexes[question.namespace])
        ]
        same += ranked[0] == ranked[1]
    return same, len(asked)


ENGINES: tuple[type[Engine], ...] = (PandoraEngine, RankBm25Engine, Fts5Engine)


@dataclass(frozen=True)
class ShardFigures:
    build_s: float
    median_ms: float
    same: int
    asked: int


def measure_stored_shards(size: int) -> ShardFigures:
    """The reader's shape at one size: build time, warm median latency and agreement with one snapshot."""
    entries = entries_of_size(size)
    started = time.perf_counter()
    engine = StoredShardsEngine(entries)
    build_s = time.perf_counter() - started
    same, asked = oracle_agreement(entries, engine)
    for question in questions()[:10]:
        engine.search(question.namespace, question.text)
    samples = []
    for question in questions():
        started = time.perf_counter()
        engine.search(question.namespace, question.text)
        samples.append((time.perf_counter() - started) * 1000)
    return ShardFigures(build_s, median(samples), same, asked)


@dataclass
class EngineResult:
    build_s: float
    quality: Quality
    latencies_ms: list[float] = field(default_factory=list)
    memory_mb: float | None = None

    @property
    def median_ms(self) -> float:
        return median(self.latencies_ms)


def entries_of_size(size: int) -> list[SearchEntry]:
    corpus, _ = corpus_entries()
    return [*corpus, *distractor_entries(max(0, size - len(corpus)), NAMESPACES)]


def resident_bytes() -> int:
    statm = Path("/proc/self/statm")
    if statm.exists():
        return int(statm.read_text(encoding="ascii").split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def measure_size(size: int, rounds: int, with_memory: bool) -> dict[str, EngineResult]:
    entries = entries_of_size(size)
    engines: list[Engine] = []
    builds: dict[str, tuple[float, float | None]] = {}
    for engine_type in ENGINES:
        gc.collect()
        before = resident_bytes()
        started = time.perf_counter()
        engine: Engine = engine_type(entries)
        build_s = time.perf_counter() - started
        gc.collect()
        builds[engine.name] = (build_s, (resident_bytes() - before) / 1e6 if with_memory else None)
        engines.append(engine)
    asked = questions()
    workload = list(asked) * rounds
    for question in workload[:10]:
        for warming in engines:
            warming.search(question.namespace, question.text)
    latencies: dict[str, list[float]] = {each.name: [] for each in engines}
    answered: dict[str, dict[tuple[str, str], list[str]]] = {each.name: {} for each in engines}
    for turn, question in enumerate(workload):
        for offset in range(len(engines)):
            timed = engines[(turn + offset) % len(engines)]
            started = time.perf_counter()
            keys = timed.search(question.namespace, question.text)
            latencies[timed.name].append((time.perf_counter() - started) * 1000)
            answered[timed.name][(question.namespace, question.text)] = keys
    return {
        name: EngineResult(
            build_s=builds[name][0],
            quality=evaluate(_replay(answered[name])),
            latencies_ms=latencies[name],
            memory_mb=builds[name][1],
        )
        for name in latencies
    }


def _replay(answered: dict[tuple[str, str], list[str]]) -> Ranker:
    """The keys an engine returned in the timed run, so quality is scored on exactly those calls."""

    def ranker(namespace: str, text: str) -> list[str]:
        return answered[(namespace, text)]

    return ranker


def _rounds(size: int, quick: bool) -> int:
    return 1 if quick else ROUNDS_ABOVE if size > 10_000 else ROUNDS_UP_TO_10K


def _table(by_size: dict[int, dict[str, EngineResult]]) -> list[str]:
    lines = [
        "| chunks | engine | Hit@1 | MRR@5 | median (ms) | p95 (ms) | × FTS5 median | build (s) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for size, results in sorted(by_size.items()):
        fts5 = results[Fts5Engine.name].median_ms
        for name, result in results.items():
            lines.append(
                f"| {size:,} | {name} | {result.quality.hit_at_1:.3f} | {result.quality.mrr:.3f} "
                f"| {result.median_ms:.2f} | {percentile(result.latencies_ms, 0.95):.2f} "
                f"| {result.median_ms / fts5:.2f}× | {result.build_s:.1f} |"
            )
    return lines


def _verdicts(by_size: dict[int, dict[str, EngineResult]]) -> list[str]:
    lines = []
    for size, results in sorted(by_size.items()):
        ours = results[PandoraEngine.name]
        others = [
            result
            for name, result in results.items()
            if name not in {PandoraEngine.name, StoredShardsEngine.name}
        ]
        quality_met = all(
            ours.quality.hit_at_1 >= other.quality.hit_at_1 and ours.quality.mrr >= other.quality.mrr
            for other in others
        )
        ratio = ours.median_ms / results[Fts5Engine.name].median_ms
        lines.append(
            f"- {size:,} chunks: quality at least the others' — {'met' if quality_met else 'MISSED'}; "
            f"latency {ratio:.2f}× FTS5's median — {'met' if ratio <= LATENCY_AIM else 'MISSED'}."
        )

    return lines


def plot(by_size: dict[int, dict[str, EngineResult]], path: Path = PLOT) -> Path:
    names = list(next(iter(by_size.values())))
    latency = {name: [(size, by_size[size][name].median_ms) for size in sorted(by_size)] for name in names}
    mrr = {name: [(size, by_size[size][name].quality.mrr) for size in sorted(by_size)] for name in names}
    return line_panels(
        path,
        [
            ("Warm query latency (median)", "milliseconds (this machine)", latency, True),
            ("Quality on the evaluation questions", "MRR@5", mrr, False),
        ],
        xlabel="chunks in the index",
        suptitle="Search: Pandora vs rank-bm25 vs SQLite FTS5, same chunks, one run",
    )


def run(quick: bool = False, sizes: Sequence[int] | None = None) -> Section:
    if not fts5_compiled_in():
        raise RuntimeError("this Python's sqlite3 lacks FTS5; the comparison needs it")
    sizes = tuple(sizes or (QUICK_SIZES if quick else SIZES))
    by_size: dict[int, dict[str, EngineResult]] = {}
    for index, size in enumerate(sorted(sizes, reverse=True)):  # memory is clean only before any other
        by_size[size] = measure_size(size, _rounds(size, quick), with_memory=index == 0)
    largest = max(sizes)
    memory = ", ".join(
        f"{name} {result.memory_mb:.0f} MB"
        for name, result in by_size[largest].items()
        if result.memory_mb is not None
    )
    text_mb = sum(len(entry.text.encode()) for entry in entries_of_size(largest)) / 1e6
    plot(by_size)
    stored = {size: measure_stored_shards(size) for size in sorted(sizes)}
    body = "\n".join(
        [
            (__doc__ or "").strip(),
            "",
            f"{len(questions())} questions; each timed "
            + ", ".join(f"{_rounds(size, quick)}× at {size:,}" for size in sorted(sizes))
            + f" chunks; {len(corpus_entries()[0])} evaluation chunks in every index.",
            "",
            *_table(by_size),
            "",
            f"Memory at {largest:,} chunks (resident growth while building; the chunk text is "
            f"{text_mb:.0f} MB): {memory}.",
            "",
            *_verdicts(by_size),
            "",
            *(
                f"- {size:,} chunks, {StoredShardsEngine.name}: built in {found.build_s:.1f} s, warm median "
                f"{found.median_ms:.2f} ms; {found.same} of {found.asked} questions ranked (keys and scores) "
                f"exactly as one whole snapshot ranks them — {'met' if found.same == found.asked else 'MISSED'}."
                for size, found in stored.items()
            ),
            "",
            f"![search latency and quality against corpus size]({PLOT.name})",
        ]
    )
    figures: dict[str, float] = {}
    for size, results in by_size.items():
        for name, result in results.items():
            figures[f"median_ms:{name}@{size}"] = result.median_ms
            figures[f"mrr:{name}@{size}"] = result.quality.mrr
            figures[f"hit1:{name}@{size}"] = result.quality.hit_at_1

    for size, found in stored.items():
        figures[f"shard_agreement@{size}"] = found.same / max(1, found.asked)
        figures[f"median_ms:{StoredShardsEngine.name}@{size}"] = found.median_ms
    return Section("Search quality and latency against rank-bm25 and SQLite FTS5", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
