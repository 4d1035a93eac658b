"""`pandora-memory backfill` in process against moto tables from template.yaml: dry run, --apply,
repeats, resume after an interruption, secrets, bad files, and a 2,000-conversation export."""

import argparse
import json
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from pandora_devstack.provision import ProvisionedStack
from pandora_memory.backfill.conversations import Conversation, ConversationReader
from pandora_memory.cli import backfill_cmd, backfill_run
from pandora_memory.storage.records import from_item
from scoring import report
from unit.backfill.backfill_samples import EXPECTED_OUTCOMES, FAKE_TOKEN, sample_export
from unit.backfill.export_factory import synthetic_export, write_conversations_json, write_export_zip


def run(*argv: str) -> int:
    """The subcommand as `pandora-memory` runs it once main.py registers it."""
    parser = argparse.ArgumentParser(prog="pandora-memory")
    backfill_cmd.register(parser.add_subparsers(required=True))
    args = parser.parse_args(["backfill", *argv])
    status: int = args.run(args)
    return status


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the checkpoint goes under ./.pandora/backfill
    return tmp_path


@pytest.fixture
def export(workdir: Path) -> Path:
    return write_conversations_json(workdir / "conversations.json", sample_export())


def items(stack: ProvisionedStack) -> list[dict[str, Any]]:
    pages = (
        boto3.client("dynamodb")
        .get_paginator("scan")
        .paginate(TableName=stack.table_names["CandidatesTable"])
    )
    return [from_item(item) for page in pages for item in page["Items"]]


def json_report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert run(*argv, "--json") == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_a_dry_run_prints_candidates_and_counts_and_writes_nothing(
    provisioned_stack: ProvisionedStack, export: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = provisioned_stack.table_names["CandidatesTable"]
    assert run(str(export), "--namespace", "real_life", "--table", table) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    listed = [line for line in lines if "\t" in line]
    assert len(listed) == 5
    assert sum(line.startswith("pending_review\t") for line in listed) == 4
    assert any(line.startswith("blocked_secret\tnone\thigh\t") for line in listed)
    assert "outcomes: 4 pending_review, 1 blocked_secret, 1 duplicate, 3 not_candidate" in out
    grid = {line.split()[0]: line.split()[1:] for line in lines if line.startswith("  ")}
    assert grid["memory"] == ["type", "low", "medium", "high", "private", "total"]
    assert grid["preference"] == ["1", "0", "0", "0", "1"]
    assert grid["open_loop"] == ["0", "1", "0", "0", "1"]
    assert grid["total"] == ["3", "1", "1", "0", "5"]
    assert "dry run: nothing was written" in out
    assert items(provisioned_stack) == []
    assert not (workdir / ".pandora").exists()


def test_json_counts_per_type_and_sensitivity(export: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json_report(capsys, str(export), "--namespace", "real_life")
    assert document["dry_run"] is True
    assert document["outcomes"] == EXPECTED_OUTCOMES
    assert document["queued_by_type"] == {
        "merged_pr": 1,
        "none": 1,
        "open_loop": 1,
        "preference": 1,
        "project_decision": 1,
    }
    assert document["queued_by_sensitivity"] == {"low": 3, "medium": 1, "high": 1}
    assert document["conversations"]["read"] == 6


def test_the_zip_gives_the_same_counts_as_the_file(
    export: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zipped = write_export_zip(workdir / "export.zip", sample_export())
    from_file = json_report(capsys, str(export), "--namespace", "real_life")
    from_zip = json_report(capsys, str(zipped), "--namespace", "real_life")
    assert from_zip["outcomes"] == from_file["outcomes"]
    assert from_zip["queued_by_type_and_sensitivity"] == from_file["queued_by_type_and_sensitivity"]


def test_apply_queues_then_a_rerun_adds_nothing(
    provisioned_stack: ProvisionedStack, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = ("--table", provisioned_stack.table_names["CandidatesTable"])
    first = json_report(capsys, str(export), "--namespace", "real_life", "--apply", *table)
    stored = items(provisioned_stack)
    assert first["outcomes"] == EXPECTED_OUTCOMES
    assert len(stored) == 5
    assert {item["status"] for item in stored} == {"pending_review", "blocked_secret"}
    assert first["checkpoint"] and Path(first["checkpoint"]).is_file()

    resumed = json_report(capsys, str(export), "--namespace", "real_life", "--apply", *table)
    assert resumed["conversations"]["already_done"] == 6
    assert resumed["outcomes"]["pending_review"] == 0

    restarted = json_report(capsys, str(export), "--namespace", "real_life", "--apply", "--restart", *table)
    assert restarted["outcomes"] == {
        **EXPECTED_OUTCOMES,
        "pending_review": 0,
        "blocked_secret": 0,
        "duplicate": 6,
    }
    assert items(provisioned_stack) == stored


def test_the_stack_name_finds_the_table(
    provisioned_stack: ProvisionedStack, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json_report(
        capsys, str(export), "--namespace", "au", "--apply", "--stack-name", provisioned_stack.stack_name
    )
    assert document["table"] == provisioned_stack.table_names["CandidatesTable"]
    assert {item["namespace"] for item in items(provisioned_stack)} == {"au"}


def test_an_interrupted_apply_resumes_where_it_stopped(
    provisioned_stack: ProvisionedStack,
    export: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = ("--table", provisioned_stack.table_names["CandidatesTable"])
    seen: list[str] = []

    class InterruptedReader(ConversationReader):
        def __iter__(self) -> Iterator[Conversation]:
            for number, conversation in enumerate(super().__iter__()):
                if number == 3:
                    raise KeyboardInterrupt  # Ctrl-C between conversations
                seen.append(conversation.id)
                yield conversation

    monkeypatch.setattr(backfill_run, "ConversationReader", InterruptedReader)
    assert run(str(export), "--namespace", "real_life", "--apply", *table) == 130
    stderr = capsys.readouterr().err
    assert "stopped after 3 conversations" in stderr
    assert "rerun the same command to resume" in stderr
    assert len(items(provisioned_stack)) == 4  # editor, ledger (two) and ci: the first three conversations

    monkeypatch.setattr(backfill_run, "ConversationReader", ConversationReader)
    resumed = json_report(capsys, str(export), "--namespace", "real_life", "--apply", *table)
    assert resumed["conversations"]["already_done"] == 3
    assert resumed["conversations"]["processed"] == 3
    assert resumed["outcomes"]["duplicate"] == 1  # only the preference stated twice
    assert len(items(provisioned_stack)) == 5


def test_the_secret_reaches_no_output_and_no_item(
    provisioned_stack: ProvisionedStack, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = ("--table", provisioned_stack.table_names["CandidatesTable"])
    assert run(str(export), "--namespace", "real_life", *table) == 0
    assert run(str(export), "--namespace", "real_life", "--apply", *table) == 0
    captured = capsys.readouterr()
    assert "[REDACTED:github_pat]" in captured.out
    assert FAKE_TOKEN not in captured.out + captured.err
    assert FAKE_TOKEN not in json.dumps(items(provisioned_stack), default=str)
    checkpoints = list(Path(".pandora").rglob("*.jsonl"))
    assert checkpoints and all(FAKE_TOKEN not in path.read_text() for path in checkpoints)


# name -> (content, expected words); None is a zip holding the export's other files only.
BAD_FILES: dict[str, tuple[str | None, str]] = {
    "not_json.json": ("this is not json", "is not JSON"),
    "object.json": ('{"title": "x"}', "one JSON object"),
    "strings.json": ('["a", "b"]', "not a conversation"),
    "no_mapping.json": ('[{"title": "x"}]', "no 'mapping'"),
    "truncated.json": ('[{"title": "x", "mapping": {', "not valid JSON"),
    "export.zip": (None, "holds no conversations.json"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_clear_line_and_a_failure(
    name: str, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, message = BAD_FILES[name]
    path = workdir / name
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("user.json", "{}")
    else:
        path.write_text(content)
    assert run(str(path), "--namespace", "real_life") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("pandora-memory backfill: ")
    assert message in captured.err


def test_a_missing_file_and_a_missing_table_are_refused(
    workdir: Path, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(workdir / "absent.json"), "--namespace", "real_life") == 1
    assert "no such file" in capsys.readouterr().err
    assert run(str(export), "--namespace", "real_life", "--apply") == 2
    err = capsys.readouterr().err
    assert "--apply needs the candidates table" in err and err.count("\n") == 1
    assert run(str(export), "--namespace", "real_life", "--apply", "--local") == 1
    assert "make dev" in capsys.readouterr().err


def test_the_namespace_is_required(export: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(str(export))
    assert exited.value.code == 2
    assert "--namespace" in capsys.readouterr().err


def test_two_thousand_conversations(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A dry run: the reader and the policy are the backfill's own cost (writes cost what the store does)."""
    zipped = write_export_zip(workdir / "export.zip", synthetic_export(2000, secret_every=50))
    started = time.perf_counter()
    document = json_report(capsys, str(zipped), "--namespace", "real_life")
    elapsed = time.perf_counter() - started
    outcomes = document["outcomes"]
    assert document["conversations"]["processed"] == 2000
    assert sum(document["queued_by_type"].values()) == outcomes["pending_review"] + outcomes["blocked_secret"]
    assert outcomes["blocked_secret"] >= 1
    assert sum(outcomes.values()) == document["turns"]["evaluated"]
    report(
        f"backfill dry run of 2,000 synthetic conversations ({zipped.stat().st_size // 1024} KiB zip, "
        f"{document['turns']['evaluated']} turns, {outcomes['pending_review'] + outcomes['blocked_secret']} "
        f"would queue, {outcomes['duplicate']} duplicate): {elapsed:.1f} s"
    )
