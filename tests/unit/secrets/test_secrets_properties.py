"""Property tests: fake secrets embedded anywhere are found and never survive redaction."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from pandora_memory.secrets import find_secrets, redact
from secret_fakes import FAKES, chars, password

# Talk about credentials without one: credential nouns, function words and the adjectives that
# follow "password is" in ordinary talk. A plain noun ("password is sunflower") would be a stated
# password, so none is in the list; fewer than ten are BIP39 words, so no run passes for a seed.
SAFE_WORDS = [
    *("the", "my", "is", "was", "and", "to", "for", "of", "in", "use", "as", "same", "please", "ok"),
    *("password", "token", "key", "secret", "api", "bearer", "credentials", "비밀번호", "contraseña"),
    *("reset", "expired", "stored", "wrong", "required", "rotated", "leaked", "changed", "1password"),
    *("12", "404"),
]
FILLER = st.text(alphabet=st.characters(exclude_categories=["Cs"], max_codepoint=0x2FFF), max_size=60)


# How a pasted value sits in text: bare, quoted, in JSON, a query string, markdown, a literal "\\n".
WRAPPERS = [
    "{}",
    "'{}'",
    '"{}",',
    "({})",
    "={}&x=1",
    "<{}>",
    "`{}`",
    "x:{}",
    '{{"key":"{}"}}',
    "{}\\n",
    "**{}**",
]


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(FAKES)),
    seed=st.integers(0, 2**32 - 1),
    wrapper=st.sampled_from(WRAPPERS),
    before=FILLER,
    after=FILLER,
)
def test_embedded_fake_secret_is_found_and_redacted(
    name: str, seed: int, wrapper: str, before: str, after: str
) -> None:
    value = FAKES[name][0](random.Random(seed))
    text = f"{before} {wrapper.format(value)} {after}"

    findings = find_secrets(text)
    redacted = redact(text)

    start = text.index(value)
    assert any(f.start <= start and start + len(value) <= f.end for f in findings)
    assert value not in redacted.text


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(SAFE_WORDS), max_size=40),
    separator=st.sampled_from([" ", ", ", ". ", "\n"]),
)
def test_text_without_secrets_is_left_identical(words: list[str], separator: str) -> None:
    text = separator.join(words)

    assert find_secrets(text) == []
    assert redact(text).text == text


@settings(max_examples=500, deadline=None)
@given(text=st.text(max_size=400))
def test_arbitrary_unicode_never_crashes_and_spans_are_valid(text: str) -> None:
    findings = find_secrets(text)

    previous_end = 0
    for finding in findings:
        assert previous_end <= finding.start < finding.end <= len(text)
        previous_end = finding.end
    assert redact(text).findings == tuple(findings)


def _user(rng: random.Random) -> str:
    return rng.choice(["jdoe", "ops", "tidewell_ops", "maria.s", "svc-bot", "ana.lima"]) + str(
        rng.randint(1, 99)
    )


def _pin(rng: random.Random) -> str:
    return "".join(rng.choice("0123456789") for _ in range(rng.randint(5, 8)))


def _hex32(rng: random.Random) -> str:
    return chars(rng, 32, "0123456789abcdef")


# Credentials stated without "password is": (template, which value of the fill is the secret).
CONTEXT_FAMILIES = [
    "bank login: user {user} pass {password}",
    "login is {user} / {password}",
    "creds: {user} / {password}",
    "admin:{password} for the router",
    "studio wifi: {user} / {password}",
    "{user}@example.org / {password}",
    "my password is\n{password}",
    "le code du portail chez {user} c'est {pin}",
    "도어락 번호는 {pin}",
    "o código do alarme é {pin}",
    "le code de la porte est {pin}",
    "der Zugangscode lautet {pin}",
    "il codice del cancello è {pin}",
    "hasło do wifi to {password}",
    "mein Kennwort lautet {password}",
    "requests.get(url, auth=('{user}', '{password}'))",
    "Client('AC{hex}', '{token}')",
    "const stripe = new Stripe('{token}');",
]


@settings(max_examples=300, deadline=None)
@given(
    template=st.sampled_from(CONTEXT_FAMILIES),
    seed=st.integers(0, 2**32 - 1),
    before=FILLER,
    after=FILLER,
)
def test_credential_stated_in_context_is_found_and_redacted(
    template: str, seed: int, before: str, after: str
) -> None:
    rng = random.Random(seed)
    fill = {
        "user": _user(rng),
        "password": password(rng),
        "pin": _pin(rng),
        "hex": _hex32(rng),
        "token": chars(rng, 32),
    }
    secret = next(fill[name] for name in ("password", "pin", "token") if "{" + name + "}" in template)
    text = f"{before}\n{template.format(**fill)}\n{after}"

    redacted = redact(text)

    assert secret not in redacted.text
