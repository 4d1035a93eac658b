"""The context pack's source: one look at the search index, plus the memories that search was built from.

hybrid       -> the message is the query over notes and memories: the best note passages, and every
                memory ranked by how well it matched.
context_pack -> a "what next" turn: open loops, recent decisions and preferences, and the few note
                passages that hold them. The message's own topic words ("where were we on the bathroom
                heating?") are searched first, so the notes about what it names lead; then the message
                with the namespace's standing words, because Markdown memory keeps loops and decisions
                under headings such as "Open loops" or "Decisions" (canon, characters and chapters in
                the au world). A user whose memory is only Markdown files still gets a pack.
High and private memories join only when the message itself matched them: a question about insurance
must not carry the garage-door code or a therapist's advice along.
Either way the searches share one pointer GetItem (the index loads only when a generation moved), and
the memories come from the ledger of what the search loaded: no second read.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, RetrievalMode, Sensitivity
from pandora_memory.search.memory_entries import MEMORY_KIND
from pandora_memory.search.reader import SearchResult
from pandora_memory.storage.records import MemoryRecord
from pandora_memory.turn.context_pack import ContextItem, ContextKind, rank
from pandora_memory.turn.memory_ledger import MemoryLedger

# What the user settled: shown as "recent decisions" (canon is what the au world settled).
DECISION_TYPES = frozenset(
    {
        MemoryType.PROJECT_DECISION,
        MemoryType.ENV_CONFIG_DECISION,
        MemoryType.DEPLOYMENT_TRUTH,
        MemoryType.AU_CANON,
    }
)
HEADING_SEPARATOR = " › "
# The words notes use for what a "what next" turn needs (headings count as a search field).
STANDING_NOTE_WORDS: Mapping[Namespace, str] = {
    Namespace.REAL_LIFE: "open loops next steps todo blocked pending decisions decided preferences",
    Namespace.AU: "canon characters setting timeline chapter scene open loops next steps decisions style",
}
# Words of a "what next" message that name no topic (the index drops the usual stopwords itself).
RESUMING_WORDS = frozenset(
    (
        "continue", "continuing", "resume", "resuming", "left", "off", "pick", "picking", "carry",
        "carrying", "go", "going", "keep", "keeping", "next", "now", "then", "ok", "okay", "so", "again",
        "last", "time", "back", "where", "were", "we", "up", "on",
    )
)  # fmt: skip
SENSITIVE = frozenset({Sensitivity.HIGH, Sensitivity.PRIVATE})
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def topic_of(message: str) -> str:
    """The message without its resuming words: what a "what next" turn is about, if anything."""
    return " ".join(word for word in _WORD.findall(message) if word.lower() not in RESUMING_WORDS)


class Searcher(Protocol):
    """What the pack and the search endpoint need of `pandora_memory.search.reader.SearchService`."""

    def search(
        self, namespace: Namespace | str, query: str, limit: int = 5, path_prefix: str | None = None
    ) -> list[SearchResult]: ...

    def search_each(
        self,
        namespace: Namespace | str,
        queries: Sequence[str],
        limit: int = 5,
        path_prefix: str | None = None,
    ) -> list[list[SearchResult]]: ...


@dataclass(frozen=True)
class PackLimits:
    """How many items of each kind the source offers; the token budget then decides what fits."""

    search_hits: int = 30  # notes and memories together, from the one search
    notes: int = 6
    topic_notes: int = 3  # notes of a context_pack turn about what the message names...
    standing_notes: int = 3  # ...and the sections holding loops and decisions
    # A passage scoring under this share of the best one matched only a stray word of the message.
    note_min_relative_score: float = 0.3
    open_loops: int = 10
    decisions: int = 8
    preferences: int = 8
    related_memories: int = 5


def _memory_kind(record: MemoryRecord) -> ContextKind:
    if record.memory_type is MemoryType.OPEN_LOOP:
        return ContextKind.OPEN_LOOP
    if record.memory_type in DECISION_TYPES:
        return ContextKind.DECISION
    if record.memory_type is MemoryType.PREFERENCE:
        return ContextKind.PREFERENCE
    return ContextKind.MEMORY


def note_label(result: SearchResult) -> str:
    if not result.heading_path:
        return result.logical_path
    return f"{result.logical_path} § {HEADING_SEPARATOR.join(result.heading_path)}"


class SearchContextSource:
    def __init__(self, search: Searcher, ledger: MemoryLedger, limits: PackLimits = PackLimits()) -> None:
        self._search = search
        self._ledger = ledger
        self._limits = limits

    def items(self, namespace: Namespace, query: str, mode: RetrievalMode) -> Sequence[ContextItem]:
        if mode is RetrievalMode.NONE:
            return []
        limit = self._limits.search_hits
        if mode is RetrievalMode.HYBRID:
            queries = [query]
            (topic_hits,) = self._search.search_each(namespace, queries, limit)
            notes = self._notes(namespace, topic_hits, self._limits.notes)
        else:
            topic = topic_of(query)
            queries = [topic, f"{topic} {STANDING_NOTE_WORDS[namespace]}"]
            topic_hits, standing_hits = self._search.search_each(namespace, queries, limit)
            notes = self._notes(namespace, topic_hits, self._limits.topic_notes)
            shown = {(note.source, note.text) for note in notes}
            standing = [hit for hit in standing_hits if (hit.logical_path, hit.text) not in shown]
            notes += self._notes(namespace, standing, self._limits.standing_notes, first=len(notes))
        records = self._ledger.latest(namespace)
        if records is None or not any(text.strip() for text in queries):
            # A blank query makes the search return before it reads anything: load the memories here.
            records = tuple(self._ledger(namespace))
        return [*notes, *self._memories(namespace, records, topic_hits)]

    def _notes(
        self, namespace: Namespace, hits: Sequence[SearchResult], limit: int, first: int = 0
    ) -> list[ContextItem]:
        chunks = [hit for hit in hits if hit.kind != MEMORY_KIND and hit.namespace is namespace]
        if not chunks:
            return []
        floor = chunks[0].score * self._limits.note_min_relative_score
        return [
            ContextItem(
                id=f"note:{position}:{hit.revision_id}",
                namespace=namespace.value,
                kind=ContextKind.NOTE,
                label=note_label(hit),
                text=hit.text,
                score=hit.score,
                source=hit.logical_path,
            )
            for position, hit in enumerate(chunks[:limit], start=first)
            if hit.score >= floor
        ]

    def _memories(
        self,
        namespace: Namespace,
        records: Sequence[MemoryRecord],
        hits: Sequence[SearchResult],
    ) -> list[ContextItem]:
        """Open loops, decisions and preferences always; others, and anything high or private, when the
        message matched them (`hits` are the message's own search results)."""
        scores: Mapping[str, float] = {
            hit.revision_id: hit.score
            for hit in hits
            if hit.kind == MEMORY_KIND and hit.namespace is namespace
        }
        offered: dict[ContextKind, list[ContextItem]] = {}
        for record in records:
            if record.namespace is not namespace or not record.summary.strip():
                continue
            if record.memory_type is MemoryType.OPEN_LOOP and record.resolved:
                continue
            kind = _memory_kind(record)
            score = scores.get(record.id, 0.0)
            if score <= 0 and (kind is ContextKind.MEMORY or record.sensitivity in SENSITIVE):
                continue
            offered.setdefault(kind, []).append(
                ContextItem(
                    id=record.id,
                    namespace=namespace.value,
                    kind=kind,
                    label=record.memory_type.value,
                    text=record.summary,
                    created_at=record.created_at,
                    score=score,
                )
            )
        caps = {
            ContextKind.OPEN_LOOP: self._limits.open_loops,
            ContextKind.DECISION: self._limits.decisions,
            ContextKind.PREFERENCE: self._limits.preferences,
            ContextKind.MEMORY: self._limits.related_memories,
        }
        return [item for kind, items in offered.items() for item in rank(items)[: caps[kind]]]
