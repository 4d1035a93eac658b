"""The context pack: budgeted sections from the search source's items, never another namespace's."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, RetrievalMode, Sensitivity
from pandora_memory.search.reader import SearchResult
from pandora_memory.storage.records import MemoryRecord, MemoryStatus
from pandora_memory.turn.context_pack import (
    CHARS_PER_TOKEN,
    MEMORY_SHARE,
    ContextItem,
    ContextKind,
    build_context_pack,
    rank,
)
from pandora_memory.turn.memory_ledger import MemoryLedger
from pandora_memory.turn.search_context import STANDING_NOTE_WORDS, PackLimits, SearchContextSource, topic_of

RL = Namespace.REAL_LIFE


def memory_item(
    n: int, text: str, kind: ContextKind = ContextKind.DECISION, day: int = 1, score: float = 0.0
) -> ContextItem:
    return ContextItem(
        id=f"real_life.{n:064x}",
        namespace="real_life",
        kind=kind,
        label="open_loop" if kind is ContextKind.OPEN_LOOP else "project_decision",
        text=text,
        created_at=f"2026-11-{day:02d}T10:00:00.000000Z",
        score=score,
    )


def note_item(
    n: int, text: str, score: float, path: str = "notes/deploy", namespace: str = "real_life"
) -> ContextItem:
    return ContextItem(
        id=f"note:{n}",
        namespace=namespace,
        kind=ContextKind.NOTE,
        label=f"{path} § Deploy",
        text=text,
        score=score,
        source=path,
    )


def test_rank_puts_relevance_first_then_the_newest() -> None:
    old_relevant = memory_item(1, "deploy plan: staging before production", day=1, score=2.0)
    new_unrelated = memory_item(2, "prefers dark mode", day=20)
    newer_unrelated = memory_item(3, "bought a new bike", day=25)
    assert rank([new_unrelated, old_relevant, newer_unrelated]) == [
        old_relevant,
        newer_unrelated,
        new_unrelated,
    ]


def test_sections_come_in_a_fixed_order_with_paths_and_dates() -> None:
    items = [
        memory_item(1, "reply to Mina after Friday", ContextKind.OPEN_LOOP, day=3),
        memory_item(2, "deploys go through staging first", day=4),
        note_item(3, "Run sam deploy with the dev config.\n\nThen smoke test.", score=5.0),
    ]
    pack = build_context_pack(items, RL, budget_tokens=500)
    text = pack.text
    assert text.index("From your notes:") < text.index("Open loops:") < text.index("Recent decisions:")
    assert "- notes/deploy § Deploy: Run sam deploy with the dev config. Then smoke test." in text
    assert "- [project_decision] deploys go through staging first (2026-11-04)" in text
    assert pack.sources == ("notes/deploy",)
    assert set(pack.item_ids) == {item.id for item in items}
    assert not pack.truncated
    assert pack.estimated_tokens == -(-len(text) // CHARS_PER_TOKEN)


def test_the_pack_stays_within_the_budget_and_says_it_left_items_out() -> None:
    items = [memory_item(n, f"decision number {n} " + "x" * 180, day=n) for n in range(1, 30)]
    pack = build_context_pack(items, RL, budget_tokens=150)
    assert 0 < len(pack.item_ids) < len(items)
    assert len(pack.text) <= 150 * CHARS_PER_TOKEN
    assert pack.truncated
    assert pack.item_ids[0] == items[-1].id  # equal relevance: newest first


def test_memories_cannot_crowd_out_the_notes_nor_the_notes_the_memories() -> None:
    memories = [memory_item(n, f"decision {n} " + "m" * 200, day=n) for n in range(1, 20)]
    notes = [note_item(100 + n, f"passage {n} " + "n" * 400, score=10.0 - n) for n in range(8)]
    budget = 600
    pack = build_context_pack([*memories, *notes], RL, budget_tokens=budget)
    chosen = set(pack.item_ids)
    # Either side alone would fill the budget; the memories' share keeps room for three notes.
    assert len({item.id for item in notes} & chosen) == 3
    assert len({item.id for item in memories} & chosen) >= 3
    assert [i for i in pack.item_ids if i.startswith("note:")] == ["note:100", "note:101", "note:102"]
    assert len(pack.text) <= budget * CHARS_PER_TOKEN


def test_memories_take_the_room_the_notes_leave() -> None:
    memories = [memory_item(n, f"decision {n} " + "m" * 200, day=n) for n in range(1, 20)]
    pack = build_context_pack([*memories, note_item(99, "short passage", 3.0)], RL, budget_tokens=600)
    memory_chars = sum(len(line) + 1 for line in pack.text.split("\n") if line.startswith("- [project"))
    assert memory_chars > 600 * CHARS_PER_TOKEN * MEMORY_SHARE


def test_another_namespace_never_enters_the_pack() -> None:
    foreign = note_item(1, "the tide court meets at dawn", score=9.0, namespace="au")
    own = note_item(2, "the court hearing is at dawn", score=1.0)
    pack = build_context_pack([foreign, own], RL, budget_tokens=500)
    assert "tide court" not in pack.text and "court hearing" in pack.text


def test_no_items_gives_an_empty_pack() -> None:
    pack = build_context_pack([], Namespace.AU, budget_tokens=500)
    assert (pack.text, pack.item_ids, pack.truncated) == ("", (), False)


def test_a_very_long_item_is_shortened() -> None:
    pack = build_context_pack([memory_item(1, "y" * 5000)], RL, budget_tokens=1500)
    assert len(pack.text) < 800 and "…" in pack.text


# -- the search source --------------------------------------------------------------------------------


def record(
    n: int, summary: str, memory_type: MemoryType, namespace: Namespace = RL, **extra: object
) -> MemoryRecord:
    return MemoryRecord(
        namespace=namespace,
        content_hash=f"{n:064x}",
        created_at=f"2026-11-{n:02d}T10:00:00.000000Z",
        memory_type=memory_type,
        sensitivity=Sensitivity.LOW,
        summary=summary,
        status=MemoryStatus.APPROVED,
    ).model_copy(update=extra)


def hit(
    path: str, score: float, text: str = "passage", kind: str = "chunk", revision: str = ""
) -> SearchResult:
    return SearchResult(
        namespace=RL,
        logical_path=path,
        heading_path=("Plan", "Staging") if kind == "chunk" else (path,),
        text=text,
        revision_id=revision or f"{path}#{'a' * 64}",
        score=score,
        kind=kind,
    )


@dataclass
class StubSearch:
    """Loads the memories through the ledger, as the search service does, and returns fixed hits.

    `hits` answer any query; `by_query` answers the queries it names (the context pack's two searches).
    """

    ledger: MemoryLedger
    hits: list[SearchResult]
    by_query: dict[str, list[SearchResult]] = field(default_factory=dict)
    calls: list[tuple[str, ...]] = field(default_factory=list)

    def search(
        self, namespace: Namespace | str, query: str, limit: int = 5, path_prefix: str | None = None
    ) -> list[SearchResult]:
        return self.search_each(namespace, [query], limit, path_prefix)[0]

    def search_each(
        self,
        namespace: Namespace | str,
        queries: Sequence[str],
        limit: int = 5,
        path_prefix: str | None = None,
    ) -> list[list[SearchResult]]:
        self.calls.append(tuple(queries))
        if not any(query.strip() for query in queries):
            return [[] for _ in queries]
        self.ledger(Namespace(namespace))
        return [
            [h for h in self.by_query.get(query, self.hits) if query.strip()][:limit] for query in queries
        ]


def source_over(
    records: Sequence[MemoryRecord], hits: list[SearchResult]
) -> tuple[SearchContextSource, StubSearch, list[Namespace]]:
    loads: list[Namespace] = []

    def loader(namespace: Namespace) -> Sequence[MemoryRecord]:
        loads.append(namespace)
        return [r for r in records if r.namespace is namespace]

    ledger = MemoryLedger(loader)
    search = StubSearch(ledger, hits)
    return SearchContextSource(search, ledger, PackLimits(notes=2)), search, loads


MEMORIES = [
    record(1, "ship the beta to 50 users", MemoryType.PROJECT_DECISION),
    record(2, "call the landlord back", MemoryType.OPEN_LOOP),
    record(3, "old loop, done", MemoryType.OPEN_LOOP, resolved=True),
    record(4, "prefers metric units", MemoryType.PREFERENCE),
    record(5, "staging database is flaky", MemoryType.RISK),
    record(6, "the storm grey eyes", MemoryType.AU_CANON, namespace=Namespace.AU),
]


def test_hybrid_offers_the_best_notes_and_every_kind_of_memory() -> None:
    risk = MEMORIES[4]
    hits = [
        hit("plans/deploy", 9.0, "run sam deploy"),
        hit(f"memory/{risk.memory_type.value}", 4.0, risk.summary, "memory", risk.id),
        hit("plans/old", 5.0, "older plan"),
        hit("plans/misc", 1.0, "a stray word"),  # under 0.3 x the best note
    ]
    source, search, loads = source_over(MEMORIES, hits)
    items = source.items(RL, "deploy the beta", RetrievalMode.HYBRID)
    by_kind = {kind: [i.text for i in items if i.kind is kind] for kind in ContextKind}
    assert by_kind[ContextKind.NOTE] == ["run sam deploy", "older plan"]
    assert by_kind[ContextKind.OPEN_LOOP] == ["call the landlord back"]
    assert by_kind[ContextKind.DECISION] == ["ship the beta to 50 users"]
    assert by_kind[ContextKind.PREFERENCE] == ["prefers metric units"]
    assert by_kind[ContextKind.MEMORY] == ["staging database is flaky"]  # matched, so it joins
    assert search.calls == [("deploy the beta",)] and loads == [RL]
    assert {item.namespace for item in items} == {"real_life"}


def test_context_pack_mode_offers_loops_decisions_preferences_and_the_notes_holding_them() -> None:
    hits = [hit(f"topics/t{n}", 10.0 - n, f"open loop {n}") for n in range(5)]
    source, search, _ = source_over(MEMORIES, hits)
    items = source.items(RL, "continue where we left off", RetrievalMode.CONTEXT_PACK)
    kinds = {item.kind for item in items}
    assert kinds == {ContextKind.NOTE, ContextKind.OPEN_LOOP, ContextKind.DECISION, ContextKind.PREFERENCE}
    notes = [i.text for i in items if i.kind is ContextKind.NOTE]
    assert notes == ["open loop 0", "open loop 1", "open loop 2"]
    # Nothing in the message names a topic: only the standing words are searched.
    assert search.calls == [("", f" {STANDING_NOTE_WORDS[RL]}")]


def test_context_pack_mode_puts_the_notes_about_the_messages_topic_first() -> None:
    topic = [hit("house", 8.0, "bathroom heating: the plumber comes Friday")]
    standing = [hit("kiln", 9.0, "kiln open loops"), hit("house", 7.0, "house open loops")]
    source, search, _ = source_over(MEMORIES, [])
    message = "where were we on the bathroom heating?"
    assert topic_of(message) == "the bathroom heating"
    search.by_query = {topic_of(message): topic, f"{topic_of(message)} {STANDING_NOTE_WORDS[RL]}": standing}
    items = source.items(RL, message, RetrievalMode.CONTEXT_PACK)
    notes = [i.text for i in items if i.kind is ContextKind.NOTE]
    assert notes == ["bathroom heating: the plumber comes Friday", "kiln open loops", "house open loops"]
    assert len({i.id for i in items}) == len(items)


def test_the_au_world_searches_its_own_standing_words() -> None:
    source, search, _ = source_over(MEMORIES, [])
    source.items(Namespace.AU, "ok continue chapter 4", RetrievalMode.CONTEXT_PACK)
    assert search.calls == [("chapter 4", f"chapter 4 {STANDING_NOTE_WORDS[Namespace.AU]}")]
    assert "canon" in STANDING_NOTE_WORDS[Namespace.AU] and "canon" not in STANDING_NOTE_WORDS[RL]


def test_high_and_private_memories_join_only_when_the_message_is_about_them() -> None:
    therapy = record(
        7, "therapist said cut back on caffeine", MemoryType.PREFERENCE, sensitivity=Sensitivity.PRIVATE
    )
    code = record(
        8, "garage door code changes monthly", MemoryType.PROJECT_DECISION, sensitivity=Sensitivity.HIGH
    )
    matched = hit(f"memory/{code.memory_type.value}", 3.0, code.summary, "memory", code.id)
    source, search, _ = source_over([*MEMORIES, therapy, code], [])
    search.by_query = {topic_of("what next on the insurance renewal?"): [], "garage door": [matched]}
    unrelated = source.items(RL, "what next on the insurance renewal?", RetrievalMode.CONTEXT_PACK)
    assert {i.text for i in unrelated} >= {"prefers metric units", "call the landlord back"}
    assert therapy.summary not in {i.text for i in unrelated} and code.summary not in {
        i.text for i in unrelated
    }
    about_it = source.items(RL, "garage door", RetrievalMode.HYBRID)
    assert code.summary in {i.text for i in about_it} and therapy.summary not in {i.text for i in about_it}


def test_the_memories_come_from_what_the_search_loaded_not_a_second_read() -> None:
    source, _, loads = source_over(MEMORIES, [])
    source.items(RL, "first", RetrievalMode.HYBRID)
    source.items(RL, "second", RetrievalMode.HYBRID)
    assert loads == [RL, RL]  # the stub search loads each time; the source itself never does


def test_a_blank_query_still_gets_the_memories_with_one_load() -> None:
    source, _, loads = source_over(MEMORIES, [])
    items = source.items(RL, "   ", RetrievalMode.CONTEXT_PACK)
    assert loads == [RL] and any(item.kind is ContextKind.OPEN_LOOP for item in items)


def test_no_retrieval_offers_nothing() -> None:
    source, search, loads = source_over(MEMORIES, [])
    assert source.items(RL, "anything", RetrievalMode.NONE) == []
    assert search.calls == [] and loads == []
