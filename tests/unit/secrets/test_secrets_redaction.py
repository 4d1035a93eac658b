"""Redaction output: only secret spans change, findings carry no values, kinds are listed once."""

import dataclasses
import itertools

import pytest
from pandora_memory.secrets import Redaction, SecretFinding, contains_secret, find_secrets, redact

TEXT = (
    "deploy notes: GH token ghp_Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6Us1Ga, db at "
    "postgres://app:Vx7kq2Lz9p@db:5432/app and again ghp_Ab3De5Fg7Hj9Kl1Mn3Pq5Rs7Tv9Wx1Yz3cD."
)


def test_redaction_replaces_each_span_and_keeps_the_rest() -> None:
    redacted = redact(TEXT)

    assert redacted.text == (
        "deploy notes: GH token [REDACTED:github_pat], db at "
        "postgres://app:[REDACTED:postgres_url]@db:5432/app and again [REDACTED:github_pat]."
    )
    assert redacted.kinds == ["github_pat", "postgres_url"]
    assert len(redacted.findings) == 3


def test_findings_are_sorted_non_overlapping_and_hold_no_value() -> None:
    findings = find_secrets(TEXT)

    assert [f.start for f in findings] == sorted(f.start for f in findings)
    assert all(a.end <= b.start for a, b in itertools.pairwise(findings))
    for finding in findings:
        fields = {field.name for field in dataclasses.fields(SecretFinding)}
        assert fields == {"kind", "start", "end", "rule"}
        assert TEXT[finding.start : finding.end] not in repr(finding)


def test_finding_and_redaction_are_frozen() -> None:
    finding = find_secrets(TEXT)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.kind = "other"  # type: ignore[misc]
    redacted = redact(TEXT)
    with pytest.raises(dataclasses.FrozenInstanceError):
        redacted.text = ""  # type: ignore[misc]


def test_text_without_secret_is_returned_unchanged() -> None:
    text = "Can you help me plan the deployment? The key point is the password reset flow."

    assert redact(text) == Redaction(text, ())
    assert redact(text).kinds == []
    assert not contains_secret(text)


def test_empty_text() -> None:
    assert find_secrets("") == []
    assert redact("").text == ""


def test_contains_secret_agrees_with_find_secrets() -> None:
    assert contains_secret(TEXT)
    assert contains_secret("my pin is 4471")
    assert not contains_secret("my pin is the same as before")


def test_every_repeat_of_a_found_value_is_redacted_too() -> None:
    text = "alarm at the allotment: disarm with 5083, set it again with 5083# when you leave"

    redacted = redact(text).text

    assert "5083" not in redacted
    assert redacted.count("[REDACTED:") == 2


def test_a_four_digit_pin_runs_on_over_digit_groups_only() -> None:
    assert redact("my card pin is 5208 dont laugh").text == "my card pin is [REDACTED:pin] dont laugh"
    assert "8813" not in redact("the router pin is 5208 8813 0957").text
