"""Each benchmark's core at a tiny size, so `make bench` keeps working. No timing is asserted here: the
speed targets live in docs/benchmarks.md."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # the benchmarks are a top-level package of the repository, not installed
    sys.path.insert(0, str(REPO))

from bench import aws_calls, cold_requests, cold_start, handler_latency, ingest_throughput, load  # noqa: E402
from bench import search_quality_latency as search  # noqa: E402
from bench.corpus import synthetic_corpus  # noqa: E402
from bench.retrieval_eval import questions  # noqa: E402

TINY_NOTES = synthetic_corpus(files=4, total_bytes=3000)


def test_aws_calls_are_counted_per_scenario() -> None:
    scenarios = aws_calls.measure_scenarios(TINY_NOTES)
    cold = scenarios[0]
    assert cold.calls["ssm.GetParametersByPath"] == 1  # the hook sees the handler's own clients
    assert {scenario.verdict for scenario in scenarios} <= {"", "met", "MISSED"}
    assert all(not scenario.outcome.startswith("HTTP") for scenario in scenarios)


def test_cold_start_times_the_import_and_the_first_request_of_a_fresh_process() -> None:
    bare, authorizer = cold_start.measure(runs=1, select={"bare Powertools handler", "token_authorizer"})
    assert (bare.label, authorizer.label) == ("bare Powertools handler", "token_authorizer")
    for timing in (bare, authorizer):
        [sample] = timing.samples
        assert sample.import_cpu > 0 and sample.request_cpu > 0 and sample.request_wall > 0
    assert authorizer.total_cpu_ms > authorizer.import_cpu_ms


def test_cold_start_names_the_imports_of_both_phases() -> None:
    with cold_requests.cold_stack() as stack:
        [authorizer] = [r for r in stack.requests if r.label == "token_authorizer"]
        heavy = cold_start.heaviest_imports(authorizer, stack.env(authorizer))
    assert any(name.startswith("aws_lambda_powertools") for name, _ in heavy.at_import)
    assert heavy.packages


def test_a_first_request_that_fails_is_never_timed() -> None:
    with cold_requests.cold_stack() as stack:
        [authorizer] = [r for r in stack.requests if r.label == "token_authorizer"]
        refused = replace(authorizer, event=lambda: {**authorizer.event(), "authorizationToken": "Bearer x"})
        with pytest.raises(RuntimeError, match="token_authorizer"):
            cold_start.probe(refused, stack.env(authorizer))


def test_handler_latency_runs_turns_of_both_modes() -> None:
    samples, calls, failures = handler_latency.measure(12, TINY_NOTES)
    assert failures == 0
    assert sum(len(values) for values in samples.values()) == 12
    assert sum(calls.values()) > 0


def test_ingest_then_unchanged_reingest_writes_no_chunks() -> None:
    (first, again), chunks_table, chunk_items = ingest_throughput.measure_moto(TINY_NOTES)
    assert first.outcomes["ingested"] == len(TINY_NOTES)
    assert first.chunk_writes(chunks_table) > 0 and chunk_items > 0
    assert again.chunk_writes(chunks_table) == 0


def test_search_engines_are_scored_on_the_same_questions(tmp_path: Path) -> None:
    results = search.measure_size(200, rounds=1, with_memory=False)
    assert set(results) == {"Pandora LexicalIndex", "rank-bm25 BM25Okapi", "SQLite FTS5"}
    counts = {len(result.latencies_ms) for result in results.values()}
    assert counts == {len(questions())}
    for result in results.values():
        assert 0.0 <= result.quality.hit_at_1 <= result.quality.mrr <= 1.0
    assert search.plot({200: results}, tmp_path / "search.png").stat().st_size > 0


@pytest.mark.integration
def test_load_run_stores_every_candidate_and_document_once() -> None:
    # One client thread: its seeded choices make the mix the same on every run of the same labeled
    # sets; 30 requests hold turns of every kind however many labeled lines the sets have.
    plan = load.LoadPlan(
        threads=1, seconds=60.0, max_requests=30, max_uploads=2, ingest_timeout=60.0, upload_share=0.3
    )
    report = load.run_load(plan)
    assert len(report.results) == 30 and all(result.ok for result in report.results)
    assert report.candidates.expected > 0 and report.documents.expected > 0
    assert report.candidates.exact and report.documents.exact
    assert report.documents_active == report.documents.expected


def test_the_reference_row_adds_only_boto3_to_the_bare_handler() -> None:
    label = f"{cold_requests.REFERENCE_PREFIX}bare handler + boto3 and one client"
    bare, reference = cold_start.measure(runs=1, select={"bare Powertools handler", label})
    assert reference.label == label and reference.path.name == "hello_aws_app.py"
    assert len(reference.samples) == 1 and bare.path.name == "hello_app.py"
