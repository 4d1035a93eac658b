"""The conversation as the person saw it: the branch ending at `current_node`, read back to the root.

ChatGPT stores every edit and regeneration as a tree in `mapping`; only the branch the user kept is
the conversation. System, tool and hidden messages, tool calls and non-text parts (images, files)
are left out. Each user message is paired with the assistant's reply that followed it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

USER = "user"
ASSISTANT = "assistant"
_TEXT_CONTENT = frozenset({"text", "multimodal_text"})
_TO_EVERYONE = frozenset({None, "all"})  # any other recipient is a call to a tool


@dataclass(frozen=True)
class Message:
    role: str
    text: str
    created: float | None


@dataclass(frozen=True)
class Turn:
    user_message: str
    assistant_response: str | None
    created: float | None


def timestamp(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def main_thread(mapping: Mapping[str, Any], current_node: object) -> list[Message]:
    """Messages on the kept branch, oldest first. Broken links end the walk instead of failing."""
    node_id = current_node if isinstance(current_node, str) and current_node in mapping else None
    if node_id is None:
        node_id = _latest_leaf(mapping)
    messages: list[Message] = []
    seen: set[str] = set()
    while isinstance(node_id, str) and node_id not in seen:
        seen.add(node_id)
        node = mapping.get(node_id)
        if not isinstance(node, Mapping):
            break
        message = visible_message(node.get("message"))
        if message is not None:
            messages.append(message)
        node_id = node.get("parent")
    messages.reverse()
    return messages


def _latest_leaf(mapping: Mapping[str, Any]) -> str | None:
    """Without a usable current_node, the newest leaf is the branch the user was last on."""
    best: tuple[float, int, str] | None = None
    for order, (node_id, node) in enumerate(mapping.items()):
        if not isinstance(node, Mapping) or node.get("children"):
            continue
        message = node.get("message")
        created = timestamp(message.get("create_time")) if isinstance(message, Mapping) else None
        key = (created if created is not None else float("-inf"), order, str(node_id))
        if best is None or key > best:
            best = key
    return best[2] if best else None


def visible_message(message: object) -> Message | None:
    """A user or assistant message's text, or None for anything the person did not see as chat."""
    if not isinstance(message, Mapping):
        return None
    author = message.get("author")
    role = author.get("role") if isinstance(author, Mapping) else None
    if role not in (USER, ASSISTANT):
        return None
    metadata = message.get("metadata")
    if isinstance(metadata, Mapping) and metadata.get("is_visually_hidden_from_conversation"):
        return None
    if role == ASSISTANT and message.get("recipient") not in _TO_EVERYONE:
        return None
    content = message.get("content")
    if not isinstance(content, Mapping) or content.get("content_type") not in _TEXT_CONTENT:
        return None
    parts = content.get("parts")
    if not isinstance(parts, list):
        return None
    text = "\n".join(part for part in parts if isinstance(part, str) and part.strip()).strip()
    if not text:
        return None
    return Message(role=str(role), text=text, created=timestamp(message.get("create_time")))


def pair_turns(messages: list[Message]) -> list[Turn]:
    """Each user message with the assistant's words before the next user message (None if none)."""
    turns: list[Turn] = []
    pending: Message | None = None
    replies: list[str] = []
    for message in messages:
        if message.role == USER:
            if pending is not None:
                turns.append(_turn(pending, replies))
            pending, replies = message, []
        elif pending is not None:
            replies.append(message.text)
    if pending is not None:
        turns.append(_turn(pending, replies))
    return turns


def _turn(user: Message, replies: list[str]) -> Turn:
    return Turn(
        user_message=user.text,
        assistant_response="\n\n".join(replies) if replies else None,
        created=user.created,
    )
