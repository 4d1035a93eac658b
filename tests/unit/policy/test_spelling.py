"""Common chat misspellings are read as the words meant, by both policies."""

from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.retrieve import should_auto_retrieve_memory
from pandora_memory.policy.spelling import respelling


def test_only_listed_whole_words_are_respelled() -> None:
    spelling = respelling()

    assert spelling.text("wat's teh plan befor friday") == "what's the plan before friday"
    assert spelling.text("watson and tehran stay") == "watson and tehran stay"
    assert not spelling.needed(["watson", "tehran"])


def test_a_misspelled_generic_question_is_still_generic() -> None:
    decision = should_auto_retrieve_memory("wat is netlify and is it free", namespace="real_life")

    assert not decision.should_retrieve, decision.reason


def test_a_misspelled_question_is_still_no_memory() -> None:
    message = "wat do you think about switching to bun"
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert not decision.should_create_candidate, decision.reason
