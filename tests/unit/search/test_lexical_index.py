"""LexicalIndex: fields, filters, Korean, identifiers and the edges of an empty index or query."""

import pytest
from pandora_memory.search.index import FieldWeights, LexicalIndex, SearchEntry


def entry(
    key: str,
    text: str,
    path: str = "notes.md",
    heading: tuple[str, ...] = (),
    namespace: str = "real_life",
    kind: str = "chunk",
) -> SearchEntry:
    return SearchEntry(key, namespace, path, heading, text, "rev-1", kind)


FILLER = " ".join(f"filler{i}" for i in range(40))


def keys(index: LexicalIndex, query: str, **options: object) -> list[str]:
    return [hit.entry.key for hit in index.search(query, **options)]  # type: ignore[arg-type]


def test_a_heading_match_outranks_the_same_word_only_in_the_body() -> None:
    index = LexicalIndex.build(
        [
            entry("body", f"we talked about the rollback once. {FILLER}", heading=("Meeting",)),
            entry("heading", f"point the alias back. {FILLER}", heading=("Deploy", "Rollback")),
        ]
    )
    assert keys(index, "rollback") == ["heading", "body"]


def test_file_name_words_count_as_a_field() -> None:
    index = LexicalIndex.build(
        [
            entry("named", f"how we ship things. {FILLER}", path="deploy-notes.md"),
            entry("other", f"we ship on Mondays, deploy too. {FILLER}", path="journal.md"),
        ]
    )
    assert keys(index, "deploy notes")[0] == "named"


def test_without_field_weights_the_body_decides() -> None:
    entries = [
        entry("body", f"rollback rollback rollback. {FILLER}", heading=("Meeting",)),
        entry("heading", f"point the alias back. {FILLER}", heading=("Rollback",)),
    ]
    plain = LexicalIndex.build(entries, FieldWeights(heading=0.0, path=0.0))
    assert keys(plain, "rollback") == ["body"]


def test_an_entry_scores_as_its_best_section() -> None:
    long_file = "# People\n\n" + "\n\n".join(f"## Person {i}\n\n{FILLER}" for i in range(10))
    long_file += "\n\n## Jonas\n\nAccountant, wants receipts as one PDF per month.\n"
    index = LexicalIndex.build(
        [
            entry("people", long_file, path="people.md", heading=("People",)),
            entry("log", f"Sent receipts to the accountant today. {FILLER} {FILLER}", path="log.md"),
        ]
    )
    assert keys(index, "accountant receipts pdf")[0] == "people"


def test_path_prefix_keeps_a_folder_or_exact_file() -> None:
    index = LexicalIndex.build(
        [
            entry("a", "deploy", path="notes/deploy.md"),
            entry("b", "deploy", path="notes-old/deploy.md"),
            entry("c", "deploy", path="notes/sub/deploy.md"),
            entry("d", "deploy", path="deploy.md"),
        ]
    )
    assert sorted(keys(index, "deploy", path_prefix="notes")) == ["a", "c"]
    assert sorted(keys(index, "deploy", path_prefix="notes/")) == ["a", "c"]
    assert keys(index, "deploy", path_prefix="deploy.md") == ["d"]
    assert keys(index, "deploy", path_prefix="missing/") == []
    assert len(keys(index, "deploy", path_prefix="")) == 4


def test_namespace_filter_on_a_mixed_index() -> None:
    index = LexicalIndex.build(
        [
            entry("real", "Kael climbs on Tuesdays", namespace="real_life"),
            entry("fiction", "Kael carries Ashmark", namespace="au"),
        ]
    )
    assert keys(index, "Kael", namespace="au") == ["fiction"]
    assert keys(index, "Kael", namespace="real_life") == ["real"]


def test_korean_queries_find_korean_text_despite_particles() -> None:
    index = LexicalIndex.build(
        [
            entry("kael", "카엘은 아버지가 만든 검을 들고 다닌다."),
            entry("riven", "리븐은 폭풍을 잠재우기 위해 결속 마법을 쓴다."),
            entry("english", "Kael carries a sword his father made."),
        ]
    )
    assert keys(index, "카엘의 검")[0] == "kael"
    assert keys(index, "리븐이 쓰는 마법은?")[0] == "riven"


def test_identifiers_are_searchable_exactly() -> None:
    index = LexicalIndex.build(
        [
            entry("pr", "Rolled back after PR #253 broke label parsing."),
            entry("region", "Everything runs in us-east-1 for now."),
            entry("version", "Shipped v2.3 with the new alias."),
            entry("noise", "PR reviews happen in the east office, version 1 of the plan."),
        ]
    )
    assert keys(index, "PR #253")[0] == "pr"
    assert keys(index, "us-east-1")[0] == "region"
    assert keys(index, "v2.3")[0] == "version"


def test_empty_index_and_empty_or_stop_word_queries_return_nothing() -> None:
    empty = LexicalIndex.build([])
    assert len(empty) == 0
    assert empty.search("anything") == []
    index = LexicalIndex.build([entry("a", "deploy notes")])
    assert index.search("") == []
    assert index.search("the of and what") == []
    assert index.search("deploy", limit=0) == []


def test_results_are_limited_sorted_and_independent_of_input_order() -> None:
    entries = [entry(f"k{i:02d}", "deploy " * (1 + i % 3) + FILLER) for i in range(20)]
    forward = LexicalIndex.build(entries).search("deploy", limit=7)
    backward = LexicalIndex.build(reversed(entries)).search("deploy", limit=7)
    assert len(forward) == 7
    assert [hit.score for hit in forward] == sorted((hit.score for hit in forward), reverse=True)
    assert forward == backward
    # Equal scores are broken by key, so the order is stable.
    ties = [hit for hit in forward if hit.score == forward[0].score]
    assert [hit.entry.key for hit in ties] == sorted(hit.entry.key for hit in ties)


def test_duplicate_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        LexicalIndex.build([entry("same", "a"), entry("same", "b")])


def test_memories_rank_alongside_chunks() -> None:
    index = LexicalIndex.build(
        [
            entry("chunk", f"Some notes. {FILLER}"),
            entry("memory:1", "Prefers oat milk flat whites.", path="", kind="memory"),
        ]
    )
    hits = index.search("oat milk")
    assert hits[0].entry.kind == "memory"
    assert list(index) == sorted(index, key=lambda item: item.key)


def test_pruned_top_k_equals_the_top_of_the_full_ranking() -> None:
    import random

    rng = random.Random(5)
    vocabulary = [f"word{i}" for i in range(300)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    entries = [
        entry(
            f"k{i:04d}",
            " ".join(rng.choices(vocabulary, weights, k=rng.randint(5, 80))),
            path=f"folder{i % 7}/file{i % 40}.md",
            heading=(f"word{rng.randint(0, 299)}",),
        )
        for i in range(600)
    ]
    index = LexicalIndex.build(entries)
    for _ in range(60):
        query = " ".join(rng.choices(vocabulary, weights, k=rng.randint(1, 6)))
        for options in ({}, {"path_prefix": "folder3"}):
            everything = index.search(query, limit=len(entries), **options)
            for limit in (1, 5, 10):
                top = index.search(query, limit=limit, **options)
                assert [hit.entry.key for hit in top] == [hit.entry.key for hit in everything[:limit]]
                assert [hit.score for hit in top] == pytest.approx([hit.score for hit in everything[:limit]])


def test_segments_rank_as_one_corpus() -> None:
    from pandora_memory.search.analysis import analyse_entry
    from pandora_memory.search.segment import build_segment

    chunks = [entry(f"c{i}", f"deploy the alias {'again ' * i}", path=f"notes/{i % 3}.md") for i in range(9)]
    memories = [entry("memory:1", "deploy alias preference", path="memory/preference", kind="memory")]
    whole = LexicalIndex.build(chunks + memories)
    split = LexicalIndex(
        [build_segment(map(analyse_entry, chunks)), build_segment(map(analyse_entry, memories))]
    )
    for query in ("deploy", "alias again", "preference", "notes"):
        assert split.search(query, limit=20) == whole.search(query, limit=20)
    assert list(split) == list(whole)
    with pytest.raises(ValueError, match="duplicate"):
        LexicalIndex(
            [build_segment(map(analyse_entry, chunks)), build_segment(map(analyse_entry, chunks[:1]))]
        )


def test_a_term_only_in_a_field_of_weight_zero_matches_nothing() -> None:
    index = LexicalIndex.build(
        [entry("a", "plain words", heading=("Rollback",)), entry("b", "other words")],
        FieldWeights(heading=0.0, path=0.0),
    )
    assert keys(index, "rollback") == []
    assert sorted(keys(index, "words")) == ["a", "b"]
