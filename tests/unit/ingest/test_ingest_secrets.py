"""A secret in an uploaded file ends up in no DynamoDB item and no S3 object but the upload itself."""

import random
import string

from pandora_memory.ingest.outcomes import OutcomeKind
from pandora_memory.secrets import redact
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture  # noqa: F401 - the `ingest` fixture

_RNG = random.Random(20240611)


def _fake(alphabet: str, length: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


AWS_KEY_ID = "AKIA" + _fake("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
GITHUB_TOKEN = "ghp_" + _fake(string.ascii_letters + string.digits, 36)
PASSWORD = _fake(string.ascii_letters + string.digits, 14) + "!"
SECRETS = (AWS_KEY_ID, GITHUB_TOKEN, PASSWORD)

OPS_NOTES = f"""# Ops

The deploy key is {AWS_KEY_ID}.

## Bot

export GITHUB_TOKEN={GITHUB_TOKEN}

## Database

The database password is {PASSWORD}

DATABASE_URL=postgres://app:{PASSWORD}@db.internal:5432/app
"""
OPS_NOTES_V2 = OPS_NOTES.replace("# Ops", "# Operations") + "\nRotate every quarter.\n"


def assert_no_secret_stored(ingest: IngestHarness) -> None:
    for item in ingest.raw_items():
        for secret in SECRETS:
            assert secret not in str(item)
    for key, body in ingest.stored_objects().items():
        for secret in SECRETS:
            assert secret.encode() not in body, key


def test_the_fake_secrets_are_ones_the_detector_finds() -> None:
    assert len(redact(OPS_NOTES).findings) >= 4


def test_a_secret_in_an_upload_is_stored_nowhere(ingest: IngestHarness) -> None:
    created = ingest.upload("ops/runbook", OPS_NOTES)
    updated = ingest.upload("ops/runbook", OPS_NOTES_V2)
    ingest.upload("ops/copy", OPS_NOTES)
    ingest.delete("ops/copy")

    assert created.redaction_count >= 4
    assert updated.kind is OutcomeKind.INGESTED
    assert "[REDACTED:github_pat]" in ingest.searchable_text("ops/runbook")
    [old, _new] = ingest.history("ops/runbook")
    assert old.diff is not None and old.summary is not None
    assert set(old.redaction_kinds) >= {"aws_access_key_id", "github_pat"}
    assert_no_secret_stored(ingest)


def test_a_secret_is_not_in_the_outcome_either(ingest: IngestHarness) -> None:
    outcome = ingest.upload("ops/runbook", OPS_NOTES)

    for secret in SECRETS:
        assert secret not in str(outcome.as_log())
