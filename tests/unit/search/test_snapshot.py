"""Snapshots (format version 2): round trip without tokenizing, plain texts, strict decoding, and the
rebuild from entries of a version 1 snapshot or of one made by another tokenizer version."""

import gzip
from array import array
from collections.abc import Callable
from typing import Any

import pytest
from pandora_memory.search import analysis, container
from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.snapshot import (
    SNAPSHOT_VERSION,
    MalformedSnapshotError,
    decode_snapshot,
    encode_snapshot,
    index_from_snapshot,
)
from unit.search.legacy_snapshot import version_1

ENTRIES = [
    SearchEntry(
        f"deploy-notes.md#abc#{i:05d}",
        "real_life",
        "deploy-notes.md",
        ("Deploy notes", f"Section {i}"),
        f"## Section {i}\n\nRoll back via the live alias; PR #{250 + i}; 카엘은 검을 들었다 {i}.",
        "abc",
    )
    for i in range(30)
] + [
    SearchEntry("journal.md#def#00000", "real_life", "journal.md", (), "Rolled back twice this week.", "def"),
    SearchEntry(
        "memory:7", "real_life", "memory/preference", ("preference",), "Prefers oat milk.", "m7", "memory"
    ),
]
QUERIES = ["roll back alias", "PR #253", "카엘의 검", "oat milk", "section 12", "deploy notes", ""]


def results(index: LexicalIndex) -> list[list[tuple[str, float]]]:
    return [[(hit.entry.key, hit.score) for hit in index.search(query, limit=10)] for query in QUERIES]


def rewritten(data: bytes, change: Callable[[dict[str, Any], dict[str, Any]], None]) -> bytes:
    """The snapshot with its header and arrays changed, re-packed as the writer would."""
    head, tail = container.first_member(data)
    header, arrays = container.unpack(head)
    change(header, arrays)
    return container.pack(header, arrays.items(), [tail])


def test_round_trip_keeps_entries_and_rankings() -> None:
    data = encode_snapshot(ENTRIES)
    decoded = decode_snapshot(data)
    assert sorted(decoded.entries(), key=lambda entry: entry.key) == sorted(ENTRIES, key=lambda e: e.key)
    assert results(index_from_snapshot(data)) == results(LexicalIndex.build(ENTRIES))
    assert encode_snapshot(decoded) == data


def test_equal_entries_give_equal_bytes_in_any_order() -> None:
    assert encode_snapshot(reversed(ENTRIES)) == encode_snapshot(ENTRIES)


def test_texts_stay_plain_once_the_object_is_gunzipped() -> None:
    """Leak scans read stored objects with gzip.decompress: every text must be visible there."""
    plain = gzip.decompress(encode_snapshot(ENTRIES))
    assert all(entry.text.encode() in plain for entry in ENTRIES)


def test_repeated_strings_are_stored_once_and_the_snapshot_is_small() -> None:
    plain = gzip.decompress(encode_snapshot(ENTRIES))
    assert plain.count(b'"deploy-notes.md"') == 1
    assert plain.count(b'["Deploy notes","Section 12"]') == 1
    assert len(encode_snapshot(ENTRIES)) < 4_000


def test_decoding_and_indexing_do_not_tokenize(monkeypatch: pytest.MonkeyPatch) -> None:
    data = encode_snapshot(ENTRIES)
    expected = results(LexicalIndex.build(ENTRIES))

    def refuse(*args: object) -> None:
        raise AssertionError("tokenized an entry that the snapshot already analysed")

    monkeypatch.setattr(analysis, "term_counts", refuse)
    monkeypatch.setattr(analysis, "heading_terms", refuse)
    monkeypatch.setattr(analysis, "path_terms", refuse)
    assert results(index_from_snapshot(data)) == expected


def test_a_snapshot_from_another_tokenizer_version_is_rebuilt_from_its_texts() -> None:
    def stale(header: dict[str, Any], arrays: dict[str, Any]) -> None:
        header["tokenizer"] = "0"
        header["tables"]["vocabulary"] = [f"stale{i:06d}" for i in range(len(header["tables"]["vocabulary"]))]

    data = rewritten(encode_snapshot(ENTRIES), stale)
    assert results(index_from_snapshot(data)) == results(LexicalIndex.build(ENTRIES))


def test_a_version_1_snapshot_is_rebuilt_from_its_entries() -> None:
    data = version_1(ENTRIES)
    assert SNAPSHOT_VERSION == 2
    assert results(index_from_snapshot(data)) == results(LexicalIndex.build(ENTRIES))
    assert encode_snapshot(decode_snapshot(data)) == encode_snapshot(ENTRIES)


def test_extra_entries_join_the_snapshot() -> None:
    index = index_from_snapshot(encode_snapshot(ENTRIES[:-1]), extra=[ENTRIES[-1]])
    assert len(index) == len(ENTRIES)
    assert index.search("oat milk")[0].entry.key == "memory:7"
    assert results(index) == results(LexicalIndex.build(ENTRIES))


def test_an_empty_snapshot_gives_an_empty_index() -> None:
    assert len(index_from_snapshot(encode_snapshot([]))) == 0
    assert index_from_snapshot(encode_snapshot([])).search("anything") == []


def _set_header(name: str, value: object) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    return lambda header, arrays: header.update({name: value})


def _set_table(name: str, value: object) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    return lambda header, arrays: header["tables"].update({name: value})


def _drop_last(name: str) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    return lambda header, arrays: arrays[name].pop()


def _bump_last(name: str, by: int) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    def change(header: dict[str, Any], arrays: dict[str, Any]) -> None:
        arrays[name] = array("I", arrays[name])
        arrays[name][-1] += by

    return change


@pytest.mark.parametrize(
    "damage",
    [
        _set_header("format", "other"),
        _set_header("version", 99),
        _set_header("tables", []),
        _set_table("keys", "nope"),
        _set_table("vocabulary", ["b", "a"]),
        _set_table("headings", [7]),
        _drop_last("entry_path"),
        _drop_last("passage_body_length"),
        _drop_last("posting_body"),
        _bump_last("term_offsets", 1),
        _bump_last("entry_namespace", 5),
        _bump_last("passage_owner", 99),
        _bump_last("block_size", 1),
        _bump_last("extra_at", 10_000),
    ],
)
def test_damaged_snapshots_are_refused(damage: Callable[[dict[str, Any], dict[str, Any]], None]) -> None:
    data = rewritten(encode_snapshot(ENTRIES), damage)
    with pytest.raises(MalformedSnapshotError):
        index_from_snapshot(data)


def test_postings_pointing_past_the_last_passage_are_refused_when_first_used() -> None:
    def overshoot(header: dict[str, Any], arrays: dict[str, Any]) -> None:
        first = header["tables"]["vocabulary"].index("alia")  # 'alias', stemmed
        gaps = array("I", arrays["posting_gap"])
        gaps[arrays["term_offsets"][first]] += 10_000
        arrays["posting_gap"] = gaps

    index = index_from_snapshot(rewritten(encode_snapshot(ENTRIES), overshoot))
    with pytest.raises(MalformedSnapshotError):
        index.search("alias")


@pytest.mark.parametrize(
    "data",
    [
        b"not gzip at all",
        gzip.compress(b"PK\x03\x04 something else"),
        encode_snapshot(ENTRIES)[:100],
        gzip.compress(container.MAGIC + b"\xff\xff\x00\x00{}"),
        gzip.compress(b"[1, 2]"),
        gzip.compress(b'{"format": "pandora-search-entries", "version": 1, "strings": "x", "entries": []}'),
        gzip.compress(b'{"format": "pandora-search-entries", "version": 1, "strings": [], "entries": {}}'),
        gzip.compress(
            b'{"format": "pandora-search-entries", "version": 1, "strings": [], '
            b'"entries": [["k", 9, 0, [], "t", 0, 0, []]]}'
        ),
        gzip.compress(
            b'{"format": "pandora-search-entries", "version": 1, "strings": [], "entries": [["k"]]}'
        ),
    ],
)
def test_bytes_that_are_no_snapshot_are_refused(data: bytes) -> None:
    with pytest.raises(MalformedSnapshotError):
        decode_snapshot(data)
