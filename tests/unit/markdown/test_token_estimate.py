"""The token estimate: cheap, monotone, and exact on any span when measured through SpanMeasure."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pandora_memory.markdown.token_estimate import SpanMeasure, estimate_tokens

PIECES = st.sampled_from([*"ab c\n\t_-.#카엘中", "x" * 300, "word "])
TEXT = st.lists(PIECES, max_size=60).map("".join)


def test_english_prose_is_about_four_characters_a_token() -> None:
    sentence = "We deploy to staging on every merge and promote to production by hand."
    assert 14 <= estimate_tokens(sentence) <= 22


def test_each_hangul_syllable_counts_as_a_token() -> None:
    assert estimate_tokens("카엘은 검을 들었다") == 8


def test_empty_and_blank_text_cost_nothing() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens(" \n\t ") == 0


@settings(max_examples=200, deadline=None)
@given(TEXT, st.data())
def test_estimate_only_grows_when_text_is_appended(text: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(text)))
    assert estimate_tokens(text[:cut]) <= estimate_tokens(text)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.data())
def test_span_measure_equals_estimating_the_slice(text: str, data: st.DataObject) -> None:
    measure = SpanMeasure(text)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert measure.tokens(start, end) == estimate_tokens(text[start:end])
    assert measure.fits(start, end, 50) == (estimate_tokens(text[start:end]) <= 50)
