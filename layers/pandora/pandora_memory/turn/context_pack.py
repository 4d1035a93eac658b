"""The compact context pack handed to the answer: open loops and memories, most relevant and newest first.

Sources are pluggable (today the permanent-memory table; Markdown search can be added as another
source). Relevance is plain lexical overlap with the message: deterministic and explainable.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType
from pandora_memory.policy.text import normalise
from pandora_memory.storage.memories import MemoryRepository

CHARS_PER_TOKEN = 4
MAX_ITEM_CHARS = 600

# Words too common to say two texts are about the same thing.
_STOPWORDS_TEXT = (
    "the and for are but not you your yours with this that these those have has had was were will would",
    "can could should what when where which who whom why how about into from over under again then than",
    "there their them they its it's i'm i've i'd we're our ours out just like also very any all some",
    "one two get got make made need want know think please thanks thank does did done doing been being",
    "more most much many such only own same too let me my mine",
)
_STOPWORDS = frozenset(" ".join(_STOPWORDS_TEXT).split())
_WORD = re.compile(r"[a-z0-9][a-z0-9'_-]*[a-z0-9]|[a-z0-9]{3,}")


class ContextKind(StrEnum):
    OPEN_LOOP = "open_loop"
    MEMORY = "memory"


@dataclass(frozen=True)
class ContextItem:
    id: str
    kind: ContextKind
    label: str
    text: str
    created_at: str


class ContextSource(Protocol):
    def items(self, namespace: Namespace, query: str) -> Sequence[ContextItem]: ...


@dataclass(frozen=True)
class ContextPack:
    text: str
    item_ids: tuple[str, ...]
    estimated_tokens: int
    truncated: bool


EMPTY_PACK = ContextPack(text="", item_ids=(), estimated_tokens=0, truncated=False)


class MemoryContextSource:
    """Approved and auto-captured memories plus unresolved open loops, from one ByRecency query."""

    def __init__(self, repository: MemoryRepository, scan_limit: int) -> None:
        self._repository = repository
        self._scan_limit = scan_limit

    def items(self, namespace: Namespace, query: str) -> Sequence[ContextItem]:
        items: list[ContextItem] = []
        for record in self._repository.newest(namespace, self._scan_limit):
            is_loop = record.memory_type is MemoryType.OPEN_LOOP
            if is_loop and record.resolved:
                continue
            items.append(
                ContextItem(
                    id=record.id,
                    kind=ContextKind.OPEN_LOOP if is_loop else ContextKind.MEMORY,
                    label=record.memory_type.value,
                    text=record.summary,
                    created_at=record.created_at,
                )
            )
        return items


def keywords(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(normalise(text)) if len(w) > 2 and w not in _STOPWORDS)


def rank(items: Sequence[ContextItem], query: str) -> list[ContextItem]:
    """Most shared keywords first; among equals, newest first."""
    wanted = keywords(query)
    newest_first = sorted(items, key=lambda item: item.created_at, reverse=True)
    return sorted(newest_first, key=lambda item: len(wanted & keywords(item.text)), reverse=True)


def _line(item: ContextItem) -> str:
    text = " ".join(item.text.split())
    if len(text) > MAX_ITEM_CHARS:
        text = text[: MAX_ITEM_CHARS - 1].rstrip() + "…"
    return f"- [{item.label}] {text} ({item.created_at[:10]})"


def build_context_pack(
    sources: Sequence[ContextSource], namespace: Namespace, query: str, budget_tokens: int
) -> ContextPack:
    candidates = [item for source in sources for item in source.items(namespace, query)]
    if not candidates:
        return EMPTY_PACK
    header = f"Pandora memory ({namespace.value}), most relevant and newest first:"
    sections = {ContextKind.OPEN_LOOP: "Open loops:", ContextKind.MEMORY: "Memories:"}
    budget_chars = budget_tokens * CHARS_PER_TOKEN
    used = len(header) + sum(len(title) + 1 for title in sections.values())
    chosen: list[tuple[ContextItem, str]] = []
    for item in rank(candidates, query):
        line = _line(item)
        if used + len(line) + 1 > budget_chars:
            continue  # a shorter item further down may still fit
        chosen.append((item, line))
        used += len(line) + 1
    if not chosen:
        return ContextPack(text="", item_ids=(), estimated_tokens=0, truncated=True)
    blocks = [header]
    for kind, title in sections.items():
        lines = [line for item, line in chosen if item.kind is kind]
        if lines:
            blocks.append("\n".join([title, *lines]))
    text = "\n".join(blocks)
    return ContextPack(
        text=text,
        item_ids=tuple(item.id for item, _ in chosen),
        estimated_tokens=-(-len(text) // CHARS_PER_TOKEN),
        truncated=len(chosen) < len(candidates),
    )
