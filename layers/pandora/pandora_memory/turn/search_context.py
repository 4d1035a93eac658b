"""The context pack's source: one search of the namespace, plus the memories that search was built from.

hybrid       -> the message is the query over notes and memories: the best note passages, and every
                memory ranked by how well it matched.
context_pack -> a "what next" turn: open loops, recent decisions and preferences, and the few note
                passages that hold them. Markdown memory keeps those under headings such as "Open
                loops" or "Decisions", so the message is searched together with those standing words:
                the sections about what the message names come first, and a user whose memory is
                only Markdown files still gets a pack.
Either way the search makes its one pointer GetItem (loads only when a generation moved), and the
memories come from the ledger of what the search loaded: no second read.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, RetrievalMode
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
STANDING_NOTE_WORDS = "open loops next steps todo blocked pending decisions decided preferences"


class Searcher(Protocol):
    """What the pack needs of `pandora_memory.search.reader.SearchService`."""

    def search(
        self, namespace: Namespace | str, query: str, limit: int = 5, path_prefix: str | None = None
    ) -> list[SearchResult]: ...


@dataclass(frozen=True)
class PackLimits:
    """How many items of each kind the source offers; the token budget then decides what fits."""

    search_hits: int = 30  # notes and memories together, from the one search
    notes: int = 6
    standing_notes: int = 3  # notes of a context_pack turn: the sections holding loops and decisions
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
        hybrid = mode is RetrievalMode.HYBRID
        search_text = query if hybrid else f"{query} {STANDING_NOTE_WORDS}"
        hits = self._search.search(namespace, search_text, limit=self._limits.search_hits)
        records = self._ledger.latest(namespace)
        if records is None or not search_text.strip():
            # A blank query makes the search return before it reads anything: load the memories here.
            records = tuple(self._ledger(namespace))
        notes = self._notes(namespace, hits, self._limits.notes if hybrid else self._limits.standing_notes)
        return [*notes, *self._memories(namespace, records, hits, hybrid)]

    def _notes(self, namespace: Namespace, hits: Sequence[SearchResult], limit: int) -> list[ContextItem]:
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
            for position, hit in enumerate(chunks[:limit])
            if hit.score >= floor
        ]

    def _memories(
        self,
        namespace: Namespace,
        records: Sequence[MemoryRecord],
        hits: Sequence[SearchResult],
        hybrid: bool,
    ) -> list[ContextItem]:
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
            if kind is ContextKind.MEMORY and not (hybrid and score > 0):
                continue  # other memories join only when the message is about them
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
