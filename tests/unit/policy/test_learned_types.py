"""Learned word counts choose between types the rules both find; they never make a candidate."""

import hashlib
import json
from importlib import resources
from pathlib import Path

import pytest
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.candidate_rules import candidate_rules
from pandora_memory.policy.learned_types import COUNTS_FILE, choose, count, features, from_counts
from pandora_memory.policy.models import MemoryType

CORPUS = Path(__file__).parents[2] / "data" / "labeled_types.jsonl"


def _counts_text() -> str:
    return resources.files("pandora_memory.policy").joinpath(COUNTS_FILE).read_text(encoding="utf-8")


def test_the_counts_are_those_of_the_labeled_corpus() -> None:
    shipped = json.loads(_counts_text())
    turns = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]

    assert count(turns, shipped["min_count"]) == shipped


def test_rules_name_the_counts_they_were_tuned_with() -> None:
    digest = hashlib.sha256(_counts_text().encode("utf-8")).hexdigest()[:16]

    assert candidate_rules().learned_type_counts == digest, "new counts: update learned_type_counts"


TOY = count(
    [
        {
            "user_message": "raising prices for wholesale clients",
            "namespace": "real_life",
            "memory_type": "business_priority",
        },
        {
            "user_message": "clients first, wholesale second",
            "namespace": "real_life",
            "memory_type": "business_priority",
        },
        {
            "user_message": "we picked postgres over mongo",
            "namespace": "real_life",
            "memory_type": "project_decision",
        },
        {
            "user_message": "going with postgres for the app",
            "namespace": "real_life",
            "memory_type": "project_decision",
        },
    ],
    min_count=1,
)


def test_features_are_words_word_pairs_and_the_namespace() -> None:
    assert features("Going with Postgres", "au") == {
        "going",
        "with",
        "postgres",
        "going_with",
        "with_postgres",
        "ns=au",
    }


def test_probabilities_follow_the_words_and_sum_to_one_among_the_types_asked() -> None:
    words = from_counts(TOY, smoothing=0.3)
    among = (MemoryType.BUSINESS_PRIORITY, MemoryType.PROJECT_DECISION)
    probabilities = words.probabilities("new prices for wholesale clients", "real_life", among)

    assert set(probabilities) == set(among)
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert probabilities[MemoryType.BUSINESS_PRIORITY] > probabilities[MemoryType.PROJECT_DECISION]


def test_the_learned_words_only_choose_among_types_with_evidence() -> None:
    words = from_counts(TOY, smoothing=0.3)
    among = (MemoryType.BUSINESS_PRIORITY, MemoryType.PROJECT_DECISION)
    probabilities = words.probabilities("new prices for wholesale clients", "real_life", among)
    close = [(MemoryType.PROJECT_DECISION, 1.2), (MemoryType.BUSINESS_PRIORITY, 1.0)]
    alone = [(MemoryType.PROJECT_DECISION, 1.2), (MemoryType.BUSINESS_PRIORITY, 0.0)]
    far = [(MemoryType.PROJECT_DECISION, 3.0), (MemoryType.BUSINESS_PRIORITY, 1.0)]

    assert choose(close, probabilities, 0.5) is MemoryType.BUSINESS_PRIORITY
    assert choose(alone, probabilities, 0.5) is None
    assert choose(far, probabilities, 0.5) is MemoryType.PROJECT_DECISION


def test_waiting_for_something_before_starting_is_filed_as_the_labeled_turns_file_it() -> None:
    # The rules read "before I start" as something blocked; labeled turns file "waiting for" as an open
    # loop, and their words are clear enough to choose.
    decision = should_auto_create_memory_candidate(
        "waiting for the final floor plan before I start the lighting quote", namespace="real_life"
    )

    assert decision.memory_type is MemoryType.OPEN_LOOP, decision.reason
    assert "learned words favour open_loop over blocker" in decision.reason


def test_a_choice_by_learned_words_is_explained() -> None:
    decision = should_auto_create_memory_candidate(
        "from now on the deploy goes through github actions only", namespace="real_life"
    )

    assert decision.memory_type is MemoryType.DEPLOYMENT_TRUTH, decision.reason
    assert "candidate.type.learned" in decision.rules
    assert "learned words favour deployment_truth over project_decision ('actions'" in decision.reason


def test_learned_words_never_make_a_candidate() -> None:
    for message in ("lol", "what's the capital of canada", "thanks, that's great"):
        assert not should_auto_create_memory_candidate(message, namespace="real_life").should_create_candidate
