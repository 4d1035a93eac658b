"""Replacing one document in a decoded snapshot: the result is what a fresh build gives, byte for byte,
only that document is tokenized, and text blocks away from the change are kept as they were."""

from dataclasses import replace

import pytest
from pandora_memory.search import analysis, texts
from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.snapshot import decode_snapshot, encode_snapshot, index_from_snapshot
from pandora_memory.search.splice import replace_document
from pandora_memory.search.texts import BlockTexts

WORDS = [
    *("deploy", "alias", "rollback", "harbour", "lighthouse", "keeper"),
    *("pancakes", "garden", "tomato", "review", "release"),
]


def document(path: str, chunks: int, salt: int = 0, heading: str = "Notes") -> list[SearchEntry]:
    return [
        SearchEntry(
            f"{path}#h{salt}#{ordinal:05d}",
            "real_life",
            path,
            (heading, f"Part {ordinal}"),
            f"## Part {ordinal}\n\n"
            + " ".join(WORDS[(ordinal * 3 + salt + i) % len(WORDS)] for i in range(5 + ordinal % 4))
            + f"\n\n### Detail\n\nowner{salt % 3} milestone{ordinal}",
            f"{path}#h{salt}",
        )
        for ordinal in range(chunks)
    ]


CORPUS = {
    "alpha/first.md": document("alpha/first.md", 3),
    "harbour/log.md": document("harbour/log.md", 4, salt=1, heading="Harbour"),
    "home/garden.md": document("home/garden.md", 2, salt=2),
    "zeta/last.md": document("zeta/last.md", 3, salt=3, heading="Last"),
}


def snapshot_of(documents: dict[str, list[SearchEntry]]) -> bytes:
    return encode_snapshot([entry for entries in documents.values() for entry in entries])


@pytest.mark.parametrize("path", sorted(CORPUS))
def test_adding_a_document_gives_the_fresh_build(path: str) -> None:
    without = {other: entries for other, entries in CORPUS.items() if other != path}
    spliced = replace_document(decode_snapshot(snapshot_of(without)), path, CORPUS[path])
    assert encode_snapshot(spliced) == snapshot_of(CORPUS)


@pytest.mark.parametrize("path", sorted(CORPUS))
@pytest.mark.parametrize("chunks", [0, 1, 3, 6])
def test_replacing_or_deleting_a_document_gives_the_fresh_build(path: str, chunks: int) -> None:
    changed = {**CORPUS, path: document(path, chunks, salt=7, heading="Rewritten")}
    spliced = replace_document(decode_snapshot(snapshot_of(CORPUS)), path, changed[path])
    assert encode_snapshot(spliced) == snapshot_of(changed)
    queries = ["deploy alias", "rewritten part", "owner1 milestone2", "harbour", "zeta last"]
    fresh = LexicalIndex.build(entry for entries in changed.values() for entry in entries)
    reloaded = index_from_snapshot(encode_snapshot(spliced))
    for query in queries:
        assert reloaded.search(query, limit=20) == fresh.search(query, limit=20)


def test_deleting_a_document_that_is_not_there_changes_nothing() -> None:
    data = snapshot_of(CORPUS)
    assert encode_snapshot(replace_document(decode_snapshot(data), "missing.md", [])) == data


def test_only_the_new_document_is_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    segment = decode_snapshot(snapshot_of(CORPUS))
    seen: list[str] = []
    real = analysis.analyse_entry

    def counting(entry: SearchEntry) -> analysis.AnalysedEntry:
        seen.append(entry.logical_path)
        return real(entry)

    monkeypatch.setattr("pandora_memory.search.splice.analyse_entry", counting)
    replace_document(segment, "home/garden.md", document("home/garden.md", 2, salt=9))
    assert seen == ["home/garden.md", "home/garden.md"]


def test_entries_of_another_path_or_a_taken_key_are_refused() -> None:
    segment = decode_snapshot(snapshot_of(CORPUS))
    with pytest.raises(ValueError, match="do not belong"):
        replace_document(segment, "home/garden.md", CORPUS["zeta/last.md"])
    stolen = replace(CORPUS["zeta/last.md"][0], logical_path="home/garden.md")
    with pytest.raises(ValueError, match="duplicate"):
        replace_document(segment, "home/garden.md", [stolen])


def test_text_blocks_away_from_the_change_are_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(texts, "MIN_BLOCK_BYTES", 100)
    monkeypatch.setattr(texts, "MAX_BLOCK_BYTES", 2000)
    documents = {f"notes/{n:02d}.md": document(f"notes/{n:02d}.md", 3, salt=n) for n in range(40)}
    before = decode_snapshot(snapshot_of(documents))
    changed = {**documents, "notes/06.md": document("notes/06.md", 5, salt=40)}

    after = replace_document(before, "notes/06.md", changed["notes/06.md"])

    assert encode_snapshot(after) == snapshot_of(changed)
    assert isinstance(before.texts, BlockTexts) and isinstance(after.texts, BlockTexts)
    old_members = {id(block.member) for block in before.texts.blocks}
    reused = [block for block in after.texts.blocks if id(block.member) in old_members]
    assert len(before.texts.blocks) > 12, len(before.texts.blocks)
    assert len(reused) >= len(before.texts.blocks) - 4
    expected = sorted((entry for entries in changed.values() for entry in entries), key=lambda e: e.key)
    assert [after.texts.text(i) for i in range(len(after))] == [entry.text for entry in expected]
