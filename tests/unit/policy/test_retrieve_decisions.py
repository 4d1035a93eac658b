"""Auto-retrieve decisions: what triggers, what skips, the mode, the namespace and the reason."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pandora_memory.namespaces import Namespace, UnknownNamespaceError
from pandora_memory.policy.models import RetrievalMode
from pandora_memory.policy.retrieve import should_auto_retrieve_memory
from pandora_memory.policy.rules import policy_version


def _assert_retrieves_by(message: str, rule: str, namespace: str = "real_life") -> None:
    decision = should_auto_retrieve_memory(message, namespace=namespace)

    assert decision.should_retrieve, decision.reason
    assert rule in decision.reason


@pytest.mark.parametrize(
    ("message", "namespace"),
    [
        ("the nightly sync job on our staging box died again, same stack trace as friday?", "real_life"),
        ("which supabase project did we point the mobile app at", "real_life"),
        ("redeploying my portfolio on vercel, what build command did I settle on", "real_life"),
        ("I'm up 300 at the tables tonight, remind me of my stop rule", "real_life"),
        ("our bank flagged the chargeback again, what did we send them last time?", "real_life"),
        ("does Kaito know Seren's real name yet in chapter 8?", "au"),
        ("keep the tavern scene consistent with what Lys said in the prologue", "au"),
        ("what's still open on my list for the launch", "real_life"),
        ("what did I leave half done yesterday", "real_life"),
        ("how's the pricing rework going, did we settle the annual discount", "real_life"),
        ("Noor asked about the intro again, who was she hoping to meet?", "real_life"),
    ],
)
def test_own_context_retrieves(message: str, namespace: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace=namespace)
    assert decision.should_retrieve, decision.reason
    assert decision.retrieval_mode is not RetrievalMode.NONE
    assert decision.reason.startswith("retrieve: ")


@pytest.mark.parametrize(
    "message",
    [
        "what is a Vercel edge function?",
        "what's the house edge in roulette?",
        "how do couples survive long distance?",
        "explain how github actions caching works",
        "what's the difference between supabase and planetscale",
        "tips for pitching investors",
        "what's 23 * 17",
        "convert 10 miles to km",
        "who painted starry night",
        "what's the capital of canada",
        "thanks, that's great",
        "so tired, 5 meetings back to back today",
        "lol",
        "good night!",
        "",
        "   \n\t ",
    ],
)
def test_generic_math_trivia_and_small_talk_skip(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life")
    assert not decision.should_retrieve, decision.reason
    assert decision.retrieval_mode is RetrievalMode.NONE
    assert decision.reason.startswith("skip: ")


@pytest.mark.parametrize(
    ("message", "namespace"),
    [
        ("did it ship?", "real_life"),
        ("same bug as last week", "real_life"),
        ("should I text her back?", "real_life"),
        ("ok continue chapter 4", "au"),
        ("still broken.", "real_life"),
        ("she did it again", "real_life"),
    ],
)
def test_short_oblique_messages_retrieve(message: str, namespace: str) -> None:
    assert should_auto_retrieve_memory(message, namespace=namespace).should_retrieve


@pytest.mark.usefixtures("rules_only_lookup")  # the counts read "the export is slow" as the user's own
def test_current_task_tips_a_borderline_message() -> None:
    alone = should_auto_retrieve_memory("the export is slow", namespace="real_life")
    in_task = should_auto_retrieve_memory(
        "the export is slow", namespace="real_life", current_task="CSV export"
    )
    assert not alone.should_retrieve
    assert in_task.should_retrieve
    assert "current_task" in in_task.rules
    assert "current_task_overlap(export)" in in_task.reason


def test_conversation_type_weighs_in_both_directions() -> None:
    message = "the export is slow"
    neutral = should_auto_retrieve_memory(message, namespace="real_life")
    ongoing = should_auto_retrieve_memory(message, conversation_type="project", namespace="real_life")
    casual = should_auto_retrieve_memory(message, conversation_type="casual", namespace="real_life")
    assert "conversation_type" in ongoing.rules and "conversation_type" in casual.rules
    assert "conversation_type" not in neutral.rules
    assert _score(casual.reason) < _score(neutral.reason) < _score(ongoing.reason)


def _score(reason: str) -> float:
    return float(reason.split("score ")[1].split(" ")[0])


@pytest.mark.parametrize(
    ("message", "namespace", "mode"),
    [
        ("what next", "real_life", RetrievalMode.CONTEXT_PACK),
        ("where were we?", "real_life", RetrievalMode.CONTEXT_PACK),
        ("ok go on", "real_life", RetrievalMode.CONTEXT_PACK),
        ("what's still pending from this week?", "real_life", RetrievalMode.CONTEXT_PACK),
        ("what did we decide about Supabase auth vs Clerk?", "real_life", RetrievalMode.HYBRID),
        ("ok continue chapter 4", "au", RetrievalMode.HYBRID),
        ("what's Hana's role at Kestrel again", "real_life", RetrievalMode.HYBRID),
        ("same bug as last week", "real_life", RetrievalMode.HYBRID),
        ("what's the capital of Portugal", "real_life", RetrievalMode.NONE),
    ],
)
def test_retrieval_mode_follows_the_shape_of_the_turn(
    message: str, namespace: str, mode: RetrievalMode
) -> None:
    assert should_auto_retrieve_memory(message, namespace=namespace).retrieval_mode is mode


@pytest.mark.parametrize("given", ["real_life", Namespace.REAL_LIFE, " real_life "])
def test_explicit_namespace_is_never_overridden(given: str | Namespace) -> None:
    decision = should_auto_retrieve_memory("continue chapter 4 of my fic, same canon", namespace=given)
    assert decision.namespace is Namespace.REAL_LIFE
    assert "namespace real_life given by caller" in decision.reason


def test_inferred_namespace_is_stated_in_the_reason() -> None:
    fiction = should_auto_retrieve_memory("continue chapter 4 of my fic")
    assert fiction.namespace is Namespace.AU
    assert "namespace inferred as au" in fiction.reason
    plain = should_auto_retrieve_memory("did the cron run")
    assert plain.namespace is Namespace.REAL_LIFE
    assert "namespace inferred as real_life" in plain.reason


def test_the_current_task_feeds_namespace_inference() -> None:
    decision = should_auto_retrieve_memory("keep going", current_task="drafting chapter 13")
    assert decision.namespace is Namespace.AU


@pytest.mark.parametrize("bad", ["work", "AU-2", "", 3])
def test_unknown_namespace_raises(bad: object) -> None:
    with pytest.raises(UnknownNamespaceError):
        should_auto_retrieve_memory("did it ship?", namespace=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown namespace"):
        should_auto_retrieve_memory("did it ship?", namespace=bad)  # type: ignore[arg-type]


def test_empty_message_is_a_valid_skip() -> None:
    decision = should_auto_retrieve_memory("  ", namespace="au")
    assert not decision.should_retrieve
    assert decision.namespace is Namespace.AU
    assert decision.rules == ["empty_message"]
    assert decision.reason == "skip: empty message; namespace au given by caller"


def test_reason_names_rules_cue_words_and_version() -> None:
    decision = should_auto_retrieve_memory(
        "our vercel deploy for my site failed again, what did we change last time?", namespace="real_life"
    )
    assert decision.reason.startswith("retrieve: ")
    for fragment in ("ownership(my, our)", "deployment(", "vercel", "past_reference(", "last time"):
        assert fragment in decision.reason
    assert {"ownership", "deployment", "past_reference", "owned_domain"} <= set(decision.rules)
    assert decision.policy_version == policy_version()


def test_generic_shape_is_named_when_it_decides() -> None:
    decision = should_auto_retrieve_memory(
        "how does a supabase migration work", current_task="writing migration"
    )
    assert not decision.should_retrieve
    assert "- generic_question(" in decision.reason
    assert "generic_question" in decision.rules


def test_a_credential_in_the_message_is_never_echoed() -> None:
    fake = "sk_live_4eC39HqLyjWDarjtT1zdp7dcQx9"  # random, fake
    message = f"my deploy keeps failing again with key {fake} and password Hunter2Secret!"
    decision = should_auto_retrieve_memory(message, namespace="real_life")
    assert decision.should_retrieve
    for part in (fake, "4eC39HqLyjWDarjtT1zdp7dcQx9", "Hunter2Secret"):
        assert part not in decision.reason
        assert all(part not in rule for rule in decision.rules)


def test_same_input_same_output() -> None:
    args = ("Mina's friend Yuna is coming, is she the one who doesn't like me?",)
    first = should_auto_retrieve_memory(*args, namespace="real_life", current_task="party prep")
    second = should_auto_retrieve_memory(*args, namespace="real_life", current_task="party prep")
    assert first == second


def test_decisions_do_not_depend_on_hash_seed() -> None:
    """Sets drive the matching; the reason must still list cues in one stable order."""
    script = (
        "import json;"
        "from pandora_memory.policy.retrieve import should_auto_retrieve_memory as f;"
        "msgs=['our vercel deploy failed again, same error as last week, what did we try?',"
        "'지난번에 우리 도메인 DNS 어디로 옮겼지?','ok what else is on my list for Orbit',"
        "'we picked the schema, I said it twice, they agreed: chapter 6 and PR 12 in notes.md, app.py'];"
        "print(json.dumps([f(m, namespace='real_life').model_dump(mode='json') for m in msgs]))"
    )
    outputs = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(json.loads(run.stdout))
    assert outputs[0] == outputs[1] == outputs[2]
    assert Path(sys.executable).exists()


def test_domain_words_alone_never_retrieve() -> None:
    decision = should_auto_retrieve_memory(
        "best database for a saas app with stripe invoices", namespace="real_life"
    )
    assert not decision.should_retrieve
    assert {"project_work", "deployment"} <= set(decision.rules)


@pytest.mark.parametrize(
    "message",
    [
        "what did we decide about stripe vs paddle for the shop",
        "status check on the Larkspur launch pls, what's shipped vs pending",
    ],
)
def test_a_generic_word_does_not_outweigh_asking_after_the_users_own_history(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert decision.should_retrieve, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "écris une carte pour Solène, pour la remercier de m'avoir hébergée",
        "draft a short note to dr okoye thanking him, same tone as last time",
        "write a birthday message for Ilka, she's been a rock this year",
    ],
)
def test_a_person_the_user_writes_to_is_someone_in_their_life(message: str) -> None:
    _assert_retrieves_by(message, "person_addressed")


def test_writing_to_someone_unnamed_is_still_generic() -> None:
    message = "write an email to a landlord asking for repairs"
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert not decision.should_retrieve, decision.reason


@pytest.mark.parametrize(
    "message", ["the parcel came", "ok so. the garage called.", "update: the bank replied"]
)
def test_a_few_words_of_news_about_something_awaited_retrieve(message: str) -> None:
    _assert_retrieves_by(message, "short_news")


@pytest.mark.parametrize(
    "message", ["a parcel came for the neighbours", "the new season of that show came out and it was great"]
)
def test_news_needs_a_known_subject_and_few_words(message: str) -> None:
    assert "short_news" not in should_auto_retrieve_memory(message, namespace="real_life").reason


@pytest.mark.parametrize(
    "message",
    [
        "the lamplighter's scar, left cheek or right? I keep switching it",
        "does the ferryman's oath bind his children or only him",
        "마녀 탑 문이 동쪽이었어 서쪽이었어? 지도 다시 보기 귀찮아",
        "이 장면에서 로웬이 편지 읽은 거 알아 몰라?",
    ],
)
def test_a_choice_between_two_answers_in_the_fiction_asks_for_canon(message: str) -> None:
    _assert_retrieves_by(message, "au_either_or", namespace="au")


@pytest.mark.parametrize(
    "message",
    [
        "what rhymes with ember or amber",
        "suggest names for a river town, something old or something sea-ish",
        "should a prologue be in first or third person, generally",
    ],
)
def test_a_generic_choice_in_the_fiction_namespace_still_skips(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="au").should_retrieve


def test_a_choice_between_two_answers_counts_only_in_the_fiction() -> None:
    decision = should_auto_retrieve_memory("north or south exit for the stadium", namespace="real_life")

    assert "au_either_or" not in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "redo the budget for the pottery stall, same rent as before",
        "저번에 정한 요금표 그대로 다시 정리해줘",
        "the essay outline from last time, pick it up",
    ],
)
def test_a_pointer_at_earlier_talk_alone_retrieves(message: str) -> None:
    _assert_retrieves_by(message, "past_reference")


@pytest.mark.usefixtures("rules_only_lookup")  # the counts read "storm ... again" as a lookup
def test_an_ordinary_again_is_not_a_pointer_at_memory() -> None:
    message = "the whole coast flooded again after the storm, wild footage on the news"
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert not decision.should_retrieve, decision.reason
    assert "past_reference(again)" in decision.reason


@pytest.mark.parametrize(
    "message",
    ["어제 새 버전 배포했는데 로그인 화면이 하얗게 나와", "가게 인스타 광고 돌렸는데 문의가 하나도 없어"],
)
def test_a_korean_past_statement_about_the_users_affairs_is_their_own_event(message: str) -> None:
    _assert_retrieves_by(message, "own_event")


def test_a_korean_past_question_asks_about_the_world() -> None:
    decision = should_auto_retrieve_memory("넷플릭스는 언제 스트리밍 배포 시작했어?", namespace="real_life")

    assert "own_event" not in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "update the pricing sheet with the new supplier costs",
        "ok rework our launch budget, the venue fell through",
    ],
)
def test_asking_to_change_a_definite_artifact_of_the_users_retrieves(message: str) -> None:
    _assert_retrieves_by(message, "artifact_edit")


@pytest.mark.parametrize(
    "message", ["update this paragraph so it sounds friendlier", "revise the opening line of a cover letter"]
)
def test_changing_the_chat_text_or_a_generic_thing_is_no_artifact_of_the_users(message: str) -> None:
    assert "artifact_edit" not in should_auto_retrieve_memory(message, namespace="real_life").reason


@pytest.mark.parametrize(
    "message", ["what's next.js", "whats next.js middleware for", "what next-gen phones have usb-c"]
)
def test_a_cue_ending_inside_a_neutral_phrase_does_not_count(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert not decision.should_retrieve, decision.reason
    assert "continuation" not in decision.reason


def test_what_next_on_its_own_still_asks_to_go_on() -> None:
    _assert_retrieves_by("ok what next", "continuation")


@pytest.mark.parametrize(
    "message",
    ["the insurance thing, any news?", "what about that passport renewal thing", "so the Halden thing?"],
)
def test_a_matter_called_by_the_users_shorthand_retrieves(message: str) -> None:
    _assert_retrieves_by(message, "topic_thing")


@pytest.mark.parametrize(
    "message",
    [
        "the same thing happened in the sequel",
        "the cool thing about rust is ownership",
        "that tiktok thing where people freeze honey",
        "does this break the whole thing",
    ],
)
def test_a_figure_of_speech_with_thing_is_no_shorthand(message: str) -> None:
    assert "topic_thing" not in should_auto_retrieve_memory(message, namespace="real_life").reason


@pytest.mark.parametrize(
    "message", ["how do i squash commits again", "explain list vs tuple again, i always forget"]
)
def test_again_alone_does_not_make_a_generic_question_the_users(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


@pytest.mark.parametrize(
    "message", ["how do i get into the staging box again", "how do i restart Kestrel's worker again"]
)
def test_again_beside_a_definite_or_named_thing_still_anchors_the_question(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life", current_task="server upkeep")
    assert decision.should_retrieve, decision.reason


@pytest.mark.parametrize("message", ["next", "ok next?", "ok that one's sorted. next?", "do the next bit"])
def test_next_as_a_step_in_the_work_goes_on(message: str) -> None:
    _assert_retrieves_by(message, "continuation")


@pytest.mark.parametrize(
    "message",
    [
        "next.js question: what does the next/font loader actually do",
        "what's a fancier word for next",
        "is there a word that rhymes with next",
    ],
)
def test_next_as_a_name_or_a_plain_word_is_no_continuation(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


@pytest.mark.parametrize(
    "message",
    [
        "what's the federal minimum wage in the US right now",
        "what's my best bet for picking up rust fast, any courses?",
        "my laptop fan is super loud, how do i clean it without opening it",
        "in blackjack does the dealer stand on soft 17 or hit",
    ],
)
def test_the_country_an_idiom_or_an_everyday_device_is_not_the_users_affair(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


def test_a_short_status_check_while_a_task_is_under_way_retrieves() -> None:
    with_task = should_auto_retrieve_memory("any news from the printer?", current_task="zine print run")
    without = should_auto_retrieve_memory("any news from the printer?")

    assert with_task.should_retrieve, with_task.reason
    assert "task_status_check" in with_task.reason
    assert "task_status_check" not in without.reason


def test_asking_to_redo_the_last_answer_is_about_this_chat() -> None:
    message = "try it again, shorter. the last draft dragged"
    decision = should_auto_retrieve_memory(message, current_task="a toast")

    assert not decision.should_retrieve, decision.reason
    assert "in_chat_followup" in decision.reason


def test_a_disclaimer_of_the_users_setup_outweighs_its_task() -> None:
    message = "how does kafka rebalancing work in general? not our setup, just the concept"
    decision = should_auto_retrieve_memory(message, current_task="consumer lag runbook")

    assert not decision.should_retrieve, decision.reason
    assert "personal_disclaimer" in decision.reason


def test_a_general_question_relayed_from_someone_is_not_the_users_affair() -> None:
    relayed = should_auto_retrieve_memory(
        "my nephew asked me what an API is, how do i explain it without jargon"
    )
    recalled = should_auto_retrieve_memory(
        "my landlord asked again what we agreed about the boiler, how do i explain it politely"
    )

    assert not relayed.should_retrieve, relayed.reason
    assert "relayed_question" in relayed.reason
    assert recalled.should_retrieve, recalled.reason


@pytest.mark.parametrize(
    "message",
    [
        "translate 'my sister just moved to Porto with her kids' into french",
        'can you rewrite "we always deploy on fridays and my boss hates it" to sound formal',
    ],
)
@pytest.mark.usefixtures("rules_only_lookup")  # the counts read the quoted words as the user's
def test_what_a_rewrite_request_quotes_is_material_not_the_users_life(message: str) -> None:
    assert not should_auto_retrieve_memory(message).should_retrieve


@pytest.mark.parametrize(
    "message",
    [
        "What does 'ENOENT: no such file' mean when I start my server?",
        "In my repo there's a folder called .husky. What is that for?",
    ],
)
def test_what_a_term_means_is_a_definition_even_about_the_users_code(message: str) -> None:
    decision = should_auto_retrieve_memory(message)

    assert not decision.should_retrieve, decision.reason


def test_what_a_story_event_does_to_the_plot_is_no_definition() -> None:
    message = "ok Maren's out of the picture now. what does that do to the siege plan"
    assert should_auto_retrieve_memory(message, namespace="au").should_retrieve


def test_a_feeling_after_im_is_no_past_event() -> None:
    decision = should_auto_retrieve_memory("explain raft consensus like i'm exhausted")

    assert not decision.should_retrieve, decision.reason
    assert "past_reference" not in decision.reason


def test_another_loss_in_a_running_tally_points_back() -> None:
    _assert_retrieves_by("down another 300 on the horses. how's the month looking", "past_reference")


def test_a_shape_word_inside_the_users_shorthand_is_part_of_its_name() -> None:
    decision = should_auto_retrieve_memory("the etsy vs shopify thing, i have to pick before the sale")

    assert decision.should_retrieve, decision.reason
    assert "generic_question" not in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "what's a good way to pace a slow-burn chapter in a mystery novel?",
        "typical word count per chapter for a cosy fantasy",
        "how do writers end a scene on a hook without it feeling cheap",
    ],
)
def test_a_story_word_under_an_indefinite_is_the_craft_not_the_canon(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="au")

    assert not decision.should_retrieve, decision.reason
    assert "au_canon_lookup" not in decision.reason


def test_a_definite_story_word_is_still_a_canon_lookup() -> None:
    decision = should_auto_retrieve_memory("how long was the chapter where Wren leaves?", namespace="au")

    assert "au_canon_lookup" in decision.reason


@pytest.mark.parametrize("message", ["use the old palette instead", "does this break the launch plan"])
def test_a_short_follow_up_on_a_definite_thing_while_a_task_is_under_way_retrieves(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life", current_task="checkout redesign")

    assert decision.should_retrieve, decision.reason
    assert "task_followup" in decision.reason


@pytest.mark.parametrize("message", ["what's the vat rate in the uk", "affect or effect: this will ___ us"])
def test_a_short_question_of_its_own_during_a_task_is_no_follow_up(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life", current_task="checkout redesign")

    assert "task_followup" not in decision.reason, decision.reason


@pytest.mark.parametrize(
    "task", ["quick questions", "trivia night prep", "reading docs", "stats homework help"]
)
def test_a_task_of_study_or_quick_questions_tips_nothing_towards_retrieval(task: str) -> None:
    decision = should_auto_retrieve_memory(
        "use the old palette instead", namespace="real_life", current_task=task
    )

    assert "current_task" not in decision.reason, decision.reason
    assert "task_followup" not in decision.reason, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "is it grey or gray for the ash in the harbour",
        "lightning or lightening here: the sky ___ over the tower",
    ],
)
def test_two_spellings_of_one_word_are_no_choice_between_canon_answers(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="au")

    assert "au_either_or" not in decision.reason, decision.reason


def test_two_numbers_are_still_a_choice_between_canon_answers() -> None:
    _assert_retrieves_by("is the vault code 3381 or 3318, check canon", "au_either_or", namespace="au")


@pytest.mark.parametrize(
    "message",
    [
        "is 3.49 still the right price for the planner pack, u know my numbers",
        "given what you know about the kiln schedule, can I add a saturday class",
        "did i change where the ferry docks or is it still the east pier",
        "광고 단가 잡았던 거 기준으로 이번 달 예산 다시 짜줘",
    ],
)
def test_leaning_on_what_the_assistant_already_knows_of_the_user_retrieves(message: str) -> None:
    _assert_retrieves_by(message, "past_reference")


def test_ok_and_now_asks_to_go_on_rather_than_chat() -> None:
    decision = should_auto_retrieve_memory("ok and now?", namespace="real_life", current_task="kiln schedule")

    assert decision.should_retrieve, decision.reason
    assert "casual_chat" not in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "how do you know if a girlfriend is love bombing? asking for a coworker",
        "omg finally friday",
        "that's fire thanks",
    ],
)
def test_a_disclaimer_or_small_talk_skips(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


def test_a_named_person_gone_silent_is_the_users_own_matter() -> None:
    decision = should_auto_retrieve_memory("Odile hasn't replied since monday. is this normal for her")

    assert decision.should_retrieve, decision.reason


def test_a_range_of_chapters_is_no_arithmetic() -> None:
    decision = should_auto_retrieve_memory("which subplots did I leave open in ch 3-5", namespace="au")

    assert decision.should_retrieve, decision.reason
    assert "math" not in decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "ok option b then",
        "the 9th. what do I still need by then",
        "marguerite phoned about the barn lease, what do you remember about her terms",
        "any word on the grant?",
    ],
)
def test_pointing_at_options_dates_and_matters_already_discussed_retrieves(message: str) -> None:
    assert should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


@pytest.mark.parametrize(
    "message",
    [
        "my nephew asks why leaves change colour. short answer?",
        "how do people host a blog for free nowadays? just curious",
        "my wrists click when I type, is that a known thing?",
    ],
)
def test_relayed_idle_and_is_that_a_thing_questions_skip(message: str) -> None:
    assert not should_auto_retrieve_memory(message, namespace="real_life").should_retrieve


@pytest.mark.parametrize(
    "message",
    [
        "if i print 60 posters at 4.50 each and sell them at 12 whats the profit",
        "a jar costs me $3.10 to fill and goes for $11, what's the margin",
        "if i post 2 chapters a week at 4800 words each, how many words total over 12 weeks",
        "3.5M x 3% commission minus 16% vat, how much is that",
        "if the odds are +200 and i bet 50 whats the payout",
        "if a lambda runs 300ms at 512mb, how many GB-seconds is that for 5M calls",
    ],
)
def test_a_word_problem_over_the_users_own_figures_is_arithmetic(message: str) -> None:
    decision = should_auto_retrieve_memory(message, namespace="real_life")

    assert not decision.should_retrieve, decision.reason
    assert "math" in decision.reason


def test_figures_the_user_asks_to_look_up_are_no_word_problem() -> None:
    decision = should_auto_retrieve_memory(
        "what was the total i ended up paying the roofer in april, the 3 invoices", namespace="real_life"
    )

    assert decision.should_retrieve, decision.reason


def test_a_character_named_in_lower_case_owning_something_asks_the_canon() -> None:
    decision = should_auto_retrieve_memory("list every npc who knows ossian's debt", namespace="au")
    plain = should_auto_retrieve_memory("list every npc in a classic heist story", namespace="au")

    assert decision.should_retrieve, decision.reason
    assert "ossian's" in decision.reason
    assert not plain.should_retrieve, plain.reason
