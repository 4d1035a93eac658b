"""Cue families that need the turn's context: au continuity asks, story items, status checks on
the user's own things, someone's habits, personal news, third-person advice and disclaimers."""

import pytest
from pandora_memory.policy.retrieve import should_auto_retrieve_memory


def _decide(message: str, namespace: str = "real_life") -> tuple[bool, list[str]]:
    decision = should_auto_retrieve_memory(message, namespace=namespace)
    return decision.should_retrieve, decision.rules


@pytest.mark.parametrize(
    "message",
    [
        "the curse inscription, word for word",
        "Corin's rank among the wardens?",
        "Thornwick would never abandon the order, right? not after the siege",
    ],
)
@pytest.mark.usefixtures("rules_only_lookup")  # the counts lean on "siege", "word for word"
def test_a_continuity_ask_about_the_canon_retrieves_in_the_au(message: str) -> None:
    retrieve, rules = _decide(message, "au")
    assert retrieve
    assert "au_continuity_check" in rules
    assert not _decide(message, "real_life")[0]


def test_a_continuity_ask_needs_something_of_the_canon_to_be_about() -> None:
    retrieve, rules = _decide("should a prophecy be worded vaguely or exactly?", "au")
    assert not retrieve
    assert "au_continuity_check" not in rules


def test_a_definite_story_item_anchors_a_chat_edit_in_the_au() -> None:
    assert _decide("the tavern brawl scene. tighten it up", "au")[0]
    assert not _decide("ok tighten it up a bit", "au")[0]
    # "a scene" is any scene: the look back stops at the indefinite article.
    assert not _decide("rewrite it as a scene for a writing class", "au")[0]


def test_a_short_status_check_needs_an_outcome_verb() -> None:
    retrieve, rules = _decide("did the appeal go through?")
    assert retrieve
    assert "short_status_check" in rules
    assert not _decide("did the romans have running water?")[0]


def test_a_habit_word_after_a_first_name_is_not_a_generic_question() -> None:
    retrieve, rules = _decide("what kind of feedback does Amara usually want on a first draft")
    assert retrieve
    assert "person_habit" in rules and "generic_question" not in rules
    assert not _decide("what does a VC usually care about in a seed deck")[0]


def test_personal_news_with_the_subject_dropped_retrieves() -> None:
    retrieve, rules = _decide("blew 200 on scratch cards this morning")
    assert retrieve
    assert {"own_event", "risk"} <= set(rules)
    assert not _decide("lost in translation is such a good movie")[0]


def test_third_person_advice_is_not_lightened_by_a_recalled_event() -> None:
    retrieve, rules = _decide("if someone's brother keeps borrowing money, when should they say no")
    assert not retrieve
    assert "third_person" in rules
    assert _decide("my brother keeps borrowing money, when should I say no")[0]


def test_a_disclaimer_outweighs_the_my_it_holds() -> None:
    retrieve, rules = _decide("not about my own startup, but why do most b2b pilots stall")
    assert not retrieve
    assert "personal_disclaimer" in rules
    assert _decide("not about the money, did Dana ever pay me back for the tickets")[0]


@pytest.mark.parametrize(
    "message",
    [
        "what do you remember about my knee rehab?",
        "지난번에 같이 정리한 이사 체크리스트 기억나?",
        "tu te souviens de ce qu'on avait dit pour le loyer ?",
    ],
)
def test_asking_what_the_assistant_remembers_of_the_users_things_retrieves(message: str) -> None:
    retrieve, rules = _decide(message)
    assert retrieve
    assert "recall_question" in rules


def test_asking_whether_the_assistant_remembers_history_stays_generic() -> None:
    assert not _decide("do you remember when the first iphone came out")[0]


@pytest.mark.parametrize(
    "message",
    ["la boutique en ligne : on en était où avec la livraison ?", "so... the quote from monday. too high?"],
)
def test_inverted_where_were_we_and_a_thing_from_a_past_day_lean_on_context(message: str) -> None:
    assert _decide(message)[0]


def test_not_wanting_to_contradict_oneself_is_a_continuity_ask_in_the_au() -> None:
    retrieve, rules = _decide("el faro de Velamar tiene dos torres o una? no quiero contradecirme", "au")
    assert retrieve
    assert "au_continuity_check" in rules


def test_redoing_an_earlier_piece_of_work_with_new_inputs_leans_on_it() -> None:
    assert _decide("the cash forecast for the bakery - redo it with the new flour prices")[0]
    assert not _decide("redo this sentence so it sounds friendlier")[0]


def test_how_to_answer_someone_is_the_users_own_situation_not_a_generic_question() -> None:
    retrieve, rules = _decide("a reviewer says we stole the design. how should I reply?")
    assert retrieve
    assert "own_response" in rules
    assert not _decide("how do I respond to a rude email in general")[0]


def test_a_capitalised_name_with_a_korean_particle_is_a_name() -> None:
    retrieve, rules = _decide("내일 Solveig랑 통화 있는데 준비 좀 도와줘")
    assert retrieve
    assert "named_entity" in rules


def test_a_sentence_opener_who_talks_or_wants_is_a_name() -> None:
    retrieve, rules = _decide("Noemi wants to take over the newsletter. how has she been doing lately")
    assert retrieve
    assert "named_entity" in rules
    assert "named_entity" not in _decide("Everyone says sourdough is easy")[1]
    assert "named_entity" not in _decide("Python says the module is missing, why")[1]


WORD_CHOICES = ["is it 'fewer' or 'less' here: ___ came", "is it 'lie' or 'lay' in 'to ___ down'"]


@pytest.mark.parametrize("message", WORD_CHOICES)
def test_a_word_choice_question_is_generic_whatever_its_it(message: str) -> None:
    retrieve, rules = _decide(message)
    assert not retrieve
    assert "generic_question" in rules


def test_asking_to_change_the_text_in_the_chat_is_a_follow_up() -> None:
    retrieve, rules = _decide("update this paragraph so it sounds friendlier")
    assert not retrieve
    assert "in_chat_followup" in rules


def test_a_lower_case_name_doing_what_people_do_is_a_name() -> None:
    retrieve, rules = _decide("ines wants me to swap shifts again. how do i say no without a scene")
    assert retrieve
    assert "named_entity" in rules
    assert "named_entity" not in _decide("node says the module is missing again, why")[1]


def test_how_to_tell_something_in_general_stays_generic() -> None:
    assert not _decide("how do i tell if sourdough starter is ready")[0]


def test_a_division_is_still_arithmetic() -> None:
    assert not _decide("what is 45/9")[0]


# Messages that lean on the user's own record: what they did or were told, who someone is to them,
# splits and targets of their own, repeats and continuations in more languages.
LEAN_ON_THE_USERS_RECORD = [
    "did i pay the council tax arrears or just this month's",
    "where am i at with the grant application",
    "who's our contact at the housing office",
    "is marta the type to hold a grudge, based on what i've told you",
    "how do i bring up the rota with dev without it turning into a fight again",
    "fortsett",
    "继续，刚才那个脚本",
    "What should I be working on next?",
    "was i holding out for 50/50 or did i say i'd take 60/40",
    "my target was 20 commissions this year, how am i tracking",
    "action items from the outage postmortem that are on me?",
    "karim almost saw us at the station. what now",
    "gift idea for oma's 90th, she's picky, you know what she's like",
    "the barn conversion idea - remind me what the pros and cons were",
    "is it the same bug or a new one",
    "gaan aan",
    "riprendiamo da dove eravamo rimasti col capitolo",
    "wo waren wir stehen geblieben?",
    "qué colores habíamos elegido para el logo al final?",
    "recordame en qué habíamos quedado con el contador",
    "retomar el presupuesto de la boda, qué nos faltaba",
    "lembra qual foi o preço que a gente combinou pro meu curso?",
    "how do i follow up with Annelie about the trip we keep postponing",
    "dad had another fall like the one in march",
    "write a note to ilse for the referral, you know the context",
    "the boiler service, is that due this month",
    "what deadlines do i have next week",
]


@pytest.mark.parametrize("message", LEAN_ON_THE_USERS_RECORD)
def test_messages_that_lean_on_the_users_record_retrieve(message: str) -> None:
    assert _decide(message)[0]


def test_asking_whether_the_fix_is_live_during_the_fix_retrieves() -> None:
    task = "fixing the login redirect on the booking site"

    assert should_auto_retrieve_memory(
        "is the fix live", namespace="real_life", current_task=task
    ).should_retrieve


@pytest.mark.parametrize(
    "message",
    [
        "ano ulit yung sinabi ko tungkol sa budget natin?",
        "balikan natin yung pitch deck",
        "tuloy mo yung kwento ni ana",
        "nasaan na tayo sa permit ng food stall",
        "hindi pa ako nakakabayad sa landlord, magkano ulit?",
    ],
)
def test_taglish_pointers_at_the_users_own_affairs_retrieve(message: str) -> None:
    assert _decide(message)[0]


@pytest.mark.parametrize(
    "message",
    ["ano ang capital ng australia?", "paano mag-compute ng percentage", "haha grabe ang init ngayon"],
)
def test_taglish_questions_about_the_world_skip(message: str) -> None:
    assert not _decide(message)[0]
