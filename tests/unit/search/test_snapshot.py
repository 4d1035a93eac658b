"""Snapshots: JSON round trip without re-tokenizing, strict decoding, re-analysis across versions."""

import gzip
import json

import pytest
from pandora_memory.search import snapshot as snapshot_module
from pandora_memory.search.index import LexicalIndex, SearchEntry, analyse_entry
from pandora_memory.search.snapshot import (
    MalformedSnapshotError,
    decode_entries,
    encode_entries,
    index_from_snapshot,
)

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
] + [SearchEntry("memory:7", "real_life", "", (), "Prefers oat milk.", "m7", "memory")]
QUERIES = ["roll back alias", "PR #253", "카엘의 검", "oat milk", "section 12", ""]


def results(index: LexicalIndex) -> list[list[tuple[str, float]]]:
    return [[(hit.entry.key, hit.score) for hit in index.search(query, limit=10)] for query in QUERIES]


def test_round_trip_through_json_keeps_entries_and_rankings() -> None:
    data = json.loads(json.dumps(encode_entries(ENTRIES)))
    decoded = decode_entries(data)
    assert [item.entry for item in decoded] == ENTRIES
    assert decoded == [analyse_entry(entry) for entry in ENTRIES]
    assert results(index_from_snapshot(data)) == results(LexicalIndex.build(ENTRIES))


def test_repeated_strings_are_stored_once() -> None:
    data = encode_entries(ENTRIES)
    strings = data["strings"]
    assert isinstance(strings, list)
    assert strings.count("deploy-notes.md") == 1 and strings.count("Deploy notes") == 1
    assert len(gzip.compress(json.dumps(data).encode())) < 8_000


def test_decoding_does_not_tokenize_again(monkeypatch: pytest.MonkeyPatch) -> None:
    data = encode_entries(ENTRIES)

    def refuse(entry: SearchEntry) -> None:
        raise AssertionError("re-tokenized an entry that the snapshot already analysed")

    monkeypatch.setattr(snapshot_module, "analyse_entry", refuse)
    assert len(decode_entries(data)) == len(ENTRIES)


def test_a_snapshot_from_another_tokenizer_version_is_re_analysed() -> None:
    data = encode_entries(ENTRIES)
    data["tokenizer"] = "0"
    data["vocabulary"] = ["stale"] * len(data["vocabulary"])  # type: ignore[arg-type]
    assert results(index_from_snapshot(data)) == results(LexicalIndex.build(ENTRIES))


def test_extra_entries_join_the_snapshot() -> None:
    data = encode_entries(ENTRIES[:-1])
    index = index_from_snapshot(data, extra=[ENTRIES[-1]])
    assert len(index) == len(ENTRIES)
    assert index.search("oat milk")[0].entry.key == "memory:7"


def test_an_empty_snapshot_gives_an_empty_index() -> None:
    assert len(index_from_snapshot(encode_entries([]))) == 0


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data.update(format="other"),
        lambda data: data.update(version=99),
        lambda data: data.update(strings="nope"),
        lambda data: data.update(entries={}),
        lambda data: data["entries"].append(["too", "short"]),
        lambda data: data["entries"].append(["k", 999, 0, [], "text", 0, 0, []]),
        lambda data: data["entries"].append(["k", 0, 0, [], "text", 0, 0, [[[], [999, 1]]]]),
        lambda data: data["entries"].append(["k", 0, 0, [], "text", 0, 0, [[[], [0]]]]),
        lambda data: data["entries"].append(["k", 0, 0, [], 7, 0, 0, []]),
    ],
)
def test_malformed_snapshots_are_refused(damage: object) -> None:
    data = encode_entries(ENTRIES[:1])
    damage(data)  # type: ignore[operator]
    with pytest.raises(MalformedSnapshotError):
        index_from_snapshot(data)
