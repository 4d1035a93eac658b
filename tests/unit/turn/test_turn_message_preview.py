"""The message preview stored with a candidate: redacted whole, then bounded, on one line."""

import re

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity
from pandora_memory.secrets.findings import Redaction, SecretFinding
from pandora_memory.turn.candidate_records import MESSAGE_PREVIEW_CHARS, message_preview, sanitise

_FAKE = re.compile(r"FAKE-SECRET-[A-Z0-9]+")


class CountingRedactor:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> Redaction:
        self.texts.append(text)
        findings = tuple(SecretFinding("test_key", m.start(), m.end(), "test") for m in _FAKE.finditer(text))
        return Redaction(_FAKE.sub("[REDACTED:test_key]", text), findings)


def decision(status: CandidateStatus) -> CandidateDecision:
    return CandidateDecision(
        namespace=Namespace.REAL_LIFE,
        reason="stub",
        rules=[],
        policy_version="stub",
        should_create_candidate=status is CandidateStatus.CANDIDATE,
        requires_review=False,
        sensitivity=Sensitivity.LOW,
        memory_type=MemoryType.PREFERENCE if status is CandidateStatus.CANDIDATE else MemoryType.NONE,
        confidence=0.9,
        status=status,
        summary="prefers tabs" if status is CandidateStatus.CANDIDATE else "",
    )


def test_a_short_message_is_kept_on_one_line() -> None:
    assert (
        message_preview("  prefers tabs\n\nin Go  files ", CountingRedactor()) == "prefers tabs in Go files"
    )


def test_a_long_message_is_cut_at_a_word_with_an_ellipsis() -> None:
    text = message_preview("word " * 200, CountingRedactor())
    assert len(text) <= MESSAGE_PREVIEW_CHARS and text.endswith("word…")


def test_a_message_holding_a_credential_is_not_previewed_at_all() -> None:
    # The detector's find may sit beside a value it missed (a key id beside its secret).
    secret = "FAKE-SECRET-Q7W2E9R4T1Y8"
    assert (
        message_preview(f"client('{secret}', 'as0T6SqRgpXok97QBtbeo7BNo4bpmMZz')", CountingRedactor()) == ""
    )


def test_long_tokens_mixing_letters_and_digits_are_masked() -> None:
    text = message_preview(
        "use as0T6SqRgpXok97QBtbeo7BNo4bpmMZz for the staging-environment-documentation page",
        CountingRedactor(),
    )
    assert text == "use […] for the staging-environment-documentation page"


def test_the_message_is_read_only_for_a_candidate_free_of_secrets() -> None:
    redactor = CountingRedactor()
    message = "thanks, that is all " * 50
    clean = sanitise(decision(CandidateStatus.NOT_CANDIDATE), redactor, message)
    assert clean.user_message_preview == "" and message not in redactor.texts
    blocked = sanitise(decision(CandidateStatus.BLOCKED_SECRET), redactor, message)
    assert blocked.user_message_preview == "" and message not in redactor.texts
    kept = sanitise(decision(CandidateStatus.CANDIDATE), redactor, message)
    assert kept.user_message_preview.startswith("thanks, that is all") and message in redactor.texts
