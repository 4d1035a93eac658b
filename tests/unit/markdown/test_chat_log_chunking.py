"""Exported chat logs: turns are found in every export shape and chunks are whole exchanges."""

import pytest
from pandora_memory.markdown.chunking import ChunkerConfig, chunk_markdown
from pandora_memory.markdown.structure import analyse
from pandora_memory.markdown.transcript import Speaker, exchange_starts, find_turns, role_of_title
from unit.markdown.test_chunking_rules import SMALL, assert_sound, paragraph


def log(user: str, assistant: str, exchanges: list[tuple[str, str]], title: str = "# Trip planning") -> str:
    turns = [f"{user}{question}\n\n{assistant}{answer}" for question, answer in exchanges]
    return "\n\n".join([title, "Exported 2026-03-14", *turns]) + "\n"


SHORT = [
    (f"question {topic}?", paragraph(topic, 12)) for topic in ("alpha", "beta", "gamma", "delta", "omega")
]
SHAPES = {
    "headings": ("## User\n\n", "## Assistant\n\n"),
    "bold": ("**User:** ", "**Assistant:** "),
    "bold outside the colon": ("**You**: ", "**ChatGPT**: "),
    "plain": ("User: ", "Assistant: "),
    "human": ("### Human\n\n", "### Assistant\n\n"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_every_export_shape_gives_its_turns_in_order(shape: str) -> None:
    user, assistant = SHAPES[shape]
    turns = find_turns(analyse(log(user, assistant, SHORT)))
    assert [turn.speaker for turn in turns] == [Speaker.USER, Speaker.ASSISTANT] * len(SHORT)


def test_a_plain_transcript_without_blank_lines_still_has_its_turns() -> None:
    text = "Chat\nUser: hi there\nAssistant: hello\nUser: more\nAssistant: sure\n"
    assert [turn.line for turn in find_turns(analyse(text))] == [1, 2, 3, 4]


def test_labels_in_fences_lists_and_quotes_are_not_turns() -> None:
    quoted = "\n\n".join(
        [
            "```\nUser: a\nAssistant: b\n```",
            "- User: c\n- Assistant: d",
            "> **User:** e\n>\n> **Assistant:** f",
        ]
        * 2
    )
    assert find_turns(analyse(quoted)) == ()


def test_a_note_with_one_user_section_is_not_a_chat_log() -> None:
    text = "# Roles\n\n## User\n\nreads memory\n\n## Assistant\n\nwrites drafts\n\n## User\n\nreviews\n"
    assert find_turns(analyse(text)) == ()


def test_a_word_that_merely_starts_like_a_label_is_not_one() -> None:
    assert role_of_title("User stories") is None
    assert role_of_title("Assistant:") is Speaker.ASSISTANT
    text = "Username: x\n\nUser:name\n\nAssistants: y\n\nUser: a\n\nUser: b\n\nAssistant: c\n\nAssistant: d\n"
    assert [turn.line for turn in find_turns(analyse(text))] == [6, 8, 10, 12]


def test_an_exchange_is_a_user_turn_with_the_replies_after_it() -> None:
    text = "Assistant: welcome\n\nUser: a\n\nAssistant: b\n\nSystem: note\n\nUser: c\n\nAssistant: d\n"
    assert exchange_starts(find_turns(analyse(text))) == [0, 2, 8]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_chat_log_is_cut_between_exchanges_and_packs_short_ones(shape: str) -> None:
    user, assistant = SHAPES[shape]
    text = log(user, assistant, SHORT)
    chunks = chunk_markdown(text, SMALL)
    assert_sound(text, chunks)
    assert 1 < len(chunks) < len(SHORT)
    assert chunks[0].text.startswith(text.split("\n")[0])  # the title travels with the first exchange
    for chunk in chunks[1:]:
        assert chunk.text.startswith(user.strip())
    for chunk in chunks:
        assert chunk.text.count(user.strip()) == chunk.text.count(assistant.strip())
        assert chunk.token_estimate <= SMALL.max_tokens


def test_role_headings_stay_out_of_the_heading_path() -> None:
    chunks = chunk_markdown(log("## User\n\n", "## Assistant\n\n", SHORT), SMALL)
    assert {chunk.heading_path for chunk in chunks} == {("Trip planning",)}


def test_an_exchange_too_big_for_a_chunk_becomes_windows_inside_it() -> None:
    exchanges = [*SHORT[:2], ("tell me everything", paragraph("long", 300)), *SHORT[2:]]
    text = log("## User\n\n", "## Assistant\n\n", exchanges)
    chunks = chunk_markdown(text, SMALL)
    assert_sound(text, chunks)
    long_start = text.index("## User\n\ntell me everything")
    long_end = text.index("## User", long_start + 1)
    windows = [chunk for chunk in chunks if long_start <= chunk.start < long_end]
    assert len(windows) > 2
    assert all(chunk.end <= long_end and chunk.token_estimate <= SMALL.max_tokens for chunk in windows)
    assert windows[-1].end > windows[-2].start  # neighbouring windows overlap
    assert {chunk.heading_path for chunk in windows} == {("Trip planning",)}


def test_a_small_chat_log_is_still_one_chunk() -> None:
    text = log("User: ", "Assistant: ", SHORT[:2])
    assert len(chunk_markdown(text, ChunkerConfig())) == 1


def test_other_strategies_ignore_turns() -> None:
    text = log("## User\n\n", "## Assistant\n\n", SHORT)
    heading = chunk_markdown(text, ChunkerConfig(strategy="heading", max_tokens=60, overlap_tokens=10))
    assert ("Trip planning", "User") in {chunk.heading_path for chunk in heading}
