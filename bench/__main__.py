"""Runs every benchmark (or those named) and writes docs/benchmarks.md."""

import argparse
import sys
from collections.abc import Callable

from bench import (
    aws_calls,
    cold_start,
    handler_latency,
    ingest_throughput,
    load,
    policy_speed,
    search_quality_latency,
)
from bench.report import REPORT_PATH, Section, write_report

BENCHMARKS: dict[str, Callable[[bool], Section]] = {
    "policy_speed": policy_speed.run,
    "aws_calls": aws_calls.run,
    "cold_start": cold_start.run,
    "handler_latency": handler_latency.run,
    "ingest_throughput": ingest_throughput.run,
    "search_quality_latency": search_quality_latency.run,
    "load": load.run,
}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help=f"benchmarks to run: {', '.join(BENCHMARKS)} (all)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, for a smoke run")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    selected = args.names or list(BENCHMARKS)
    sections = []
    for name in selected:
        print(f"running {name} ...", flush=True)
        section = BENCHMARKS[name](args.quick)
        print(section.body, flush=True)
        sections.append(section)
    write_report(sections)
    print(f"wrote {REPORT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
