"""Shards and manifests: a namespace cut by path hash ranks exactly like one whole snapshot, one
document's change rewrites one shard, and a manifest that overlaps, leaves a gap or points outside its
namespace is refused."""

from dataclasses import replace

import pytest
from pandora_memory.search import shards
from pandora_memory.search.analysis import analyse_entry
from pandora_memory.search.index import LexicalIndex, SearchEntry
from pandora_memory.search.manifest import Manifest, ShardRef, decode_manifest, encode_manifest
from pandora_memory.search.segment import MalformedSnapshotError, build_segment, empty_segment
from pandora_memory.search.shards import ROOT, Shard, leaves, path_bits, replace_in_shard
from pandora_memory.search.snapshot import decode_shard, decode_snapshot, encode_snapshot
from unit.search.test_retrieval_quality import NAMESPACES, chunked, questions


def _documents(entries: tuple[SearchEntry, ...]) -> dict[str, str]:
    return {entry.logical_path: "rev-1" for entry in entries}


def _stored(shard: Shard) -> Shard:
    """The shard as a reader gets it back from S3."""
    segment, documents = decode_shard(encode_snapshot(shard.segment, shard.documents))
    return Shard(shard.label, segment, documents)


def _ranking(index: LexicalIndex, query: str, prefix: str | None = None) -> list[tuple[str, float]]:
    return [(hit.entry.key, hit.score) for hit in index.search(query, limit=10, path_prefix=prefix)]


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_sharded_rankings_equal_the_whole_snapshot_on_every_evaluation_question(
    namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries, _ = chunked(namespace, "adaptive")
    whole = LexicalIndex([decode_snapshot(encode_snapshot(entries))])
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 8)
    cut = [_stored(shard) for shard in leaves(ROOT, _documents(entries), entries)]
    assert len(cut) >= 3, "the corpus must really be cut into several shards"
    sharded = LexicalIndex([shard.segment for shard in cut])

    asked = [question for question in questions() if question.namespace == namespace]
    assert asked
    for question in asked:
        assert _ranking(sharded, question.question) == _ranking(whole, question.question)
        folder = question.expected_path.split("/")[0] + "/"
        assert _ranking(sharded, question.question, folder) == _ranking(whole, question.question, folder)


def test_leaves_cover_every_document_once_and_keep_each_shard_small(monkeypatch: pytest.MonkeyPatch) -> None:
    entries, _ = chunked("real_life", "adaptive")
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 8)
    documents = {**_documents(entries), "empty/file": "e" * 64}  # a document without chunks is kept

    cut = leaves(ROOT, documents, entries)

    assert sorted(path for shard in cut for path in shard.documents) == sorted(documents)
    assert sum(len(shard.segment) for shard in cut) == len(entries)
    for shard in cut:
        assert all(shard.holds(path) for path in shard.documents)
        assert len(shard.segment) <= 8 or len(shard.documents) == 1
    labels = [shard.label for shard in cut]
    assert sum(2.0 ** -len(label) for label in labels) == 1.0


def _entry(path: str, ordinal: int, text: str) -> SearchEntry:
    return SearchEntry(f"{path}#h#{ordinal:05d}", "real_life", path, ("Notes",), text, f"{path}#h")


def test_one_document_replaced_in_its_shard_leaves_the_others_untouched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 4)
    paths = [f"notes/{n:02d}" for n in range(16)]
    entries = [_entry(path, 0, f"note {path} about the harbour") for path in paths]
    cut = leaves(ROOT, dict.fromkeys(paths, "h"), entries)
    target = next(shard for shard in cut if shard.holds("notes/05"))

    [updated] = replace_in_shard(target, "notes/05", "h2", [_entry("notes/05", 0, "the lantern is lit")])

    assert updated.label == target.label
    assert updated.documents["notes/05"] == "h2"
    assert {entry.text for entry in updated.segment.entries() if entry.logical_path == "notes/05"} == {
        "the lantern is lit"
    }
    [gone] = replace_in_shard(updated, "notes/05", None, [])
    assert "notes/05" not in gone.documents
    assert all(entry.logical_path != "notes/05" for entry in gone.segment.entries())
    with pytest.raises(ValueError, match="does not belong"):
        replace_in_shard(target, next(p for p in paths if not target.holds(p)), "h", [])


def test_a_shard_grown_past_its_size_splits_into_its_halves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shards, "MAX_SHARD_ENTRIES", 4)
    root = Shard(ROOT, empty_segment(), {})
    current = [root]
    for n in range(6):
        path = f"notes/{n}"
        [holder] = [shard for shard in current if shard.holds(path)]
        parts = replace_in_shard(holder, path, "h", [_entry(path, 0, "a"), _entry(path, 1, "b")])
        current = [shard for shard in current if shard is not holder] + parts

    assert len(current) > 1
    assert all(len(shard.segment) <= 4 for shard in current)
    assert sorted(path for shard in current for path in shard.documents) == [f"notes/{n}" for n in range(6)]
    assert {len(shard.label) for shard in current} != {0}


def test_one_big_document_is_never_split_further() -> None:
    big = [_entry("handbook", n, f"section {n}") for n in range(shards.MAX_SHARD_ENTRIES + 10)]
    [shard] = replace_in_shard(Shard(ROOT, empty_segment(), {}), "handbook", "h", big)
    assert shard.label == ROOT and len(shard.segment) == len(big)


def test_a_shard_without_a_documents_list_derives_it_from_its_entries() -> None:
    segment = build_segment([analyse_entry(_entry("notes/a", 0, "text"))])
    assert decode_shard(encode_snapshot(segment))[1] == {"notes/a": "h"}
    listed = decode_shard(encode_snapshot(segment, {"notes/a": "h", "notes/empty": "e"}))[1]
    assert listed == {"notes/a": "h", "notes/empty": "e"}
    with pytest.raises(MalformedSnapshotError, match="does not list"):
        decode_shard(encode_snapshot(segment, {"notes/other": "h"}))


def _ref(label: str, namespace: str = "real_life") -> ShardRef:
    return ShardRef(label, f"projections/{namespace}/shards/s{label}/1.idx.gz", 1, 1)


def test_a_manifest_round_trips_and_finds_the_shard_of_any_path() -> None:
    manifest = Manifest("real_life", 3, (_ref("0"), _ref("10"), _ref("11")))
    decoded = decode_manifest(encode_manifest(manifest), "real_life")
    assert decoded == manifest
    for path in ("a", "b", "notes/plan", "x/y/z"):
        found = decoded.shard_for(path)
        assert path_bits(path, len(found.label)) == found.label


@pytest.mark.parametrize(
    ("labels", "problem"),
    [
        (["0", "01", "1"], "overlap"),
        (["0", "10"], "do not cover"),
        (["0", "12"], "bit string"),
    ],
)
def test_a_manifest_with_overlapping_or_missing_shards_is_refused(labels: list[str], problem: str) -> None:
    manifest = Manifest("real_life", 1, tuple(_ref(label) for label in labels))
    with pytest.raises(MalformedSnapshotError, match=problem):
        decode_manifest(encode_manifest(manifest), "real_life")


def test_a_manifest_of_another_namespace_or_naming_its_objects_is_refused() -> None:
    au = Manifest("au", 1, (_ref(ROOT, "au"),))
    with pytest.raises(MalformedSnapshotError, match="another namespace"):
        decode_manifest(encode_manifest(au), "real_life")
    smuggled = replace(au, namespace="real_life")
    with pytest.raises(MalformedSnapshotError, match="outside its namespace"):
        decode_manifest(encode_manifest(smuggled), "real_life")
