"""LexicalIndex build, snapshot size, reload from snapshot, incremental ingest and query latency at
1k / 10k / 100k chunks.

The chunks are synthetic: 40-300 words drawn from a Zipf-distributed vocabulary of 30,000 words, with
heading paths and logical paths shared by groups of chunks, roughly like a person's Markdown notes.
Queries are 2-6 words drawn the same way, plus question words. Every time is given as wall clock and as
this process's CPU time (`time.process_time`), which a busy shared machine disturbs much less.

- build: tokenize the entries and build their segment (what the ingest does for a changed document,
  here for all of them);
- encode: the segment as snapshot bytes (format version 2, gzip members);
- reload: the search path after a new generation: decode the snapshot and make the index (no
  tokenizing, no per-posting work), then the first query, which computes its terms' weights;
- ingest: decode the current snapshot, replace one document (its chunks edited), encode the result;
- queries: warm latency once every query has been seen.
Run alone with `python -m bench.lexical_search [--quick]`.
"""

import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from itertools import accumulate
from typing import TypeVar

from pandora_memory.search.analysis import analyse_entry
from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.segment import build_segment
from pandora_memory.search.snapshot import decode_snapshot, encode_snapshot, index_from_snapshot
from pandora_memory.search.splice import replace_document

from bench.report import Section, median, percentile

T = TypeVar("T")

VOCABULARY_SIZE = 30_000
SIZES = (1_000, 10_000, 100_000)
QUERIES = 300
QUESTION_WORDS = ("what", "did", "we", "decide", "about", "how", "the", "when")


def _vocabulary(rng: random.Random) -> tuple[list[str], list[float]]:
    syllables = ["ka", "el", "ri", "ven", "dep", "loy", "ro", "ll", "ba", "ck", "mi", "na", "sto", "re", "ta"]
    words = sorted({"".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(VOCABULARY_SIZE * 2)})
    words = words[:VOCABULARY_SIZE]
    rng.shuffle(words)
    cumulative = list(accumulate(1.0 / rank for rank in range(1, len(words) + 1)))
    return words, cumulative


def synthetic_entries(count: int, seed: int = 7) -> list[SearchEntry]:
    rng = random.Random(seed)
    words, cumulative = _vocabulary(rng)
    entries: list[SearchEntry] = []
    for index in range(count):
        group = index // 8
        path = f"notes/{group % 50}/{'-'.join(rng.choices(words[:2000], k=2))}-{group}.md"
        heading = ("Notes", " ".join(rng.choices(words[:5000], cum_weights=cumulative[:5000], k=2)))
        body = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(40, 300)))
        entries.append(SearchEntry(f"{path}#{index:07d}", "real_life", path, heading, body, f"rev{group}"))
    return entries


def synthetic_queries(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    words, cumulative = _vocabulary(random.Random(7))
    return [
        " ".join(
            rng.sample(QUESTION_WORDS, 2) + rng.choices(words, cum_weights=cumulative, k=rng.randint(2, 6))
        )
        for _ in range(count)
    ]


def _timed(action: Callable[[], T]) -> tuple[T, float, float]:
    """The action's result, wall seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _edited(entries: list[SearchEntry], logical_path: str) -> list[SearchEntry]:
    return [
        replace(entry, text=entry.text + " edited") for entry in entries if entry.logical_path == logical_path
    ]


def _measure(size: int, queries: list[str]) -> dict[str, float]:
    entries = synthetic_entries(size)
    figures: dict[str, float] = {}
    segment, figures["build_s"], figures["build_cpu_s"] = _timed(
        lambda: build_segment(map(analyse_entry, entries))
    )
    payload, figures["encode_s"], figures["encode_cpu_s"] = _timed(lambda: encode_snapshot(segment))
    figures["snapshot_mb"] = len(payload) / 1e6
    fresh = LexicalIndex([segment])

    index, figures["reload_s"], figures["reload_cpu_s"] = _timed(lambda: index_from_snapshot(payload))
    _, first_wall, first_cpu = _timed(lambda: index.search(queries[0], limit=5))
    figures["first_query_ms"], figures["first_query_cpu_ms"] = first_wall * 1000, first_cpu * 1000
    assert len(index) == len(fresh) and index.search(queries[1]) == fresh.search(queries[1])

    path = entries[size // 2].logical_path
    _, figures["ingest_s"], figures["ingest_cpu_s"] = _timed(
        lambda: encode_snapshot(replace_document(decode_snapshot(payload), path, _edited(entries, path)))
    )

    for query in queries:  # every term's weights computed once, as in a warm container
        index.search(query)
    samples = []
    started_cpu = time.process_time()
    for query in queries:
        started = time.perf_counter()
        index.search(query, limit=5)
        samples.append((time.perf_counter() - started) * 1000)
    figures["query_cpu_ms"] = (time.process_time() - started_cpu) * 1000 / len(queries)
    figures["median_ms"], figures["p95_ms"] = median(samples), percentile(samples, 0.95)
    return figures


def reference_seconds() -> float:
    """One million dict updates: divide the figures by this to compare runs on busy machines."""
    counts: dict[int, int] = {}
    started = time.perf_counter()
    for number in range(1_000_000):
        key = number & 1023
        counts[key] = counts.get(key, 0) + 1
    return time.perf_counter() - started


def run(quick: bool) -> Section:
    sizes = SIZES[:2] if quick else SIZES
    queries = synthetic_queries(QUERIES // 3 if quick else QUERIES)
    lines = [
        "Times as wall / CPU seconds (queries in ms).\n",
        "| chunks | build (s) | encode (s) | snapshot gz (MB) | reload (s) | first query (ms) "
        "| ingest one doc (s) | query median (ms) | p95 (ms) | query CPU mean (ms) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    figures: dict[str, float] = {}
    for size in sizes:
        result = _measure(size, queries)
        figures.update({f"{key}@{size}": value for key, value in result.items()})
        lines.append(
            f"| {size:,} | {result['build_s']:.2f} / {result['build_cpu_s']:.2f} "
            f"| {result['encode_s']:.2f} / {result['encode_cpu_s']:.2f} | {result['snapshot_mb']:.1f} "
            f"| {result['reload_s']:.3f} / {result['reload_cpu_s']:.3f} "
            f"| {result['first_query_ms']:.0f} / {result['first_query_cpu_ms']:.0f} "
            f"| {result['ingest_s']:.2f} / {result['ingest_cpu_s']:.2f} "
            f"| {result['median_ms']:.2f} | {result['p95_ms']:.2f} | {result['query_cpu_ms']:.2f} |"
        )
    reference = reference_seconds()
    figures["reference_s"] = reference
    lines.append(f"\nReference loop (1M dict updates) on this machine during the run: {reference:.2f} s.")
    body = (__doc__ or "").strip() + "\n\n" + "\n".join(lines)
    return Section("Lexical search (BM25F over chunk sections)", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
