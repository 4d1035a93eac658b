"""A secret in a turn reaches no DynamoDB item, no log line, no metric and no response."""

import random
import string
from typing import Any

import pytest
from handler.turn_harness import TurnHarness

_RNG = random.Random(20261129)  # fixed seed: random-looking fakes, stable across runs
_ALNUM = string.ascii_letters + string.digits


def _fake(prefix: str, length: int, alphabet: str = _ALNUM) -> str:
    return prefix + "".join(_RNG.choice(alphabet) for _ in range(length))


FAKE_GITHUB_TOKEN = _fake("ghp_", 36)
FAKE_DB_PASSWORD = _fake("", 14)
FAKE_AWS_KEY_ID = _fake("AKIA", 16, string.ascii_uppercase + string.digits)

SECRET_TURNS = [
    (
        f"deploy token for the worker repo is {FAKE_GITHUB_TOKEN}, it's set in the lambda env",
        FAKE_GITHUB_TOKEN,
    ),
    (
        f"reporting moves to RDS: DATABASE_URL=postgres://app:{FAKE_DB_PASSWORD}@db.internal.example:5432/app",
        FAKE_DB_PASSWORD,
    ),
    (f"aws cli says InvalidClientTokenId with {FAKE_AWS_KEY_ID}, what does that mean", FAKE_AWS_KEY_ID),
]


@pytest.mark.parametrize(("message", "secret"), SECRET_TURNS)
@pytest.mark.parametrize("autopilot", ["queue", "capture_low_risk"])
def test_a_secret_is_blocked_and_leaves_no_trace(
    turn: TurnHarness,
    capsys: pytest.CaptureFixture[str],
    message: str,
    secret: str,
    autopilot: str,
) -> None:
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", autopilot)
    turn.set_flag("PANDORA_AUTO_CAPTURE_LOW_RISK", "true")
    body: dict[str, Any] = {
        "namespace": "real_life",
        "user_message": message,
        "assistant_draft": f"Noted - keep {secret} out of the repo.",
        "mode": "post_answer",
    }
    replies = [turn.turn(**body), turn.turn(**{**body, "mode": "pre_answer"})]
    printed = capsys.readouterr()

    post = replies[0].body
    preview = post["candidate_preview"]
    assert replies[0].status == 200, post
    assert preview["status"] in ("blocked_secret", "duplicate", "not_candidate") or preview["outcome"] == (
        "blocked_secret"
    )
    assert preview["status"] == "blocked_secret", preview
    assert preview["requires_review"] is True
    assert any(w.startswith("secret withheld") for w in post["warnings"])
    [record] = turn.table_items("CandidatesTable")
    assert record["namespace_status"]["S"] == "real_life#blocked_secret"
    assert "[REDACTED" in record["summary"]["S"]
    assert turn.table_items("MemoryEventsTable") == []

    assert secret not in turn.all_items_text()
    assert all(secret not in reply.raw for reply in replies)
    assert secret not in printed.out and secret not in printed.err  # EMF metrics and any print
    assert turn.log.lines and all(secret not in line for line in turn.log.lines)


def test_a_repeated_secret_turn_stays_a_single_redacted_record(turn: TurnHarness) -> None:
    message, secret = SECRET_TURNS[0]
    first = turn.turn(namespace="real_life", user_message=message, mode="post_answer").body[
        "candidate_preview"
    ]
    second = turn.turn(namespace="real_life", user_message=message, mode="post_answer").body[
        "candidate_preview"
    ]
    assert (second["status"], second["id"], second["existing_status"]) == (
        "duplicate",
        first["id"],
        "blocked_secret",
    )
    assert len(turn.table_items("CandidatesTable")) == 1
    assert secret not in turn.all_items_text()
