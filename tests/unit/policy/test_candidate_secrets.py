"""Credentials anywhere in a turn block the candidate, and no field of the decision repeats them.

Every credential here is random and fake, built at test time.
"""

import random
import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity

ALNUM = string.ascii_letters + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits


def _chars(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """Random characters with every class of the alphabet present, so they look like real key bodies."""
    classes = [cls for cls in (str.isdigit, str.islower, str.isupper) if any(cls(c) for c in alphabet)]
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if all(any(cls(c) for c in value) for cls in classes):
            return value


def fake_aws_key(rng: random.Random) -> str:
    return "AKIA" + _chars(rng, 16, UPPER_ALNUM)


def fake_github_token(rng: random.Random) -> str:
    return "ghp_" + _chars(rng, 36)


def fake_gitlab_token(rng: random.Random) -> str:
    return "glpat-" + _chars(rng, 20)


FAKE_SECRETS = [fake_aws_key, fake_github_token, fake_gitlab_token]


def assert_never_echoed(decision: CandidateDecision, secret: str) -> None:
    dumped = decision.model_dump_json()
    assert secret not in dumped
    # Nor a long stretch of it: redaction must cover the whole value, not just its prefix.
    assert secret[-12:] not in dumped


@pytest.mark.parametrize(
    ("template", "maker", "expected_type"),
    [
        (
            "the release bot token is {secret}, set it as GH_RELEASE_TOKEN in the actions env",
            fake_github_token,
            MemoryType.ENV_CONFIG_DECISION,
        ),
        ("aws says AccessDenied for {secret}, what does that mean?", fake_aws_key, MemoryType.NONE),
        (
            "runner token {secret} lives on the old mac mini, deployed there last week",
            fake_gitlab_token,
            MemoryType.DEPLOYMENT_TRUTH,
        ),
    ],
)
def test_a_credential_blocks_the_turn_and_is_redacted_everywhere(
    template: str, maker: object, expected_type: MemoryType
) -> None:
    assert callable(maker)
    secret = maker(random.Random(7))
    decision = should_auto_create_memory_candidate(template.format(secret=secret), namespace="real_life")
    assert decision.status is CandidateStatus.BLOCKED_SECRET
    assert decision.should_create_candidate, "the user sees that something was held back"
    assert decision.requires_review
    assert decision.secret_kinds
    assert decision.rules[0] == "candidate.secret.blocked"
    assert decision.memory_type is expected_type
    assert decision.summary.startswith("Blocked (")
    assert "[REDACTED:" in decision.summary
    assert decision.sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE)
    assert_never_echoed(decision, secret)


def test_a_password_in_plain_words_is_blocked() -> None:
    secret = _chars(random.Random(11), 12)
    decision = should_auto_create_memory_candidate(
        f"the wifi password is {secret} btw", namespace="real_life"
    )
    assert decision.status is CandidateStatus.BLOCKED_SECRET
    assert_never_echoed(decision, secret)


def test_a_credential_in_the_assistant_reply_also_blocks() -> None:
    secret = fake_aws_key(random.Random(3))
    decision = should_auto_create_memory_candidate(
        "what's in my config?",
        f"Your config sets AWS_ACCESS_KEY_ID={secret}; rotate it.",
        namespace="real_life",
    )
    assert decision.status is CandidateStatus.BLOCKED_SECRET
    assert_never_echoed(decision, secret)


def test_secret_looking_but_harmless_text_is_not_blocked() -> None:
    decision = should_auto_create_memory_candidate(
        "set OPENAI_API_KEY=$OPENAI_API_KEY in the shell from now on, never paste it here",
        namespace="real_life",
    )
    assert decision.status is not CandidateStatus.BLOCKED_SECRET
    assert decision.secret_kinds == []


_filler_text = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=200)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=_filler_text,
    after=_filler_text,
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    maker_index=st.integers(min_value=0, max_value=len(FAKE_SECRETS) - 1),
    in_reply=st.booleans(),
    namespace=st.sampled_from([None, "real_life", "au"]),
)
def test_a_fake_secret_anywhere_is_blocked_and_never_echoed(
    before: str, after: str, seed: int, maker_index: int, in_reply: bool, namespace: str | None
) -> None:
    secret = FAKE_SECRETS[maker_index](random.Random(seed))
    carrier = f"{before} {secret} {after}"
    user, reply = (after, carrier) if in_reply else (carrier, None)
    decision = should_auto_create_memory_candidate(user, reply, namespace=namespace)
    assert decision.status is CandidateStatus.BLOCKED_SECRET
    assert decision.requires_review
    assert decision.secret_kinds
    assert_never_echoed(decision, secret)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    user=st.text(max_size=600),
    reply=st.one_of(st.none(), st.text(max_size=300)),
    namespace=st.sampled_from([None, "real_life", "au", Namespace.AU]),
    source=st.text(max_size=20),
)
def test_any_text_gives_a_valid_decision(
    user: str, reply: str | None, namespace: str | None, source: str
) -> None:
    decision = should_auto_create_memory_candidate(user, reply, namespace=namespace, source=source)
    assert 0.0 <= decision.confidence <= 1.0
    assert len(decision.summary) <= 200
    assert decision.should_create_candidate == (decision.status is not CandidateStatus.NOT_CANDIDATE)
    if decision.status is CandidateStatus.CANDIDATE:
        assert decision.memory_type is not MemoryType.NONE
        assert decision.summary
    if decision.status is CandidateStatus.NOT_CANDIDATE:
        assert decision.memory_type is MemoryType.NONE
        assert decision.summary == ""
    if decision.sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE) or decision.secret_kinds:
        assert decision.requires_review
    assert (decision.status is CandidateStatus.BLOCKED_SECRET) == bool(decision.secret_kinds)
    # The caller's source is echoed only when it is a plain identifier.
    plain = re.fullmatch(r"[a-z0-9_.-]{1,32}", source) is not None
    assert (f"source {source};" in decision.reason or decision.reason.endswith(f"source {source}")) == plain
    assert ("source other" in decision.reason) != plain or source == "other"  # "other" is both


def fake_password(rng: random.Random) -> str:
    return _chars(rng, 6) + rng.choice("!#%*@^") + _chars(rng, 3, string.digits)


def fake_access_code(rng: random.Random) -> str:
    return _chars(rng, 6, string.digits)


def fake_hex_token(rng: random.Random) -> str:
    return _chars(rng, 32, "0123456789abcdef")


# Credentials that only their context marks: user pairs, other languages, positional code arguments.
CONTEXT_SECRETS = [
    ("bank login: user tidewell_ops pass {secret}", fake_password),
    ("creds for the NAS are backup / {secret}", fake_password),
    ("router admin:{secret} until I change it", fake_password),
    ("o código do alarme é {secret}", fake_access_code),
    ("unser Zugangscode lautet {secret}", fake_access_code),
    ("le code de la porte est {secret}", fake_access_code),
    ("hasło do wifi to {secret}", fake_password),
    ("client = Client('AC0123456789abcdef0123456789abcdef', '{secret}')", fake_hex_token),
    ("r = requests.get(url, auth=('svc-bot', '{secret}'))", fake_password),
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=_filler_text,
    after=_filler_text,
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    family=st.integers(min_value=0, max_value=len(CONTEXT_SECRETS) - 1),
    in_reply=st.booleans(),
)
def test_a_credential_marked_by_its_context_is_blocked_and_never_echoed(
    before: str, after: str, seed: int, family: int, in_reply: bool
) -> None:
    template, maker = CONTEXT_SECRETS[family]
    secret = maker(random.Random(seed))
    carrier = f"{before}\n{template.format(secret=secret)}\n{after}"
    user, reply = (after, carrier) if in_reply else (carrier, None)
    decision = should_auto_create_memory_candidate(user, reply, namespace="real_life")
    assert decision.status is CandidateStatus.BLOCKED_SECRET
    assert decision.requires_review
    assert_never_echoed(decision, secret)
