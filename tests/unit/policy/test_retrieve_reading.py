"""How a message is read into signals: words, cue families, masks, names, past tense, specifics."""

import pytest
from pandora_memory.policy.retrieve_details import read_details, read_shapes
from pandora_memory.policy.retrieve_lexicon import build_index, retrieve_rules, split_words
from pandora_memory.policy.retrieve_signals import MessageReading, read_message


def _read(message: str) -> MessageReading:
    rules = retrieve_rules()
    reading = read_message(message, rules)
    read_details(reading, rules)
    read_shapes(reading, rules)
    return reading


@pytest.mark.parametrize("tail", ["", " 지금"])
def test_words_split_on_punctuation_and_drop_contraction_tails(tail: str) -> None:
    expected = ["what", "next", "kael", "sword", "didn", "we", "feedback", "events", "x"]
    words = split_words(f"what's next? kael's sword, didn't we - feedback_events 'x'{tail}")
    assert words == expected + tail.split()


def test_ascii_word_start_cues_are_rejected() -> None:
    with pytest.raises(ValueError, match="non-Latin"):
        build_index({"past_reference": ["yesterd*"]})


def test_alternatives_are_rejected_in_retrieve_cues() -> None:
    with pytest.raises(ValueError, match="own cue"):
        build_index({"recall_question": ["you know the plan|setup"]})


def test_a_word_start_cue_may_not_sit_before_other_words() -> None:
    with pytest.raises(ValueError, match="only at the ends"):
        build_index({"past_reference": ["지난* 주"]})


def test_korean_particles_glued_onto_cues_still_match() -> None:
    reading = _read("지난번에 우리 서버 어떻게 바꿨었지?")
    assert "지난*" in reading.cues["past_reference"]
    assert "*었지" in reading.cues["past_reference"]
    assert reading.cues["ownership"] == ["우리*"]
    assert "서버*" in reading.cues["deployment"]


def test_a_latin_word_and_its_glued_particle_are_read_apart_but_counted_as_one_word() -> None:
    reading = _read("supabase에서 배포 어떻게 됐어")

    assert reading.words[:2] == ["supabase", "에서"]
    assert reading.word_count == 4
    assert "supabase" in reading.cues["deployment"]


def test_digits_before_a_korean_counter_stay_one_word() -> None:
    assert split_words("2시에 v1은") == ["2시에", "v1", "은"]


def test_text_written_without_spaces_matches_anywhere() -> None:
    assert "*だっけ*" in _read("セレンの妹の名前は何だっけ？").cues["past_reference"]


def test_neutral_phrases_mask_the_cues_they_cover() -> None:
    assert "continuation" not in _read("see you next week").cues
    assert "continuation" in _read("see you next week. ok, what's next?").cues
    assert "own_situation" not in _read("how do i reset a router").cues


def test_relative_that_is_not_an_anaphor() -> None:
    assert "anaphoric_reference" not in _read("list startups that pivoted").cues
    assert _read("did that ever get merged").cues["anaphoric_reference"] == ["that"]
    assert _read("that number we talked about").cues["anaphoric_reference"] == ["that"]


def test_subject_and_past_verb_read_as_a_recalled_event() -> None:
    assert "we picked" in _read("which one we picked for the sdk").cues["past_reference"]
    assert "they first met" in _read("where they first met").cues["past_reference"]
    assert "past_reference" not in _read("i need a recipe").cues


@pytest.mark.parametrize("message", ["if you had one, which would it be", "even if we lost the deposit"])
def test_a_supposition_is_not_a_recalled_event(message: str) -> None:
    assert "past_reference" not in _read(message).cues


def test_names_are_capitalised_words_that_are_not_tools_or_openers() -> None:
    reading = _read("Mina's friend Yuna asked. Here's the thing: Vercel and TypeError, iPhone.")
    assert reading.names == ["Mina", "Yuna"]


def test_a_capitalised_opener_that_talks_is_a_name_and_the_subject_of_a_recalled_event() -> None:
    reading = _read("Dana said yes to the offer")
    assert reading.names == ["Dana"]
    assert "dana said" in reading.cues["past_reference"]


def test_a_capitalised_opener_that_does_not_talk_is_only_the_first_word() -> None:
    reading = _read("Dana moved the offer to friday")
    assert reading.names == []


def test_specific_items_are_numbered_units_files_and_identifiers() -> None:
    reading = _read("chapter 6 and PR 12 broke feedback_events in scorer.py and notes.md")
    assert reading.specific_items == ["chapter 6", "pr 12", "file .py", "file .md", "identifier"]


def test_a_numbered_unit_of_a_published_work_is_a_generic_question() -> None:
    assert _read("summarize chapter 1 of pride and prejudice").shapes["generic_question"] == "chapter 1 of"
    assert "generic_question" not in _read("summarize chapter 1 of my fic").shapes


def test_pasted_code_does_not_read_as_the_user_talking() -> None:
    reading = _read("why does this fail?\n```\nmy_list = fetch_api()  # we fix it later\n```")
    assert "ownership" not in reading.cues
    assert "personal_reference" not in reading.cues


def test_small_talk_is_recognised_only_when_every_word_is_small_talk() -> None:
    assert _read("ok cool thanks").all_casual
    assert _read("고마워~ ㅋㅋ").all_casual
    assert not _read("ok cool, continue").all_casual


def test_very_long_messages_are_read_from_both_ends() -> None:
    filler = "lorem ipsum dolor " * 2000
    reading = _read(f"did the deploy fail again? {filler} what did we decide last time?")
    assert len(reading.lowered) <= retrieve_rules().max_analysed_chars + 3
    assert "last time" in reading.cues["past_reference"]
    assert "again" in reading.cues["past_reference"]


def test_a_quoted_term_is_named_not_used() -> None:
    assert "continuation" not in _read("what does 'continue' do in a python loop").cues
    assert "continuation" not in _read("how is `git rebase --continue` different").cues
    # Speech longer than a term stays, and so does a message that is little more than the quote.
    assert "past_reference" in _read('he said "we are still not done here" and left').cues
    assert "continuation" in _read('ok "continue"').cues


def test_a_past_verb_opening_the_message_is_the_users_own_event() -> None:
    assert _read("lost 300 on the horses today").cues["own_event"] == ["(i) lost"]
    assert _read("ugh. finally paid the card").cues["own_event"] == ["(i) finally paid"]
    for message in ("did the plan work", "set up a cron job", "based on this, which is better"):
        assert "own_event" not in _read(message).cues, message


def test_a_first_name_next_to_a_habit_word_is_someone_the_user_knows() -> None:
    assert _read("what does Tomás usually want in a deck").cues["person_habit"] == ["Tomás usually"]
    assert _read("does Hiro prefer calls").cues["person_habit"] == ["Hiro prefer"]
    assert "person_habit" not in _read("what does Paul Graham usually say about ideas").cues
    assert "person_habit" not in _read("what does Google usually ask").cues


def test_a_possessive_name_asks_for_a_detail_unless_it_names_a_rule() -> None:
    assert _read("what's Orren's rank in the guard").cues["possessive_name"] == ["Orren's"]
    assert "possessive_name" not in _read("is Chekhov's gun a rule").cues
    assert "would kael" in _read("would Kael forgive her").cues["canon_check"]
