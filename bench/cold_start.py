"""Import time of each function module, the larger part of a Python Lambda cold start.

Each functions/<name>/app.py is loaded by file path, as Lambda loads its handler, in a fresh Python
process each time (the layer's directory on PYTHONPATH as /opt/python is in Lambda, the template's
environment set), and timed from before the import to after it; interpreter start-up is excluded.
A bare Powertools handler (bench/fixtures/hello_app.py: Logger, APIGatewayRestResolver, one route)
is measured the same way in the same run, runs interleaved, so their ratio is the figure that carries
over to other machines. Bytecode caches are warm for both. Aim: each function at most 1.5× the bare
handler; for a function over the aim the heaviest imports are named (`python -X importtime`, one
extra run).
"""

import json
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench.aws_env import FUNCTIONS, REGION
from bench.report import REPO_ROOT, Section, median

BARE = REPO_ROOT / "bench" / "fixtures" / "hello_app.py"
LAYER = REPO_ROOT / "layers" / "pandora"
AIM_RATIO = 1.5
MARKER = "--bench-import-starts--"

# Loads one handler file the way Lambda's runtime does and prints the seconds the import took.
_PROBE = f"""
import importlib.util, json, sys, time
path = sys.argv[1]
sys.path.insert(0, path.rsplit("/", 1)[0])
sys.stderr.write("{MARKER}\\n")
started, cpu = time.perf_counter(), time.process_time()
spec = importlib.util.spec_from_file_location("app", path)
module = importlib.util.module_from_spec(spec)
sys.modules["app"] = module
spec.loader.exec_module(module)
print(json.dumps([time.perf_counter() - started, time.process_time() - cpu]))
"""


@dataclass(frozen=True)
class ImportTiming:
    name: str
    path: Path
    wall: list[float]
    cpu: list[float]

    @property
    def wall_ms(self) -> float:
        return median(self.wall) * 1000

    @property
    def cpu_ms(self) -> float:
        return median(self.cpu) * 1000


def function_files() -> list[Path]:
    return sorted(FUNCTIONS.glob("*/app.py"))


def _environment() -> dict[str, str]:
    from pandora_devstack.provision import LOCAL_STACK_NAME, function_environment
    from pandora_devstack.template import Resolver, load_template

    template = load_template()
    resolver = Resolver(template, stack_name=LOCAL_STACK_NAME, region=REGION, parameters={"Stage": "dev"})
    return {
        **function_environment(template, resolver),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(LAYER),
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "POWERTOOLS_TRACE_DISABLED": "true",
    }


def import_seconds(path: Path, env: dict[str, str], importtime: bool = False) -> tuple[list[float], str]:
    """[wall, CPU] seconds to import `path` in a fresh interpreter, and its stderr (-X importtime)."""
    flags = ["-X", "importtime"] if importtime else []
    completed = subprocess.run(
        [sys.executable, "-s", *flags, "-c", _PROBE, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    wall, cpu = json.loads(completed.stdout.strip().splitlines()[-1])
    return [float(wall), float(cpu)], completed.stderr


def measure(paths: list[Path], runs: int) -> list[ImportTiming]:
    env = _environment()
    samples: dict[Path, list[list[float]]] = defaultdict(list)
    for path in paths:  # one untimed run each: bytecode caches written, files in the page cache
        import_seconds(path, env)
    for _ in range(runs):
        for path in paths:
            samples[path].append(import_seconds(path, env)[0])
    return [
        ImportTiming(_label(path), path, [s[0] for s in samples[path]], [s[1] for s in samples[path]])
        for path in paths
    ]


def _label(path: Path) -> str:
    return "bare Powertools handler" if path == BARE else path.parent.name


def heaviest_imports(path: Path, top: int = 5) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """(direct imports by cumulative ms, top-level packages by summed self ms) from -X importtime."""
    _, stderr = import_seconds(path, _environment(), importtime=True)
    lines = stderr.split(MARKER, 1)[-1].splitlines()
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
        if len(raw_name) - len(raw_name.lstrip(" ")) == 1:  # imported by the handler file itself
            direct.append((name, cumulative_us / 1000))
    by_package = sorted(packages.items(), key=lambda item: -item[1])[:top]
    return sorted(direct, key=lambda item: -item[1])[:top], by_package


def run(quick: bool = False) -> Section:
    runs = 3 if quick else 21
    timings = measure([BARE, *function_files()], runs)
    bare = timings[0]
    rows = []
    over: list[ImportTiming] = []
    figures = {"bare_import_cpu_ms": bare.cpu_ms, "bare_import_wall_ms": bare.wall_ms}
    for timing in timings[1:]:
        ratio = timing.cpu_ms / bare.cpu_ms
        figures[f"import_cpu_ms:{timing.name}"] = timing.cpu_ms
        figures[f"import_ratio:{timing.name}"] = ratio
        if ratio > AIM_RATIO:
            over.append(timing)
        rows.append(
            f"| {timing.name} | {timing.cpu_ms:.0f} | {timing.wall_ms:.0f} | **{ratio:.2f}×** "
            f"| {timing.wall_ms / bare.wall_ms:.2f}× | {'met' if ratio <= AIM_RATIO else 'MISSED'} |"
        )
    body = (
        (__doc__ or "").strip()
        + f"\n\nMedian of {runs} fresh processes each. The ratio is taken on CPU time, which other work "
        "on a shared machine disturbs less than wall time; both are shown. The bare handler imports in "
        f"{bare.cpu_ms:.0f} ms CPU / {bare.wall_ms:.0f} ms wall on this machine.\n\n"
        "| function | import CPU (ms) | wall (ms) | × bare (CPU) | × bare (wall) | aim ≤ 1.5× |\n"
        "|---|---:|---:|---:|---:|---|\n" + "\n".join(rows)
    )
    if quick and over:
        body += "\n\nThe heaviest imports are named in the full run."
    for timing in [] if quick else over:
        direct, packages = heaviest_imports(timing.path)
        body += (
            f"\n\n`{timing.name}` heaviest imports — by the handler file (cumulative): "
            + ", ".join(f"`{name}` {ms:.0f} ms" for name, ms in direct)
            + "; by package (own time summed): "
            + ", ".join(f"`{name}` {ms:.0f} ms" for name, ms in packages)
            + "."
        )
    return Section("Cold start: import time of each function", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
