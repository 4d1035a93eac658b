"""Learned word counts choose between types the rules find (or one the words are sure of), send
sensitive-sounding candidates to review and settle lookups near the threshold; they never make a
candidate or excuse one from review."""

import hashlib
import json
from importlib import resources
from pathlib import Path

import pytest
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.learned_words import (
    MIN_COUNT,
    TABLES,
    choose,
    count,
    features,
    from_counts,
    learned_words,
)
from pandora_memory.policy.models import MemoryType
from pandora_memory.policy.retrieve import should_auto_retrieve_memory
from pandora_memory.policy.rules import section

TURNS = Path(__file__).parents[2] / "data" / "labeled_turns.jsonl"


def _counts_text(table: str) -> str:
    return resources.files("pandora_memory.policy").joinpath(TABLES[table][0]).read_text(encoding="utf-8")


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_counts_are_those_of_the_labeled_turns(table: str) -> None:
    turns = [json.loads(line) for line in TURNS.read_text(encoding="utf-8").splitlines() if line.strip()]

    assert count(turns, TABLES[table][1], MIN_COUNT) == json.loads(_counts_text(table))


def test_rules_name_the_counts_they_were_tuned_with() -> None:
    candidate = section("candidate")
    for table, named in (
        ("types", candidate["learned_type_counts"]),
        ("sensitivity", candidate["learned_sensitivity_counts"]),
        ("retrieve", section("retrieve")["learned_counts"]),
        ("candidate", candidate["learned_candidate_counts"]),
    ):
        digest = hashlib.sha256(_counts_text(table).encode("utf-8")).hexdigest()[:16]
        assert named == digest, f"new {table} counts: make learned-words"


def _toy_turn(message: str, memory_type: str) -> dict[str, object]:
    return {
        "user_message": message,
        "namespace": "real_life",
        "should_create_candidate": True,
        "memory_type": memory_type,
    }


TOY = count(
    [
        _toy_turn("raising prices for wholesale clients", "business_priority"),
        _toy_turn("clients first, wholesale second", "business_priority"),
        _toy_turn("we picked postgres over mongo", "project_decision"),
        _toy_turn("going with postgres for the app", "project_decision"),
        {
            "user_message": "lol",
            "namespace": "real_life",
            "should_create_candidate": False,
            "memory_type": "none",
        },
    ],
    TABLES["types"][1],
    min_count=1,
)
AMONG = ("business_priority", "project_decision")
TEXT = "new prices for wholesale clients"


def test_features_are_words_word_pairs_and_the_namespace() -> None:
    assert features("Going with Postgres", "au") == {
        "going",
        "with",
        "postgres",
        "going_with",
        "with_postgres",
        "ns=au",
    }


def test_turns_that_are_no_candidate_are_left_out_of_the_type_counts() -> None:
    assert set(TOY["turns"]) == set(AMONG)


def test_probabilities_follow_the_words_and_sum_to_one_among_the_labels_asked() -> None:
    probabilities = from_counts(TOY, smoothing=0.3).probabilities(TEXT, "real_life", AMONG)

    assert set(probabilities) == set(AMONG)
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert probabilities["business_priority"] > probabilities["project_decision"]


def test_the_learned_words_choose_among_labels_with_evidence() -> None:
    probabilities = from_counts(TOY, smoothing=0.3).probabilities(TEXT, "real_life", AMONG)
    unsure = 1.1  # no label joins without evidence

    assert (
        choose([("project_decision", 1.2), ("business_priority", 1.0)], probabilities, 0.5, unsure)
        == "business_priority"
    )
    assert choose([("project_decision", 1.2), ("business_priority", 0.0)], probabilities, 0.5, unsure) is None
    assert (
        choose([("project_decision", 3.0), ("business_priority", 1.0)], probabilities, 0.5, unsure)
        == "project_decision"
    )


def test_a_label_without_evidence_joins_only_when_the_words_are_sure_of_it() -> None:
    probabilities = {"project_decision": 0.05, "business_priority": 0.9, "open_loop": 0.05}
    ranked = [("project_decision", 1.0), ("business_priority", 0.0)]

    assert choose(ranked, probabilities, 1.5, 0.85) == "business_priority"
    assert choose(ranked, probabilities, 1.5, 0.95) is None


def test_a_type_chosen_by_learned_words_is_explained() -> None:
    decision = should_auto_create_memory_candidate(
        "from now on the deploy goes through github actions only", namespace="real_life"
    )

    assert decision.memory_type is MemoryType.DEPLOYMENT_TRUTH, decision.reason
    assert "candidate.type.learned" in decision.rules
    assert "learned words favour deployment_truth over project_decision ('actions'" in decision.reason


@pytest.mark.parametrize(
    ("message", "memory_type"),
    [
        (
            "the board wants kettle at break-even by next spring, so kettle will charge 2% on transfers",
            MemoryType.BUSINESS_PRIORITY,
        ),
        ("always call it Lanternfish in the copy, never 'LF' or the old name", MemoryType.PREFERENCE),
    ],
)
def test_a_type_the_rules_saw_no_evidence_for_is_chosen_when_the_words_are_sure_of_it(
    message: str, memory_type: MemoryType
) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.memory_type is memory_type, decision.reason
    assert f"{memory_type.value} from the learned words" in decision.reason


def test_the_learned_words_never_file_a_real_life_memory_as_canon() -> None:
    decision = should_auto_create_memory_candidate(
        "AU canon: Kael was 19 in chapter 3.", namespace="real_life"
    )

    assert decision.memory_type is not MemoryType.AU_CANON, decision.reason


def test_waiting_for_something_before_starting_is_filed_as_the_labeled_turns_file_it() -> None:
    # The rules read "before I start" as something blocked; labeled turns file "waiting for" as an open
    # loop, and their words are clear enough to choose.
    decision = should_auto_create_memory_candidate(
        "waiting for the final floor plan before I start the lighting quote", namespace="real_life"
    )

    assert decision.memory_type is MemoryType.OPEN_LOOP, decision.reason
    assert "learned words favour open_loop over blocker" in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "brain fog is horrendous this week, cant hold a sentence together so no writing till monday",
        "the clinic wont book the transfer until my levels are back in range, retest in 3 wks",
    ],
)
def test_a_candidate_that_reads_like_sensitive_turns_waits_for_review(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert decision.requires_review
    assert "candidate.review.learned_sensitive" in decision.rules
    assert "reads like turns labeled sensitive" in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "the api runs on fly.io in fra, two machines",
        "always answer in british english",
        "merged the retry PR",
    ],
)
def test_ordinary_work_facts_need_no_review_from_the_learned_words(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert "candidate.review.learned_sensitive" not in decision.rules


def test_learned_words_never_make_a_candidate_of_chat_questions_or_thanks() -> None:
    for message in ("lol", "what's the capital of canada", "thanks, that's great", "dinner ideas pls"):
        assert not should_auto_create_memory_candidate(message, namespace="real_life").should_create_candidate


@pytest.mark.parametrize(
    ("message", "memory_type"),
    [
        (
            "marco's been with me 4 yrs, he basically runs the kitchen. i trust him more than anyone",
            MemoryType.RELATIONSHIP_LOOP,
        ),
        ("the spring push is weddings. want 15 booked by easter", MemoryType.BUSINESS_PRIORITY),
    ],
)
def test_a_plain_statement_a_little_short_is_lifted_when_it_reads_like_a_memory(
    message: str, memory_type: MemoryType
) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert decision.memory_type is memory_type, decision.reason
    assert "candidate.learned_lift" in decision.rules
    assert "reads like turns labeled as memories (" in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "maybe marco runs the kitchen now, not sure yet",
        "does marco run the kitchen these days?",
        "marco's been with me 4 yrs, he basically runs the kitchen. jk, he left in may",
    ],
)
def test_a_hedged_asked_or_taken_back_statement_is_never_lifted(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert "candidate.learned_lift" not in decision.rules, decision.reason


def test_a_lookup_a_step_below_the_threshold_is_settled_by_the_learned_words() -> None:
    message = "book 2 word count, we were keeping track. where am i vs the march deadline"
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert decision.should_retrieve, decision.reason
    assert "+ learned_words(" in decision.reason


def test_a_generic_question_a_step_above_the_threshold_is_settled_by_the_learned_words() -> None:
    message = "whats the capital of nunavut, my grandson says yellowknife and i say no"
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert not decision.should_retrieve, decision.reason
    assert "- learned_words(" in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "the quarterly numbers for the bakery looked off to me",
        "hows the garden plan looking for spring",
    ],
)
def test_a_lookup_with_one_cue_is_lifted_when_the_words_read_like_the_users_affairs(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert decision.should_retrieve, decision.reason
    assert "+ learned_words(" in decision.reason


def test_learned_words_never_lower_a_cue_that_retrieves_on_its_own() -> None:
    decision = should_auto_retrieve_memory(
        "la boutique en ligne : on en était où avec la livraison ?", namespace="real_life"
    )

    assert decision.should_retrieve, decision.reason
    assert "learned_words" not in decision.rules


def test_the_counts_know_english_words_and_few_of_another_language() -> None:
    counts = learned_words("retrieve", section("retrieve")["weights"]["learned_smoothing"])
    floor = section("retrieve")["weights"]["learned_min_known"]

    assert counts.known_share("did the landlord ever send the deposit back") >= floor
    assert counts.known_share("wie weit waren wir mit dem umzug nach leipzig") < floor
    assert counts.known_share("") == 0.0


def test_learned_words_never_lift_a_score_a_rule_penalised() -> None:
    decision = should_auto_retrieve_memory(
        "try again, shorter this time, the last version rambled",
        namespace="real_life",
        current_task="cover letter",
    )

    assert "in_chat_followup" in decision.reason
    assert "learned_words" not in decision.rules, decision.reason
    assert not decision.should_retrieve
