"""Group options go before or after the action; a wrong argument is reported by its own command."""

import subprocess
import sys
from pathlib import Path

import pytest
from pandora_memory.cli.main import build_parser, main

SAME_MEANING = [
    ("flags --stage prod --local show", "flags show --stage prod --local"),
    ("flags --local set PANDORA_AUTO_RETRIEVE false", "flags set PANDORA_AUTO_RETRIEVE false --local"),
    ("token --local --stage prod list", "token list --local --stage prod"),
    ("review --local --json --namespace au list", "review list --local --json --namespace au"),
    ("review --namespace au --limit 5 list", "review list --limit 5 --namespace au"),
]


def _parsed(command: str) -> dict[str, object]:
    values = vars(build_parser().parse_args(command.split()))
    return {key: value for key, value in values.items() if key not in ("run", "error_parser")}


@pytest.mark.parametrize(("before", "after"), SAME_MEANING)
def test_group_options_mean_the_same_before_and_after_the_action(before: str, after: str) -> None:
    assert _parsed(before) == _parsed(after)


def test_an_option_before_the_action_is_not_reset_by_the_action() -> None:
    assert _parsed("flags --stage prod show")["stage"] == "prod"
    assert _parsed("flags show")["stage"] == "dev"
    assert _parsed("review list")["namespace"] == "real_life"


def test_an_unknown_argument_is_reported_by_the_command_it_was_given_to(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["flags", "show", "--bogus"])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "usage: pandora-memory flags show" in error
    assert "pandora-memory flags show: error: unrecognized arguments: --bogus" in error


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # `pandora-memory classify < big.jsonl | head -n 1`: the reader leaves early; no traceback on stderr.
    lines = tmp_path / "lines.jsonl"
    lines.write_text('{"user_message": "we ship on Tuesdays from now on"}\n' * 5000)
    with lines.open() as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "pandora_memory.cli.main", "classify"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        errors = process.stderr.read()
        code = process.wait(timeout=120)
    assert first.startswith(b'{"retrieve"')
    assert errors == b"" and code == 141
