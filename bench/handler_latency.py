"""Adaptive turn handler latency, warm container, in-process over moto.

1,000 turns (200 in quick mode) drawn from the labeled messages of tests/data: retrieve-set messages
as pre_answer turns, capture-set messages as post_answer turns, both namespaces, one token scoped to
both. Timed around `lambda_handler` with an API Gateway event, so request parsing, validation, the
mode's policy, redaction, logging, metrics and the AWS calls (answered by moto in-process) are all inside.
The stack holds a few approved memories and the retrieval evaluation notes (ingested by the ingest
handler), so a retrieving pre_answer packs real search results. Three turns warm the container
first. Log lines and EMF documents go to /dev/null.
"""

import json
import sys
import time
from collections import Counter
from dataclasses import dataclass

from bench.aws_env import (
    fresh_container,
    lambda_context,
    load_function,
    moto_stack,
    quiet_stdout,
    seed_memories,
)
from bench.report import Section, median, percentile
from bench.seeding import ingest_notes, person_notes
from bench.turns import mixed_turns, turn_event


@dataclass(frozen=True)
class TurnTiming:
    total_ms: float
    aws_ms: float  # inside the AWS calls (moto in-process); the rest is the handler's own work

    @property
    def own_ms(self) -> float:
        return self.total_ms - self.aws_ms


def measure(
    count: int, notes: dict[str, str] | None = None
) -> tuple[dict[str, list[TurnTiming]], Counter[str], int]:
    """Timings per turn by mode, AWS calls by operation, and the number of non-200 answers.

    `notes`: S3 key -> Markdown ingested first (the retrieval evaluation notes by default)."""
    turns = mixed_turns(count)
    samples: dict[str, list[TurnTiming]] = {"pre_answer": [], "post_answer": []}
    operations: Counter[str] = Counter()
    failures = 0
    with moto_stack("AdaptiveTurnFunction") as stack, quiet_stdout():
        seed_memories()
        ingest_notes(stack.bucket, person_notes() if notes is None else notes)
        recorder = fresh_container()
        app = load_function("adaptive_turn")
        context = lambda_context("AdaptiveTurnFunction")
        for turn in turns[:3]:
            app.lambda_handler(turn_event(turn), context)
        recorder.take()
        for turn in turns:
            event = turn_event(turn)
            started = time.perf_counter()
            result = app.lambda_handler(event, context)
            total_ms = (time.perf_counter() - started) * 1000
            calls = recorder.take()
            operations.update(call.operation for call in calls)
            samples[turn.mode].append(TurnTiming(total_ms, sum(call.seconds for call in calls) * 1000))
            if result["statusCode"] != 200:
                failures += 1
                print(json.loads(result["body"]).get("error"), file=sys.stderr)
    return samples, operations, failures


def run(quick: bool = False) -> Section:
    count = 200 if quick else 1000
    samples, calls, failures = measure(count)
    every = samples["pre_answer"] + samples["post_answer"]
    rows = []
    figures: dict[str, float] = {"failures": float(failures)}
    for label, timings in (("all turns", every), *samples.items()):
        totals = [timing.total_ms for timing in timings]
        own = [timing.own_ms for timing in timings]
        rows.append(
            f"| {label} | {len(totals)} | {median(totals):.2f} | {percentile(totals, 0.99):.2f} "
            f"| {max(totals):.2f} | {median(own):.2f} | {percentile(own, 0.99):.2f} |"
        )
        figures[f"median_ms:{label}"] = median(totals)
        figures[f"p99_ms:{label}"] = percentile(totals, 0.99)
        figures[f"own_median_ms:{label}"] = median(own)
    per_turn = ", ".join(f"{operation} {n / count:.2f}" for operation, n in sorted(calls.items()))
    body = (
        (__doc__ or "").strip()
        + "\n\n| turns | n | median (ms) | p99 (ms) | max (ms) | without AWS calls: median (ms) | p99 (ms) |"
        + "\n|---|---:|---:|---:|---:|---:|---:|\n"
        + "\n".join(rows)
        + f"\n\nAWS calls per turn on average: {per_turn}. Non-200 answers: {failures}. "
        '"Without AWS calls" subtracts the time spent inside them (botocore before-call to after-call, '
        "moto answering in-process): the handler's own work; on AWS each call adds its network round "
        "trip instead of moto's time. Absolute times are this machine's."
    )
    return Section("Adaptive turn handler latency (warm, in-process)", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
