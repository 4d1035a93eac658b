"""LexicalIndex build time, snapshot rebuild time and warm query latency at 1k / 10k / 100k chunks.

The chunks are synthetic: 40-300 words drawn from a Zipf-distributed vocabulary of 30,000 words, with
heading paths and logical paths shared by groups of chunks, roughly like a person's Markdown notes.
Queries are 2-6 words drawn the same way, plus question words. Run alone with
`python -m bench.lexical_search [--quick]`.
"""

import gzip
import json
import random
import sys
import time
from itertools import accumulate

from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.snapshot import encode_entries, index_from_snapshot

from bench.report import Section, median, percentile

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


def _measure(size: int, queries: list[str]) -> dict[str, float]:
    entries = synthetic_entries(size)
    started = time.perf_counter()
    index = LexicalIndex.build(entries)
    build_seconds = time.perf_counter() - started

    started = time.perf_counter()
    payload = gzip.compress(json.dumps(encode_entries(entries), separators=(",", ":")).encode(), 6)
    encode_seconds = time.perf_counter() - started
    started = time.perf_counter()
    rebuilt = index_from_snapshot(json.loads(gzip.decompress(payload)))
    rebuild_seconds = time.perf_counter() - started
    assert len(rebuilt) == len(index)

    for query in queries[:20]:  # warm caches
        index.search(query)
    samples = []
    for query in queries:
        started = time.perf_counter()
        index.search(query, limit=5)
        samples.append((time.perf_counter() - started) * 1000)
    return {
        "build_s": build_seconds,
        "encode_s": encode_seconds,
        "snapshot_mb": len(payload) / 1e6,
        "rebuild_s": rebuild_seconds,
        "median_ms": median(samples),
        "p95_ms": percentile(samples, 0.95),
    }


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
        "| chunks | build (s) | snapshot gz (MB) | encode (s) | rebuild from snapshot (s) "
        "| query median (ms) | p95 (ms) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    figures: dict[str, float] = {}
    for size in sizes:
        result = _measure(size, queries)
        figures.update({f"{key}@{size}": value for key, value in result.items()})
        lines.append(
            f"| {size:,} | {result['build_s']:.2f} | {result['snapshot_mb']:.1f} "
            f"| {result['encode_s']:.2f} | {result['rebuild_s']:.2f} "
            f"| {result['median_ms']:.2f} | {result['p95_ms']:.2f} |"
        )
    reference = reference_seconds()
    figures["reference_s"] = reference
    lines.append(f"\nReference loop (1M dict updates) on this machine during the run: {reference:.2f} s.")
    body = (__doc__ or "").strip() + "\n\n" + "\n".join(lines)
    return Section("Lexical search (BM25F over chunk sections)", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
