"""The compact context pack handed to the answer: the best note passages for the message, open loops,
recent decisions, preferences and other related memories, within a token budget.

Sources are pluggable (`ContextSource`); they decide which items are worth offering and give each a
relevance score. This module only fits them into the budget and writes the text: deterministic,
explainable, and never anything of another namespace (checked again here, whatever the source).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import RetrievalMode

CHARS_PER_TOKEN = 4
MAX_MEMORY_CHARS = 600
MAX_NOTE_CHARS = 1200
# While note passages wait for room, memories may fill at most this share of the budget: the notes
# answer the question, the memories frame it. Whatever either side leaves unused goes to the other.
MEMORY_SHARE = 0.4


class ContextKind(StrEnum):
    NOTE = "note"  # a passage of a Markdown note, found by search
    OPEN_LOOP = "open_loop"
    DECISION = "decision"
    PREFERENCE = "preference"
    MEMORY = "memory"  # any other memory the search found relevant


SECTION_TITLES: dict[ContextKind, str] = {
    ContextKind.NOTE: "From your notes:",
    ContextKind.OPEN_LOOP: "Open loops:",
    ContextKind.DECISION: "Recent decisions:",
    ContextKind.PREFERENCE: "Preferences:",
    ContextKind.MEMORY: "Related memories:",
}
MEMORY_KINDS = (ContextKind.OPEN_LOOP, ContextKind.DECISION, ContextKind.PREFERENCE, ContextKind.MEMORY)


@dataclass(frozen=True)
class ContextItem:
    id: str
    namespace: str
    kind: ContextKind
    label: str  # the memory type, or the note's path and headings
    text: str
    created_at: str = ""  # memories only
    score: float = 0.0  # search relevance; 0 when the search did not match it
    source: str = ""  # the note's logical path


class ContextSource(Protocol):
    def items(self, namespace: Namespace, query: str, mode: RetrievalMode) -> Sequence[ContextItem]: ...


@dataclass(frozen=True)
class ContextPack:
    text: str
    item_ids: tuple[str, ...]
    estimated_tokens: int
    truncated: bool
    sources: tuple[str, ...] = ()  # logical paths of the notes in the text


EMPTY_PACK = ContextPack(text="", item_ids=(), estimated_tokens=0, truncated=False)


def rank(items: Iterable[ContextItem]) -> list[ContextItem]:
    """Most relevant first; among equals the newest, then by id (so the order never depends on input)."""
    by_id = sorted(items, key=lambda item: item.id)
    newest_first = sorted(by_id, key=lambda item: item.created_at, reverse=True)
    return sorted(newest_first, key=lambda item: item.score, reverse=True)


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def line(item: ContextItem) -> str:
    if item.kind is ContextKind.NOTE:
        return f"- {item.label}: {_shorten(item.text, MAX_NOTE_CHARS)}"
    day = f" ({item.created_at[:10]})" if item.created_at else ""
    return f"- [{item.label}] {_shorten(item.text, MAX_MEMORY_CHARS)}{day}"


class _Filler:
    """Greedy fill: an item that does not fit is skipped, since a shorter one further down may."""

    def __init__(self, budget_chars: int) -> None:
        self.left = budget_chars
        self.chosen: dict[ContextKind, list[tuple[ContextItem, str]]] = {}
        self._taken: set[str] = set()

    def take(self, items: Sequence[ContextItem], kind: ContextKind, allowance: int) -> int:
        """Adds items of one kind using at most `allowance` characters; returns the characters used."""
        used = 0
        for item in items:
            if item.id in self._taken:
                continue
            text = line(item)
            cost = len(text) + 1 + (0 if kind in self.chosen else len(SECTION_TITLES[kind]) + 1)
            if cost > min(allowance - used, self.left):
                continue
            self.chosen.setdefault(kind, []).append((item, text))
            self._taken.add(item.id)
            used += cost
            self.left -= cost
        return used


def build_context_pack(items: Sequence[ContextItem], namespace: Namespace, budget_tokens: int) -> ContextPack:
    own = [item for item in items if item.namespace == namespace.value]  # the last lock on the door
    if not own:
        return EMPTY_PACK
    header = f"Pandora memory ({namespace.value}), most relevant first:"
    grouped = {kind: rank(item for item in own if item.kind is kind) for kind in ContextKind}
    filler = _Filler(budget_tokens * CHARS_PER_TOKEN - len(header))
    memory_cap = int(filler.left * MEMORY_SHARE) if grouped[ContextKind.NOTE] else filler.left
    for kind in MEMORY_KINDS:
        memory_cap -= filler.take(grouped[kind], kind, memory_cap)
    filler.take(grouped[ContextKind.NOTE], ContextKind.NOTE, filler.left)
    for kind in MEMORY_KINDS:  # room the notes left over
        filler.take(grouped[kind], kind, filler.left)

    if not filler.chosen:
        return ContextPack(text="", item_ids=(), estimated_tokens=0, truncated=True)
    blocks = [header]
    chosen: list[ContextItem] = []
    for kind in (ContextKind.NOTE, *MEMORY_KINDS):
        entries = filler.chosen.get(kind, [])
        if entries:
            blocks.append("\n".join([SECTION_TITLES[kind], *(text for _, text in entries)]))
            chosen.extend(item for item, _ in entries)
    text = "\n".join(blocks)
    return ContextPack(
        text=text,
        item_ids=tuple(item.id for item in chosen),
        estimated_tokens=-(-len(text) // CHARS_PER_TOKEN),
        truncated=len(chosen) < len(own),
        sources=tuple(dict.fromkeys(item.source for item in chosen if item.source)),
    )
