import io
import json
import subprocess
import sys

from pandora_memory.cli.classify_cmd import run_classify
from pandora_memory.cli.main import main

FAKE_GITHUB_TOKEN = "ghp_" + "Q7vN2kLm9XcR4tYb8WzP1sDf6GhJ3aKe5UoI"


def classify(lines: list[bytes]) -> tuple[int, list[dict[str, object]]]:
    sink = io.StringIO()
    status = run_classify(io.BytesIO(b"\n".join(lines) + b"\n"), sink)
    return status, [json.loads(line) for line in sink.getvalue().splitlines()]


def test_each_line_gets_both_decisions() -> None:
    status, results = classify(
        [
            json.dumps({"user_message": "ok continue chapter 4", "namespace": "au"}).encode(),
            json.dumps({"user_message": "what's the capital of Portugal"}).encode(),
        ]
    )
    assert status == 0
    assert [set(result) for result in results] == [{"retrieve", "candidate"}] * 2
    assert results[0]["retrieve"]["namespace"] == "au"  # type: ignore[index]
    assert results[0]["candidate"]["namespace"] == "au"  # type: ignore[index]


def test_bad_lines_get_errors_in_place_and_the_rest_still_run() -> None:
    status, results = classify(
        [
            b"not json",
            json.dumps({"namespace": "au"}).encode(),
            json.dumps({"user_message": 42}).encode(),
            json.dumps({"user_message": "hi", "namespace": "work"}).encode(),
            b'{"user_message": "caf\xe9"}',
            json.dumps(["user_message"]).encode(),
            json.dumps({"user_message": "we're going with Postgres for the ledger"}).encode(),
        ]
    )
    assert status == 1
    assert len(results) == 7
    errors = [str(result.get("error", "")) for result in results[:6]]
    assert "line 1: line is not JSON" in errors[0]
    assert "user_message" in errors[1]
    assert "user_message" in errors[2]
    assert "unknown namespace 'work'" in errors[3]
    assert "UTF-8" in errors[4]
    assert "JSON object" in errors[5]
    assert set(results[6]) == {"retrieve", "candidate"}


def test_secret_never_reaches_the_output() -> None:
    line = json.dumps({"user_message": f"my github token is {FAKE_GITHUB_TOKEN} for the CI"}).encode()
    status, results = classify([line])
    assert status == 0
    assert results[0]["candidate"]["status"] == "blocked_secret"  # type: ignore[index]
    assert FAKE_GITHUB_TOKEN not in json.dumps(results)


def test_console_script_entry_point_runs_as_a_process() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pandora_memory.cli.main", "classify"],
        input=b'{"user_message": "where were we"}\n{"user_message": 1}\n',
        capture_output=True,
        check=False,
    )
    assert completed.returncode == 1
    out = completed.stdout.decode().splitlines()
    assert json.loads(out[0])["retrieve"]["should_retrieve"] is True
    assert "error" in json.loads(out[1])
    assert b"1 bad line" in completed.stderr


def test_unknown_subcommand_exits_non_zero() -> None:
    try:
        main(["nope"])
    except SystemExit as exit_:
        assert exit_.code == 2
    else:
        raise AssertionError("argparse accepted an unknown subcommand")
