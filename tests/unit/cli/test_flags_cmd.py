import argparse
from pathlib import Path

import pytest
from pandora_devstack.provision import ProvisionedStack
from pandora_memory.cli import flags_cmd


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="pandora-memory")
    flags_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return int(args.run(args))


def test_show_prints_the_template_defaults_and_no_warning(
    provisioned_stack: ProvisionedStack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("flags", "show") == 0
    out = capsys.readouterr().out
    assert "PANDORA_MEMORY_AUTOPILOT=queue" in out
    assert "PANDORA_AUTO_CAPTURE_LOW_RISK=false" in out
    assert "effective: mode=queue retrieve=True queue=True capture_low_risk=False" in out
    assert "warning" not in out


def test_set_changes_ssm_and_show_reflects_it(
    provisioned_stack: ProvisionedStack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("flags", "set", "PANDORA_MEMORY_AUTOPILOT", "capture_low_risk") == 0
    assert _run("flags", "set", "PANDORA_AUTO_CAPTURE_LOW_RISK", "TRUE") == 0
    capsys.readouterr()
    assert _run("flags", "show") == 0
    assert "effective: mode=capture_low_risk retrieve=True queue=True capture_low_risk=True" in (
        capsys.readouterr().out
    )


def test_set_refuses_a_value_the_functions_would_reject(
    provisioned_stack: ProvisionedStack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("flags", "set", "PANDORA_MEMORY_AUTOPILOT", "yolo") == 2
    assert "takes one of off, suggest, queue, capture_low_risk" in capsys.readouterr().err
    assert _run("flags", "show") == 0
    assert "PANDORA_MEMORY_AUTOPILOT=queue" in capsys.readouterr().out


def test_turning_off_sensitive_approval_says_it_cannot_cover_high_items(
    provisioned_stack: ProvisionedStack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("flags", "set", "PANDORA_SENSITIVE_MEMORY_REQUIRES_APPROVAL", "false") == 0
    assert "always wait for review" in capsys.readouterr().err


def test_unknown_flag_name_is_an_argument_error() -> None:
    with pytest.raises(SystemExit) as exit_:
        _run("flags", "set", "PANDORA_NOPE", "true")
    assert exit_.value.code == 2


def test_local_without_a_running_stack_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run("flags", "--local", "show") == 1
    err = capsys.readouterr().err
    assert err.startswith("pandora-memory flags:") and err.count("\n") == 1
