"""`pandora-memory review` and `feedback export` end to end: a real terminal (pexpect) or pipes, SigV4
calls to the embedded local stack (which verifies the signatures), and the DynamoDB state checked."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pexpect
import pytest
from handler.review_harness import seed_candidate
from pandora_devstack.local_config import LocalStackInfo
from pandora_devstack.stack import LocalStack
from pandora_memory.storage.records import CandidateRecord, InboxStatus, from_item

pytestmark = pytest.mark.integration

# The CLI as `pandora-memory` runs it, with only these subcommands registered.
RUNNER = """
import argparse, sys
from pandora_memory.cli import feedback_cmd, review_cmd
parser = argparse.ArgumentParser(prog="pandora-memory")
commands = parser.add_subparsers(required=True)
review_cmd.register(commands)
feedback_cmd.register(commands)
args = parser.parse_args(sys.argv[1:])
sys.exit(args.run(args))
"""


@dataclass
class Local:
    stack: LocalStack
    info: LocalStackInfo
    workdir: Path
    client: Any

    def seed(self, summary: str, day: int, **fields: Any) -> CandidateRecord:
        created_at = f"2026-11-{day:02d}T10:00:00.000000Z"
        return seed_candidate(
            self.client, self.info.table_names["CandidatesTable"], summary, created_at=created_at, **fields
        )

    def candidate(self, record: CandidateRecord) -> dict[str, Any]:
        item = self.client.get_item(
            TableName=self.info.table_names["CandidatesTable"],
            Key={"namespace": {"S": record.namespace.value}, "content_hash": {"S": record.content_hash}},
        )["Item"]
        return from_item(item)

    def items(self, logical_id: str) -> list[dict[str, Any]]:
        items = self.client.scan(TableName=self.info.table_names[logical_id])["Items"]
        return [from_item(item) for item in items]

    def env(self) -> dict[str, str]:
        """A clean environment: the CLI must find its endpoint and keys in .pandora/local.json.

        PYTHONPATH is kept so the child runs the same source tree as the test."""
        return {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "HOME": str(self.workdir),
            "AWS_EC2_METADATA_DISABLED": "true",
            "AWS_CONFIG_FILE": str(self.workdir / "no-aws-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(self.workdir / "no-aws-credentials"),
            "TERM": "dumb",
        }

    def run(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", RUNNER, *args],
            cwd=self.workdir,
            env=self.env(),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )


@pytest.fixture
def local(tmp_path: Path) -> Iterator[Local]:
    stack = LocalStack(api_port=0, state_dir=tmp_path / ".pandora", access_log=False)
    info = stack.start()
    try:
        client = stack.session().client("dynamodb", endpoint_url=info.aws_endpoint)
        yield Local(stack, info, tmp_path, client)
    finally:
        stack.stop()


def test_walk_through_the_inbox_with_single_keys(local: Local) -> None:
    blocked = local.seed(
        "Deploy key is [REDACTED:aws_access_key_id]",
        1,
        memory_type="env_config_decision",
        status=InboxStatus.BLOCKED_SECRET,
        secret_kinds=("aws_access_key_id",),
    )
    sensitive = local.seed("Sees a therapist on Tuesdays", 2, memory_type="relationship_loop")
    misplaced = local.seed("Mirela never forgives a broken oath", 3, memory_type="au_canon")
    noise = local.seed("Asked how SQS FIFO ordering works", 4, memory_type="blocker")
    rough = local.seed("Prefers tabs", 5)
    plain = local.seed("Wants the shell command first, explanation after", 6)

    child = pexpect.spawn(
        sys.executable,
        ["-c", RUNNER, "review", "--local", "--namespace", "real_life"],
        cwd=str(local.workdir),
        env=local.env(),
        encoding="utf-8",
        timeout=30,
    )
    try:
        child.expect(plain.id)  # newest first
        child.expect("> ")
        child.send("a")  # one key, no Enter
        child.expect("approved: memory real_life.")

        child.expect(rough.id)
        child.expect("> ")
        child.send("x")  # not an action: asked again
        child.expect("press one of")
        child.expect("> ")
        child.send("e")
        child.expect("new summary")
        child.sendline("Prefers tabs over spaces in Go files")
        child.expect(r"summary +Prefers tabs over spaces in Go files")  # shown again, not yet stored
        child.expect("pending +summary Prefers tabs -> Prefers tabs over spaces in Go files")
        child.expect("> ")
        child.send("a")
        child.expect("approved: memory real_life.")

        child.expect(noise.id)
        child.expect("> ")
        child.send("r")
        child.expect("reason")
        child.sendline("a one-off question")
        child.expect("rejected: ")

        child.expect(misplaced.id)
        child.expect("> ")
        child.send("n")
        child.expect(r"move to au\? \[y/n\] ")
        child.send("y")
        child.expect("pending +namespace real_life -> au")
        child.expect("> ")
        child.send("a")
        child.expect(r"approved: memory au\.")

        child.expect(sensitive.id)
        child.expect("> ")
        child.send("s")
        child.expect("sensitivity")
        child.send("h")
        child.expect(r"sensitivity high")  # relabelled and shown again: nothing approved yet
        child.expect("pending +sensitivity low -> high")
        child.expect("> ")
        assert local.candidate(sensitive)["status"] == "pending_review"
        child.send("u")  # undo: back to the proposal
        child.expect(r"sensitivity low")
        child.expect("> ")
        child.send("s")
        child.expect("sensitivity")
        child.send("p")
        child.expect("pending +sensitivity low -> private")
        child.expect("> ")
        assert local.candidate(sensitive)["status"] == "pending_review"
        child.send("a")
        child.expect("approved: memory real_life.")

        child.expect(blocked.id)
        child.expect("secret held")
        child.expect("> ")
        child.send("a")  # refused: needs an edited summary; the same candidate is offered again
        child.expect("edited summary")
        child.expect("> ")
        child.send("k")
        child.expect("Done: ")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0

    assert local.candidate(plain)["status"] == "approved"
    assert local.candidate(rough)["status"] == "approved"
    assert local.candidate(noise)["status"] == "rejected"
    assert local.candidate(noise)["review_note"] == "a one-off question"
    moved = local.candidate(misplaced)
    assert (moved["status"], moved["corrected_namespace"], moved["namespace"]) == (
        "approved",
        "au",
        "real_life",
    )
    assert local.candidate(blocked)["status"] == "blocked_secret"

    memories = {(m["namespace"], m["summary"]): m for m in local.items("MemoryEventsTable")}
    assert set(memories) == {
        ("real_life", "Wants the shell command first, explanation after"),
        ("real_life", "Prefers tabs over spaces in Go files"),
        ("au", "Mirela never forgives a broken oath"),
        ("real_life", "Sees a therapist on Tuesdays"),
    }
    assert memories[("real_life", "Sees a therapist on Tuesdays")]["sensitivity"] == "private"
    assert all(memory["source"] == "review" for memory in memories.values())
    events = local.items("FeedbackEventsTable")
    assert sorted(e["action"] for e in events) == ["approved"] * 4 + ["rejected"]


def test_without_a_terminal_each_answer_is_a_line(local: Local) -> None:
    older = local.seed("Prefers dark mode in every editor", 1)
    newer = local.seed("Keeps a changelog in every repo", 2)
    result = local.run("review", "--local", stdin="approve\nskip\n")
    assert result.returncode == 0, result.stderr
    assert "Done: 1 approved, 1 skipped." in result.stdout
    assert local.candidate(newer)["status"] == "approved"
    assert local.candidate(older)["status"] == "pending_review"


def test_json_mode_for_scripts(local: Local) -> None:
    first = local.seed("Prefers dark mode in every editor", 1)
    second = local.seed("Asked about DynamoDB TTL", 2, memory_type="blocker")

    listed = local.run("review", "--local", "--json", "list")
    assert listed.returncode == 0, listed.stderr
    assert [c["id"] for c in json.loads(listed.stdout)["candidates"]] == [second.id, first.id]

    approved = local.run(
        "review",
        "--local",
        "--json",
        "approve",
        first.id,
        "--summary",
        "Prefers dark mode everywhere",
        "--sensitivity",
        "medium",
    )
    assert approved.returncode == 0, approved.stderr
    assert json.loads(approved.stdout)["memory"]["summary"] == "Prefers dark mode everywhere"

    rejected = local.run("review", "--local", "--json", "reject", second.id, "--reason", "just a question")
    assert rejected.returncode == 0, rejected.stderr
    assert json.loads(rejected.stdout)["candidate"]["status"] == "rejected"

    again = local.run("review", "--local", "--json", "reject", second.id)
    assert again.returncode == 1
    assert again.stdout == ""
    assert again.stderr.count("\n") == 1
    assert "current status rejected" in again.stderr

    added = local.run(
        "review",
        "--local",
        "--namespace",
        "au",
        "--json",
        "add",
        "--summary",
        "Dusk is Mirela's sword",
        "--memory-type",
        "au_canon",
    )
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["memory"]["namespace"] == "au"

    # Blocked for a secret: the adaptive turn keeps no message preview, only the redacted summary.
    blocked_fields: dict[str, Any] = {
        "memory_type": "project_decision",
        "status": InboxStatus.BLOCKED_SECRET,
        "secret_kinds": ("github_pat",),
        "preview": "",
    }
    kept = local.seed(
        "Blocked (github_pat): Decision: rotate the deploy key [REDACTED:github_pat]", 3, **blocked_fields
    )
    dropped = local.seed(
        "Blocked (github_pat): Decision: paste the CI token [REDACTED:github_pat]", 4, **blocked_fields
    )
    edited = local.run(
        "review", "--local", "--json", "approve", kept.id, "--summary", "Rotate the deploy key"
    )
    assert edited.returncode == 0, edited.stderr
    assert local.run("review", "--local", "--json", "reject", dropped.id).returncode == 0

    summary = local.run("feedback", "summary", "--local", "--namespace", "real_life")
    assert summary.returncode == 0, summary.stderr
    figures = json.loads(summary.stdout)
    assert figures["by_memory_type"]["preference"]["corrected"] == 1
    assert figures["by_memory_type"]["blocker"]["rejected"] == 1

    exported = local.run("feedback", "export", "--local", "--out", "labeled.jsonl")
    assert exported.returncode == 0, exported.stderr
    assert "ids end in -summary" in exported.stderr
    examples = [json.loads(line) for line in (local.workdir / "labeled.jsonl").read_text().splitlines()]
    assert sorted((e["should_create_candidate"], e["memory_type"], e["namespace"]) for e in examples) == [
        (False, "none", "real_life"),
        (False, "none", "real_life"),
        (True, "au_canon", "au"),
        (True, "preference", "real_life"),
        (True, "project_decision", "real_life"),
    ]
    secret_rows = sorted((e["user_message"], e["contains_secret"]) for e in examples if e["contains_secret"])
    assert secret_rows == [
        ("Decision: paste the CI token [REDACTED:github_pat]", True),
        ("Decision: rotate the deploy key [REDACTED:github_pat]", True),
    ], "the candidate's redacted text without the 'Blocked (...)' lead, labelled as holding a secret"
    assert all(e["id"].endswith("-summary") for e in examples if e["contains_secret"])
    assert all(not e["contains_secret"] for e in examples if e["user_message"].startswith("user said:"))


def test_errors_are_one_clear_line(local: Local) -> None:
    unreachable = local.run("review", "--local", "--api-url", "http://127.0.0.1:9", "--json", "list")
    assert unreachable.returncode == 2
    assert unreachable.stderr.strip().startswith("pandora-memory review: cannot reach the API")
    assert unreachable.stderr.count("\n") == 1

    config = local.workdir / ".pandora" / "local.json"
    document = json.loads(config.read_text())
    document["secret_access_key"] = "not-the-right-secret-key-0000000000000000"
    forged = local.workdir / "forged.json"
    forged.write_text(json.dumps(document))
    refused = local.run("review", "--local", "--local-config", str(forged), "--json", "list")
    assert refused.returncode == 1
    assert refused.stderr.startswith("pandora-memory review: access denied (403)")
    assert refused.stderr.count("\n") == 1

    no_stack = local.run("review", "--local", "--local-config", str(local.workdir / "missing.json"), "--json")
    assert no_stack.returncode == 2
    assert "no local stack found" in no_stack.stderr

    no_credentials = local.run(
        "review", "--api-url", "https://abc123.execute-api.eu-west-1.amazonaws.com/dev"
    )
    assert no_credentials.returncode == 2
    assert "no AWS credentials found" in no_credentials.stderr
