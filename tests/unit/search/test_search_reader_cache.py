"""The warm path of the search reader, proven by counting the AWS calls its clients send.

Warm: one DynamoDB GetItem, no S3. A new ingest reloads the one shard it changed (one S3 GET; two with
the manifest once a namespace has more shards than the pointer carries) but not the memories; an
approved memory (memory_generation) reloads the memories (one Query) but no shard.
"""

import statistics
import time

import pytest
from pandora_memory.ingest import projections
from pandora_memory.search import shards
from scoring import report
from unit.search.search_harness import SearchHarness, search_fixture  # noqa: F401 - the `search` fixture

POINTER = ("dynamodb", "GetItem")
MEMORIES = ("dynamodb", "Query")
SNAPSHOT = ("s3", "GetObject")  # the manifest, or one shard

NOTES = "# Notes\n\n## Deploy\n\nThe API deploys with sam deploy to eu-west-1.\n"
ROADMAP = "# Roadmap\n\nThe offline sync command ships next, then the review inbox.\n"


def test_a_cold_search_loads_pointer_memories_and_snapshot_and_a_warm_one_only_the_pointer(
    search: SearchHarness,
) -> None:
    search.ingest.upload("projects/notes", NOTES)

    assert search.paths("real_life", "sam deploy") == ["projects/notes"]
    assert sorted(search.calls.take()) == sorted([POINTER, MEMORIES, SNAPSHOT])

    for query in ("sam deploy", "eu-west-1", "deploy region"):
        assert search.paths("real_life", query) == ["projects/notes"]
        assert search.calls.take() == [POINTER]
    projections = search.ingest.stack.table_names["ProjectionsTable"]
    search.search("real_life", "deploy")
    assert search.calls.tables == [projections]


def test_a_new_ingest_reloads_the_snapshot_but_not_the_memories(search: SearchHarness) -> None:
    search.ingest.upload("projects/notes", NOTES)
    search.search("real_life", "deploy")
    search.calls.take()

    search.ingest.upload("projects/roadmap", ROADMAP)

    assert search.paths("real_life", "offline sync command") == ["projects/roadmap"]
    assert search.calls.take() == [POINTER, SNAPSHOT]
    search.search("real_life", "offline sync command")
    assert search.calls.take() == [POINTER]


def test_an_approved_memory_reloads_the_memories_but_not_the_snapshot(search: SearchHarness) -> None:
    search.ingest.upload("projects/notes", NOTES)
    search.search("real_life", "deploy")
    search.calls.take()

    search.approve_memory("Prefers deploying on Tuesday mornings")

    results = search.search("real_life", "deploying tuesday")
    assert results[0].kind == "memory"
    assert search.calls.take() == [POINTER, MEMORIES]
    search.search("real_life", "deploying tuesday")
    assert search.calls.take() == [POINTER]


def test_memories_written_without_a_generation_bump_appear_once_the_memory_cache_ages_out(
    search: SearchHarness,
) -> None:
    search.ingest.upload("projects/notes", NOTES)
    search.search("real_life", "deploy")
    search.approve_memory("Keeps a paper notebook for standups", bump=False)
    search.calls.take()

    assert search.search("real_life", "paper notebook") == []
    assert search.calls.take() == [POINTER]

    search.clock.now += 301  # past PANDORA_SEARCH_MEMORY_MAX_AGE_SECONDS' default of 300
    assert [result.kind for result in search.search("real_life", "paper notebook")] == ["memory"]
    assert search.calls.take() == [POINTER, MEMORIES]


def test_each_namespace_has_its_own_cache(search: SearchHarness) -> None:
    search.ingest.upload("projects/notes", NOTES)
    search.ingest.upload("world/notes", "# Notes\n\nKael deploys the fleet at dawn.\n", namespace="au")
    search.search("real_life", "deploy")
    search.search("au", "deploy")
    search.calls.take()

    search.ingest.upload("world/roadmap", "# Roadmap\n\nThe fleet sails north.\n", namespace="au")

    search.search("real_life", "deploy")
    assert search.calls.take() == [POINTER]
    assert search.paths("au", "fleet sails north")[0] == "world/roadmap"
    assert search.calls.take() == [POINTER, SNAPSHOT]


@pytest.mark.parametrize("inline", [projections.INLINE_SHARD_KEYS, 0], ids=["keys-on-pointer", "manifest"])
def test_a_new_ingest_reloads_only_the_shard_it_changed(
    search: SearchHarness, monkeypatch: pytest.MonkeyPatch, inline: int
) -> None:
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 3)
    monkeypatch.setattr(projections, "INLINE_SHARD_KEYS", inline)
    for n in range(10):
        search.ingest.upload(f"notes/topic-{n:02d}", f"# Topic {n}\n\nMilestone {n} of the roadmap.\n")
    manifest = search.ingest.projections.manifest(search.ingest.pointer())
    assert manifest is not None and 4 <= len(manifest.shards) <= 8
    reads = [SNAPSHOT] * (1 if inline == 0 else 0)  # the manifest, unless the pointer lists the shards
    search.search("real_life", "roadmap")
    assert search.calls.take().count(SNAPSHOT) == len(reads) + len(manifest.shards)

    search.ingest.upload("notes/topic-03", "# Topic 3\n\nThe harbour lantern replaced milestone three.\n")

    assert search.paths("real_life", "harbour lantern") == ["notes/topic-03"]
    assert search.calls.take() == [POINTER, *reads, SNAPSHOT]
    assert search.paths("real_life", "milestone 7 roadmap", limit=1) == ["notes/topic-07"]
    assert search.calls.take() == [POINTER]


def test_warm_search_latency(search: SearchHarness) -> None:
    """Measured against moto in-process: one GetItem plus in-memory ranking over ~120 chunks."""
    for n in range(40):
        body = (
            f"# Topic {n}\n\n## Summary\n\nNote {n} about deploys, reviews and the roadmap item {n}.\n\n"
            f"## Detail\n\nOwner {n % 7} tracks the follow-up for milestone {n % 5}.\n"
        )
        search.ingest.upload(f"notes/topic-{n:02d}", body)
    search.search("real_life", "roadmap")
    search.calls.take()

    timings: list[float] = []
    for n in range(200):
        started = time.perf_counter()
        search.search("real_life", f"roadmap item {n % 40} milestone")
        timings.append((time.perf_counter() - started) * 1000)
    assert search.calls.calls == [POINTER] * 200
    timings.sort()
    p50, p95 = statistics.median(timings), timings[int(len(timings) * 0.95)]
    report(f"search warm path (moto, 40 files): p50 {p50:.2f} ms, p95 {p95:.2f} ms, 1 GetItem, 0 S3")
    assert p50 < 100, f"warm search p50 {p50:.1f} ms"


def test_several_queries_share_one_pointer_read(search: SearchHarness) -> None:
    search.ingest.upload("projects/notes", NOTES)
    search.ingest.upload("projects/roadmap", ROADMAP)
    search.search("real_life", "warm up")
    search.calls.take()

    each = search.service.search_each("real_life", ["sam deploy", "", "review inbox"], limit=5)

    assert [[hit.logical_path for hit in hits] for hits in each] == [
        ["projects/notes"],
        [],
        ["projects/roadmap"],
    ]
    assert search.calls.take() == [POINTER]
    assert search.service.search_each("real_life", [" ", ""]) == [[], []]
    assert search.calls.take() == []
