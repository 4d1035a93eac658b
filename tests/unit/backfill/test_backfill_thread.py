"""The main thread of a conversation tree, paired into turns the way the person saw the chat."""

import random
from typing import Any

from pandora_memory.backfill.conversations import conversation_from
from pandora_memory.backfill.thread import Turn, main_thread, pair_turns
from unit.backfill.export_factory import (
    ConversationBuilder,
    edited_conversation,
    image_part,
    simple_conversation,
)


def turns_of(conversation: dict[str, Any]) -> list[Turn]:
    return list(conversation_from(conversation, 1, "conversations.json").turns)


def test_turns_pair_each_user_message_with_the_reply_that_followed() -> None:
    conversation = simple_conversation(
        "plain",
        [("We decided to use Postgres.", "Noted."), ("and SQLite for tests", "Sounds good.")],
    )
    assert [(t.user_message, t.assistant_response) for t in turns_of(conversation)] == [
        ("We decided to use Postgres.", "Noted."),
        ("and SQLite for tests", "Sounds good."),
    ]


def test_the_null_root_and_the_hidden_system_message_are_not_turns() -> None:
    conversation = simple_conversation("root", [("hello", "hi")])
    root = [node for node in conversation["mapping"].values() if node["parent"] is None]
    assert len(root) == 1 and root[0]["message"] is None
    assert [m.role for m in main_thread(conversation["mapping"], conversation["current_node"])] == [
        "user",
        "assistant",
    ]


def test_only_the_kept_branch_of_an_edit_counts() -> None:
    args = (("first question", "first answer"), ("old wording", "old reply"), ("new wording", "new reply"))
    kept_edit = turns_of(edited_conversation("edit", *args, keep_edit=True))
    kept_original = turns_of(edited_conversation("edit", *args, keep_edit=False))
    assert [t.user_message for t in kept_edit] == ["first question", "new wording"]
    assert kept_edit[1].assistant_response == "new reply"
    assert [t.user_message for t in kept_original] == ["first question", "old wording"]


def test_the_fork_really_has_two_children() -> None:
    args = (("q", "a"), ("old", "old reply"), ("new", "new reply"))
    conversation = edited_conversation("edit", *args)
    assert any(len(node["children"]) == 2 for node in conversation["mapping"].values())


def test_images_are_dropped_and_their_text_kept() -> None:
    rng = random.Random(3)
    builder = ConversationBuilder("images", rng=rng)
    builder.user(image_part(rng), "what breed is this dog?")
    builder.assistant("A corgi.")
    builder.user(image_part(rng))  # an image alone is no turn
    builder.assistant("Another corgi.")
    turns = turns_of(builder.build())
    assert [t.user_message for t in turns] == ["what breed is this dog?"]
    assert turns[0].assistant_response == "A corgi.\n\nAnother corgi."


def test_tool_calls_tool_output_and_system_notes_are_left_out() -> None:
    builder = ConversationBuilder("tools")
    builder.custom_instructions("I live in Lisbon")
    builder.user("how much is 2+2 in python?")
    builder.tool_call("python", "print(2+2)", "4")
    builder.browse("search python arithmetic", "some web page text")
    builder.system_note("internal note")
    builder.assistant("It prints 4.")
    turns = turns_of(builder.build())
    assert [(t.user_message, t.assistant_response) for t in turns] == [
        ("how much is 2+2 in python?", "It prints 4.")
    ]


def test_a_user_message_without_reply_gets_none() -> None:
    builder = ConversationBuilder("no reply")
    builder.user("first")
    builder.user("second")
    builder.assistant("reply to second")
    turns = turns_of(builder.build())
    assert [(t.user_message, t.assistant_response) for t in turns] == [
        ("first", None),
        ("second", "reply to second"),
    ]


def test_without_current_node_the_newest_leaf_is_followed() -> None:
    args = (("q", "a"), ("old", "old reply"), ("new", "new reply"))
    conversation = edited_conversation("edit", *args)
    conversation["current_node"] = None
    assert [t.user_message for t in turns_of(conversation)] == ["q", "new"]
    conversation["current_node"] = "not-a-node"
    assert [t.user_message for t in turns_of(conversation)] == ["q", "new"]


def test_a_parent_cycle_ends_the_walk() -> None:
    conversation = simple_conversation("cycle", [("one", "two")])
    mapping = conversation["mapping"]
    root = next(node for node in mapping.values() if node["parent"] is None)
    root["parent"] = conversation["current_node"]
    assert [t.user_message for t in turns_of(conversation)] == ["one"]


def test_times_come_from_the_user_message() -> None:
    conversation = simple_conversation("times", [("one", "two")], start=1_000.0)
    [turn] = turns_of(conversation)
    assert turn.created is not None and turn.created > 1_000.0


def test_pairing_ignores_replies_before_any_user_message() -> None:
    from pandora_memory.backfill.thread import Message

    messages = [Message("assistant", "greeting", None), Message("user", "hi", 1.0)]
    assert pair_turns(messages) == [Turn("hi", None, 1.0)]


def test_conversation_ids_fall_back_to_id_then_position() -> None:
    conversation = simple_conversation("ids", [("one", "two")])
    del conversation["conversation_id"]
    assert conversation_from(conversation, 4, "c.json").id == conversation["id"]
    del conversation["id"]
    assert conversation_from(conversation, 4, "c.json").id == "#4"
