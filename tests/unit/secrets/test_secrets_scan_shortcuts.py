"""The detector's shortcuts (scans skipped or reshaped for speed) find exactly what the plain scans find."""

import re

import pytest
from pandora_memory.secrets.bip39_words import BIP39_WORDS
from pandora_memory.secrets.pattern_rule import rule
from pandora_memory.secrets.seed_phrase import MIN_WORDS, seed_phrase_candidates
from pandora_memory.secrets.structures import _CREDENTIAL_FLAG, authorization_headers

# A made-up token shape: nothing here looks like a real credential.
DEMO_BODY = r"(?P<secret>tok_[a-z]{4,8})"
DEMO_NOT_AFTER = r"[a-z_]"
DEMO_TEXTS = (
    "tok_abcd",
    "xtok_abcd tok_efgh",
    "a tok_abcd,tok_efgh;tok_ijkl",
    "xtok_tok_abcd tok_abcdefgh",
    "_tok_abcd then tok_zz and tok_abcdefghij",
    "tok_abcdtok_efgh",
    "é tok_abcd 1tok_efgh",
    "xtok_abcd " * 20 + "tok_abcd",
)


@pytest.mark.parametrize("text", DEMO_TEXTS)
def test_rule_with_not_after_matches_like_its_lookbehind_pattern(text: str) -> None:
    demo = rule("demo", "demo", DEMO_BODY, ("tok_",), not_after=DEMO_NOT_AFTER)
    plain = re.compile(f"(?<!{DEMO_NOT_AFTER}){DEMO_BODY}")

    found = [(c.start, c.end) for c in demo.candidates(text)]

    assert found == [match.span("secret") for match in plain.finditer(text)]


def test_rule_with_not_after_still_skips_glued_tokens() -> None:
    demo = rule("demo", "demo", DEMO_BODY, ("tok_",), not_after=DEMO_NOT_AFTER)

    assert [c.start for c in demo.candidates("xtok_abcd tok_efgh")] == [10]


_OLD_CREDENTIAL_FLAG = re.compile(
    r"(?<![\w\-])--?(?P<name>[A-Za-z][\w\-]{0,40})(?:=|\s+)"
    r"(?P<secret>\"[^\"\n]{1,256}\"|'[^'\n]{1,256}'|[^\s\"'|;&]{1,256})"
)


@pytest.mark.parametrize(
    "text",
    [
        "run --password hunter2x",
        "run x--password hunter2x",
        "run ---password hunter2x",
        "psql -password=abc123def",
        "--token zzz9 and a-b --secret=qq77",
    ],
)
def test_credential_flag_pattern_keeps_its_matches(text: str) -> None:
    new = [match.span("secret") for match in _CREDENTIAL_FLAG.finditer(text)]

    assert new == [match.span("secret") for match in _OLD_CREDENTIAL_FLAG.finditer(text)]


def test_authorization_header_is_still_read_in_non_ascii_text() -> None:
    # The dotless ı matches "i" case-insensitively: only non-ASCII text can spell the header so.
    text = "헤더는 authorızation: Zm9vYmFyOnNlY3JldDEyMw9 입니다"

    assert [c.kind for c in authorization_headers(text)] == ["authorization_header"]


def _bip39_words(count: int) -> list[str]:
    return sorted(word for word in BIP39_WORDS if len(word) <= 8)[:count]


def test_seed_phrase_of_enough_words_is_found() -> None:
    text = "my seed phrase: " + " ".join(_bip39_words(MIN_WORDS))

    assert [c.kind for c in seed_phrase_candidates(text)] == ["seed_phrase"]


@pytest.mark.parametrize("breaker", ["the", "and", "wrote"])
def test_words_broken_up_by_a_sentence_word_are_no_seed_phrase(breaker: str) -> None:
    words = _bip39_words(2 * MIN_WORDS)
    broken = [*words[: MIN_WORDS - 1], breaker, *words[MIN_WORDS - 1 : 2 * MIN_WORDS - 2]]

    assert not list(seed_phrase_candidates("my seed phrase: " + " ".join(broken)))


def test_a_word_outside_the_list_breaks_the_run_unless_a_wallet_or_the_phrase_is_named() -> None:
    words = _bip39_words(2 * MIN_WORDS)
    broken = " ".join([*words[: MIN_WORDS - 1], "zzzz", *words[MIN_WORDS - 1 : 2 * MIN_WORDS - 2]])

    assert not list(seed_phrase_candidates("then I typed " + broken))
    assert [c.kind for c in seed_phrase_candidates("restore my wallet from " + broken)] == ["seed_phrase"]
    assert [c.kind for c in seed_phrase_candidates("my seed phrase: " + broken)] == ["seed_phrase"]


def test_next_to_a_wallet_without_the_phrase_named_three_quarters_of_the_run_must_be_list_words() -> None:
    invented = ["zorp", "quil", "vask", "mirt"]
    listed = _bip39_words(MIN_WORDS)

    assert not list(seed_phrase_candidates("restore my wallet from " + " ".join([*invented, *listed[:8]])))
    found = seed_phrase_candidates("restore my wallet from " + " ".join([*invented[:3], *listed[:9]]))
    assert [c.kind for c in found] == ["seed_phrase"]


def test_a_named_run_needs_a_third_of_its_words_from_the_list() -> None:
    invented = ["zorp", "quil", "vask", "mirt", "plon", "drev", "snat", "glib", "frum", "twix"]
    listed = _bip39_words(MIN_WORDS)

    assert not list(seed_phrase_candidates("my seed phrase: " + " ".join([*invented, *listed[:3]])))
    found = seed_phrase_candidates("my seed phrase: " + " ".join([*invented[:8], *listed[:4]]))
    assert [c.kind for c in found] == ["seed_phrase"]


def test_a_seed_phrase_that_repeats_a_few_words_is_still_found() -> None:
    words = _bip39_words(9)
    phrase = [*words, words[0], words[4], words[7]]  # 12 words, 9 distinct

    text = "minha seed phrase é " + " ".join(phrase) + ", guarda aí"

    assert [c.kind for c in seed_phrase_candidates(text)] == ["seed_phrase"]


def test_one_word_repeated_is_no_seed_phrase() -> None:
    word = _bip39_words(1)[0]

    assert not list(seed_phrase_candidates("my seed phrase: " + " ".join([word] * MIN_WORDS)))
