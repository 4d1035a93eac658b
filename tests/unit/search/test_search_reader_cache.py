"""The warm path of the search reader, proven by counting the AWS calls its clients send.

Warm: one DynamoDB GetItem, no S3. A new ingest reloads the snapshot (S3) but not the memories; an
approved memory (memory_generation) reloads the memories (one Query) but not the snapshot.
"""

import statistics
import time

from scoring import report
from unit.search.search_harness import SearchHarness, search_fixture  # noqa: F401 - the `search` fixture

POINTER = ("dynamodb", "GetItem")
MEMORIES = ("dynamodb", "Query")
SNAPSHOT = ("s3", "GetObject")

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
