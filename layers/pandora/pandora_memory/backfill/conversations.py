"""One conversation of the export, reduced to what the policy reads: its id, times and turns."""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pandora_memory.backfill.errors import ExportError
from pandora_memory.backfill.json_array import JsonArrayItems
from pandora_memory.backfill.thread import Turn, main_thread, pair_turns, timestamp


@dataclass(frozen=True)
class Conversation:
    """`index` is the 1-based position in the export, the id of last resort."""

    index: int
    id: str
    title: str
    created: float | None
    updated: float | None
    turns: tuple[Turn, ...]

    @property
    def last_active(self) -> float | None:
        return self.updated if self.updated is not None else self.created


def conversation_from(raw: object, index: int, source_name: str) -> Conversation:
    if not isinstance(raw, Mapping):
        raise ExportError(f"{source_name}: item {index} is not a conversation (not a JSON object)")
    mapping = raw.get("mapping")
    if not isinstance(mapping, Mapping):
        raise ExportError(
            f"{source_name}: item {index} has no 'mapping' of messages: "
            "is this the conversations.json of a ChatGPT data export?"
        )
    title = raw.get("title")
    return Conversation(
        index=index,
        id=_conversation_id(raw, index),
        title=title if isinstance(title, str) else "",
        created=timestamp(raw.get("create_time")),
        updated=timestamp(raw.get("update_time")),
        turns=tuple(pair_turns(main_thread(mapping, raw.get("current_node")))),
    )


def _conversation_id(raw: Mapping[str, Any], index: int) -> str:
    for key in ("conversation_id", "id"):
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return f"#{index}"


class ConversationReader:
    """Streams conversations; `bytes_read` feeds a progress bar sized by the document's bytes."""

    def __init__(self, items: JsonArrayItems, source_name: str) -> None:
        self._items = items
        self._name = source_name

    @property
    def bytes_read(self) -> int:
        return self._items.bytes_read

    def __iter__(self) -> Iterator[Conversation]:
        for index, raw in enumerate(self._items, start=1):
            yield conversation_from(raw, index, self._name)
