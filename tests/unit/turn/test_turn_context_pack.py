from collections.abc import Sequence

from pandora_memory.namespaces import Namespace
from pandora_memory.turn.context_pack import (
    CHARS_PER_TOKEN,
    ContextItem,
    ContextKind,
    build_context_pack,
    keywords,
    rank,
)


class ListSource:
    def __init__(self, items: Sequence[ContextItem]) -> None:
        self._items = items
        self.calls: list[tuple[Namespace, str]] = []

    def items(self, namespace: Namespace, query: str) -> Sequence[ContextItem]:
        self.calls.append((namespace, query))
        return self._items


def item(n: int, text: str, kind: ContextKind = ContextKind.MEMORY, day: int = 1) -> ContextItem:
    return ContextItem(
        id=f"real_life.{n:064x}",
        kind=kind,
        label="open_loop" if kind is ContextKind.OPEN_LOOP else "project_decision",
        text=text,
        created_at=f"2026-11-{day:02d}T10:00:00.000000Z",
    )


def test_keywords_drop_short_and_common_words() -> None:
    assert keywords("What is the deploy plan for the Pandora API?") == {"deploy", "plan", "pandora", "api"}


def test_relevant_items_come_first_then_the_newest() -> None:
    old_relevant = item(1, "deploy plan: staging before production", day=1)
    new_unrelated = item(2, "prefers dark mode in every editor", day=20)
    newer_unrelated = item(3, "bought a new bike", day=25)
    ranked = rank([new_unrelated, old_relevant, newer_unrelated], "what was the deploy plan?")
    assert ranked == [old_relevant, newer_unrelated, new_unrelated]


def test_pack_groups_open_loops_first_and_reads_each_source_once() -> None:
    loop = item(1, "reply to Mina after Friday", ContextKind.OPEN_LOOP, day=3)
    memory = item(2, "deploys go through staging first", day=4)
    source = ListSource([memory, loop])
    pack = build_context_pack([source], Namespace.REAL_LIFE, "deploy", budget_tokens=500)
    assert source.calls == [(Namespace.REAL_LIFE, "deploy")]
    assert pack.text.index("Open loops:") < pack.text.index("reply to Mina") < pack.text.index("Memories:")
    assert "- [project_decision] deploys go through staging first (2026-11-04)" in pack.text
    assert set(pack.item_ids) == {loop.id, memory.id}
    assert not pack.truncated
    assert pack.estimated_tokens == -(-len(pack.text) // CHARS_PER_TOKEN)


def test_pack_stays_within_the_budget_and_says_it_left_items_out() -> None:
    items = [item(n, f"decision number {n} " + "x" * 180, day=n) for n in range(1, 30)]
    pack = build_context_pack([ListSource(items)], Namespace.REAL_LIFE, "decision", budget_tokens=150)
    assert 0 < len(pack.item_ids) < len(items)
    assert len(pack.text) <= 150 * CHARS_PER_TOKEN
    assert pack.truncated
    assert pack.item_ids[0] == items[-1].id  # equal relevance: newest first


def test_several_sources_are_merged() -> None:
    first = ListSource([item(1, "alpha project uses postgres")])
    second = ListSource([item(2, "alpha launch is in march", day=2)])
    pack = build_context_pack([first, second], Namespace.REAL_LIFE, "alpha", budget_tokens=500)
    assert len(pack.item_ids) == 2


def test_no_items_gives_an_empty_pack() -> None:
    pack = build_context_pack([ListSource([])], Namespace.AU, "anything", budget_tokens=500)
    assert (pack.text, pack.item_ids, pack.truncated) == ("", (), False)


def test_a_very_long_item_is_shortened() -> None:
    pack = build_context_pack([ListSource([item(1, "y" * 5000)])], Namespace.AU, "y", budget_tokens=1500)
    assert len(pack.text) < 800
    assert "…" in pack.text
