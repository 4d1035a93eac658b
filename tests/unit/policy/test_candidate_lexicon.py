"""The phrase index behind every cue list: syntax, longest match, and what it must not match."""

import pytest
from pandora_memory.policy.lexicon import PhraseIndex, cue_texts, tokenize


def _found(lexicon: dict[str, list[str]], text: str, start: int = 0) -> list[tuple[str, str]]:
    index = PhraseIndex(
        {family: [(phrase, 1.0) for phrase in phrases] for family, phrases in lexicon.items()}
    )
    lowered = text.lower()
    return [(hit.cue.family, hit.cue.text) for hit in index.match(tokenize(lowered), lowered, start)]


def test_whole_words_only() -> None:
    assert _found({"f": ["ex"]}, "an ex-client called") == []
    assert _found({"f": ["ex"]}, "don't bring up the ex stuff") == [("f", "ex")]
    assert _found({"f": ["merge"]}, "merged it") == []


def test_longest_phrase_wins_within_a_family_but_families_are_independent() -> None:
    found = _found({"a": ["now", "from now on"], "b": ["now"]}, "from now on we ship")
    assert ("a", "from now on") in found
    assert ("a", "now") not in found
    assert ("b", "now") in found


def test_alternatives_and_inflections_are_reported_as_matched() -> None:
    lexicon = {"f": ["deploy* to|on"]}
    assert _found(lexicon, "we deployed to fly") == [("f", "deployed to")]
    assert _found(lexicon, "deploying on friday") == [("f", "deploying on")]
    assert _found(lexicon, "deploy it") == []


def test_cue_texts_are_what_the_hits_of_a_phrase_report() -> None:
    index = PhraseIndex({"decision": [("^ no|never … until", 1.0)]})
    reported = {hit.cue.text for hit in index.match(tokenize("never again until march"), "")}

    assert reported == {"never … until"}
    assert cue_texts("^ no|never … until") == ["no … until", "never … until"]


def test_gaps_and_numbers() -> None:
    lexicon = {"block": ["can't … until"], "loss": ["lost … <num>"]}
    assert _found(lexicon, "can't launch the site until the logo lands") == [("block", "can't … until")]
    assert _found(lexicon, "can't until") == [("block", "can't … until")]
    assert _found(lexicon, "can't do anything at all today because of the rain until") == []
    assert _found(lexicon, "lost about 1.2m won") == [("loss", "lost … <num>")]
    assert _found(lexicon, "lost my keys") == []


def test_a_gap_does_not_hide_phrases_inside_it() -> None:
    lexicon = {"f": ["site … are", "is deployed"]}
    found = _found(lexicon, "the site is deployed on vercel, images are on a cdn")
    assert found == [("f", "site … are"), ("f", "is deployed")]


def test_anchored_phrases_only_open_a_clause() -> None:
    lexicon = {"ask": ["^ what if"]}
    assert _found(lexicon, "what if we used sqlite") == [("ask", "what if")]
    assert _found(lexicon, "ok what if we used sqlite", start=1) == [("ask", "what if")]
    assert _found(lexicon, "I asked what if we used sqlite") == []


def test_glued_scripts_match_as_substrings() -> None:
    assert _found({"merged": ["머지"]}, "머지했어: #295") == [("merged", "머지")]


def test_a_glued_cue_written_with_a_space_also_matches_without_it() -> None:
    assert _found({"f": ["기다리는 중"]}, "결과 기다리는중") == [("f", "기다리는 중")]
    assert _found({"f": ["기다리는 중"]}, "결과 기다리는 중") == [("f", "기다리는 중")]


def test_a_glued_cue_without_a_space_never_spans_two_words() -> None:
    assert _found({"f": ["시급"]}, "에이전시 급여가 늦어") == []
    assert _found({"f": ["시급"]}, "시급 올려야 함") == [("f", "시급")]


def test_a_glued_cue_listed_with_and_without_a_space_counts_once() -> None:
    lexicon = {"f": ["해줘", "해 줘"]}
    assert _found(lexicon, "잊지 않게 해줘") == [("f", "해줘")]
    assert _found(lexicon, "잊지 않게 해 줘") == [("f", "해줘")]


def test_a_phrase_must_start_with_a_word() -> None:
    with pytest.raises(ValueError, match="must start with a word"):
        PhraseIndex({"f": [("<num> years old", 1.0)]})


def test_a_word_after_a_gap_that_only_starts_a_longer_phrase_does_not_hide_a_nearer_ending_one() -> None:
    lexicon = {"f": ["owe … an apology", "owe … answer"]}

    assert _found(lexicon, "i still owe Kevin an answer on the lease") == [("f", "owe … answer")]
    assert _found(lexicon, "i owe Kevin an apology") == [("f", "owe … an apology")]
