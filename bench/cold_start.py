"""Cold start of each function: the import of its module, and "cold total" = import + first request.

Each functions/<name>/app.py is loaded by file path, as Lambda loads its handler, in a fresh Python
process each time (the layer's directory on PYTHONPATH as /opt/python is in Lambda, the template's
environment set), timed from before the import to after it; interpreter start-up is excluded. The
same process then answers one representative event (bench/cold_requests.py: events/ served by a moto
server outside the measured process), so work deferred from the import to the first request still
counts in the cold total. A bare Powertools handler (bench/fixtures/hello_app.py: Logger,
APIGatewayRestResolver, one route) is measured the same way in the same run, answering its own
GET /hello, runs interleaved, so the ratios are the figures that carry over to other machines.
Bytecode caches are warm for both; tracing is off for both (POWERTOOLS_TRACE_DISABLED), except in
one row that runs the turn with tracing on, as deployed. A reference row (bench/fixtures/
hello_aws_app.py) adds to the bare handler only boto3 and one client: the part of the figure that no
function calling AWS avoids, so "import × reference" is each function's import over that floor (what
its own code adds shows as the excess over 1.00×). Aim: each function's import at
most 1.5× the bare handler's; for a function over it the heaviest imports are named
(`python -X importtime`, one extra run).
"""

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.cold_requests import REFERENCE_PREFIX, FirstRequest, cold_stack
from bench.report import Section, median

AIM_RATIO = 1.5
MARKER = "--bench-import-starts--"
REQUEST_MARKER = "--bench-first-request-starts--"

# Loads one handler file the way Lambda's runtime does, answers one event, prints both phases' seconds.
_PROBE = f"""
import importlib.util, json, sys, time
path, event_path = sys.argv[1], sys.argv[2]
with open(event_path, encoding="utf-8") as file:
    event = json.load(file)
class Context:
    function_name = "pandora-bench"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:pandora-bench"
    memory_limit_in_mb = 512
    aws_request_id = "6f1c2b7e-2f4a-4c59-9a1e-0d5b8c3a7e21"
    log_group_name = "/aws/lambda/pandora-bench"
    log_stream_name = "bench"
    def get_remaining_time_in_millis(self):
        return 10000
sys.path.insert(0, path.rsplit("/", 1)[0])
sys.stderr.write("{MARKER}\\n")
started, cpu = time.perf_counter(), time.process_time()
spec = importlib.util.spec_from_file_location("app", path)
module = importlib.util.module_from_spec(spec)
sys.modules["app"] = module
spec.loader.exec_module(module)
imported, imported_cpu = time.perf_counter(), time.process_time()
sys.stderr.write("{REQUEST_MARKER}\\n")
result = module.lambda_handler(event, Context())
done, done_cpu = time.perf_counter(), time.process_time()
phases = [imported - started, imported_cpu - cpu, done - imported, done_cpu - imported_cpu]
print(json.dumps({{"phases": phases, "result": result}}))
"""


@dataclass(frozen=True)
class Sample:
    import_wall: float
    import_cpu: float
    request_wall: float
    request_cpu: float


@dataclass(frozen=True)
class ColdTiming:
    label: str
    path: Path
    samples: list[Sample]

    def _ms(self, pick: str) -> float:
        return median([getattr(sample, pick) for sample in self.samples]) * 1000

    @property
    def import_cpu_ms(self) -> float:
        return self._ms("import_cpu")

    @property
    def import_wall_ms(self) -> float:
        return self._ms("import_wall")

    @property
    def total_cpu_ms(self) -> float:
        return median([s.import_cpu + s.request_cpu for s in self.samples]) * 1000

    @property
    def total_wall_ms(self) -> float:
        return median([s.import_wall + s.request_wall for s in self.samples]) * 1000


def probe(request: FirstRequest, env: dict[str, str], importtime: bool = False) -> tuple[Sample, str]:
    """One fresh process: import `request.app`, answer its event; the phases and the stderr."""
    flags = ["-X", "importtime"] if importtime else []
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as event_file:
        json.dump(request.event(), event_file)
        event_file.flush()
        completed = subprocess.run(
            [sys.executable, "-s", *flags, "-c", _PROBE, str(request.app), event_file.name],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    if completed.returncode != 0:
        raise RuntimeError(f"{request.label}: the probe failed:\n{completed.stderr[-3000:]}")
    reply: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    if not request.check(reply["result"]):
        failures = [line for line in completed.stdout.splitlines() if '"error_type"' in line]
        raise RuntimeError(
            f"{request.label}: the first request did not succeed: {reply['result']!r:.500} {failures}"
        )
    return Sample(*(float(value) for value in reply["phases"])), completed.stderr


def measure(runs: int, select: Collection[str] | None = None) -> list[ColdTiming]:
    """Each selected first request (all by default) `runs` times, interleaved, after one untimed run
    each (bytecode caches written, files in the page cache, the note ingested)."""
    with cold_stack() as stack:
        requests = [r for r in stack.requests if select is None or r.label in select]
        samples: dict[str, list[Sample]] = defaultdict(list)
        for request in requests:
            probe(request, stack.env(request))
        for _ in range(runs):
            for request in requests:
                samples[request.label].append(probe(request, stack.env(request))[0])
        return [ColdTiming(r.label, r.app, samples[r.label]) for r in requests]


def _parse_importtime(lines: list[str], top: int) -> tuple[list[tuple[str, float]], dict[str, float]]:
    direct: list[tuple[str, float]] = []
    packages: dict[str, float] = defaultdict(float)
    for line in lines:
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line[len("import time:") :].split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue  # the header line
        self_us, cumulative_us, raw_name = int(parts[0]), int(parts[1]), parts[2]
        name = raw_name.strip()
        packages[name.split(".")[0]] += self_us / 1000
        if len(raw_name) - len(raw_name.lstrip(" ")) == 1:  # imported by the handler's own code
            direct.append((name, cumulative_us / 1000))
    return sorted(direct, key=lambda item: -item[1])[:top], packages


@dataclass(frozen=True)
class HeavyImports:
    at_import: list[tuple[str, float]]  # imported by the handler file, cumulative ms
    at_first_request: list[tuple[str, float]]  # imported while answering the first event
    packages: list[tuple[str, float]]  # top-level packages by summed own ms, both phases


def heaviest_imports(request: FirstRequest, env: dict[str, str], top: int = 5) -> HeavyImports:
    """The heaviest imports of both phases, from `python -X importtime`."""
    _, stderr = probe(request, env, importtime=True)
    import_part, _, request_part = stderr.split(MARKER, 1)[-1].partition(REQUEST_MARKER)
    at_import, packages = _parse_importtime(import_part.splitlines(), top)
    at_request, later = _parse_importtime(request_part.splitlines(), top)
    for name, ms in later.items():
        packages[name] += ms
    by_package = sorted(packages.items(), key=lambda item: -item[1])[:top]
    return HeavyImports(at_import, at_request, by_package)


def _listed(pairs: list[tuple[str, float]]) -> str:
    return ", ".join(f"`{name}` {ms:.0f} ms" for name, ms in pairs) or "none"


@dataclass(frozen=True)
class Table:
    rows: list[str]
    figures: dict[str, float]
    over: list[ColdTiming]  # the functions over the aim, one timing per handler file


def table(timings: list[ColdTiming]) -> Table:
    """The report's rows: the bare handler first in `timings`; each function's import beside both the
    bare handler's and the reference's (boto3 and one client, the floor of any function calling AWS)."""
    bare = timings[0]
    references = [t for t in timings if t.label.startswith(REFERENCE_PREFIX)]
    reference = references[0] if references else None
    rows = []
    over: list[ColdTiming] = []
    figures = {
        "bare_import_cpu_ms": bare.import_cpu_ms,
        "bare_import_wall_ms": bare.import_wall_ms,
        "bare_cold_total_cpu_ms": bare.total_cpu_ms,
    }
    for timing in timings[1:]:
        ratio = timing.import_cpu_ms / bare.import_cpu_ms
        total_ratio = timing.total_cpu_ms / bare.total_cpu_ms
        figures[f"import_cpu_ms:{timing.label}"] = timing.import_cpu_ms
        figures[f"import_ratio:{timing.label}"] = ratio
        figures[f"cold_total_cpu_ms:{timing.label}"] = timing.total_cpu_ms
        figures[f"cold_total_ratio:{timing.label}"] = total_ratio
        over_reference = "–"
        if reference is not None:
            reference_ratio = timing.import_cpu_ms / reference.import_cpu_ms
            figures[f"import_reference_ratio:{timing.label}"] = reference_ratio
            over_reference = f"{reference_ratio:.2f}×"
        is_reference = timing.label.startswith(REFERENCE_PREFIX)
        if not is_reference and ratio > AIM_RATIO and all(timing.path != seen.path for seen in over):
            over.append(timing)
        verdict = "reference" if is_reference else "met" if ratio <= AIM_RATIO else "MISSED"
        rows.append(
            f"| {timing.label} | {timing.import_cpu_ms:.0f} | **{ratio:.2f}×** | {over_reference} "
            f"| {timing.total_cpu_ms:.0f} | **{total_ratio:.2f}×** "
            f"| {timing.import_wall_ms:.0f} / {timing.total_wall_ms:.0f} | {verdict} |"
        )
    return Table(rows, figures, over)


def run(quick: bool = False) -> Section:
    runs = 3 if quick else 21
    timings = measure(runs)
    bare = timings[0]
    result = table(timings)
    body = (
        (__doc__ or "").strip()
        + f"\n\nMedian of {runs} fresh processes each. Ratios are taken on CPU time, which other work on "
        "a shared machine disturbs less than wall time, and which leaves out the emulator answering the "
        "AWS calls (wall time includes it). The bare handler imports in "
        f"{bare.import_cpu_ms:.0f} ms CPU and its cold total is {bare.total_cpu_ms:.0f} ms CPU "
        f"({bare.import_wall_ms:.0f} / {bare.total_wall_ms:.0f} ms wall) on this machine.\n\n"
        "| function (first request) | import CPU (ms) | import × bare | import × reference "
        "| cold total CPU (ms) | cold total × bare | wall ms (import / cold total) | import aim ≤ 1.5× |\n"
        "|---|---:|---:|---:|---:|---:|---:|---|\n" + "\n".join(result.rows)
    )
    if quick and result.over:
        body += "\n\nThe heaviest imports are named in the full run."
    if not quick and result.over:
        with cold_stack() as stack:
            for timing in result.over:
                [request] = [r for r in stack.requests if r.label == timing.label]
                heavy = heaviest_imports(request, stack.env(request))
                body += (
                    f"\n\n`{timing.path.parent.name}` heaviest imports — by the handler file (cumulative): "
                    f"{_listed(heavy.at_import)}; during its first request ({timing.label}): "
                    f"{_listed(heavy.at_first_request)}; by package (own time summed): "
                    f"{_listed(heavy.packages)}."
                )
    return Section("Cold start: import and first request of each function", body, result.figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
