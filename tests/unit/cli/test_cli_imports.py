"""`pandora-memory --help` and `classify` do not load boto3: each subcommand imports its heavy
dependencies when it runs, not when it registers its options."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("boto3", "botocore", "requests", "tqdm")

# Runs the CLI module as `python -m pandora_memory.cli.main ARGS` does, then reports (on stderr)
# which heavy modules the run loaded.
PROBE = """
import runpy, sys
sys.argv = ["pandora-memory", *sys.argv[1:]]
try:
    runpy.run_module("pandora_memory.cli.main", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    print("LOADED " + " ".join(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)
"""


def loaded_by(*argv: str, cwd: Path, stdin: str = "") -> tuple[set[str], subprocess.CompletedProcess[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv],
        input=stdin,
        cwd=cwd,  # no `.pandora/local.json` there: nothing reaches a running stack
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    marker = [line for line in result.stderr.splitlines() if line.startswith("LOADED")]
    assert marker, result.stderr
    return set(marker[-1].split()[1:]), result


@pytest.mark.parametrize(
    "argv",
    [("--help",), ("sync", "--help"), ("review", "--help"), ("backfill", "--help"), ("flags", "--help")],
)
def test_help_loads_no_aws_sdk(argv: tuple[str, ...], tmp_path: Path) -> None:
    loaded, result = loaded_by(*argv, cwd=tmp_path)

    assert "usage: pandora-memory" in result.stdout
    assert loaded == set()


def test_classify_loads_no_aws_sdk(tmp_path: Path) -> None:
    loaded, result = loaded_by(
        "classify", cwd=tmp_path, stdin=json.dumps({"user_message": "what did I decide?"}) + "\n"
    )

    assert set(json.loads(result.stdout)) == {"retrieve", "candidate"}
    assert loaded == set()


def test_the_probe_sees_a_subcommand_that_does_load_boto3(tmp_path: Path) -> None:
    loaded, _ = loaded_by(
        "token", "list", "--local", cwd=tmp_path
    )  # no stack here: fails after loading boto3

    assert "boto3" in loaded
