"""Search snapshots: a namespace's analysed chunks with their inverted index, as stored in S3.

Format version 2 (container.py has the byte layout) stores the segment itself: entry columns, passage
lengths, per-term postings of raw counts, and the texts in plain UTF-8 blocks. Reloading is inflate +
array copies, with no tokenizing and no per-posting work; term weights are computed when queries first
use them (index.py). A snapshot of version 1 (gzip JSON of entries) or made by another tokenizer version
is rebuilt from its entries' texts, so an upgrade never ranks with stale terms.
"""

import json
from array import array
from collections.abc import Iterable, Mapping
from itertools import accumulate
from operator import gt

from pandora_memory.search.analysis import AnalysedEntry, analyse_entry
from pandora_memory.search.container import first_member, pack, unpack
from pandora_memory.search.index import LexicalIndex
from pandora_memory.search.records import SearchEntry
from pandora_memory.search.segment import (
    Column,
    MalformedSnapshotError,
    Postings,
    Segment,
    T,
    build_segment,
)
from pandora_memory.search.snapshot_v1 import legacy_entries
from pandora_memory.search.texts import BlockTexts, TextBlock, as_blocks
from pandora_memory.search.tokenize import TOKENIZER_VERSION
from pandora_memory.search.weights import DEFAULT_WEIGHTS, FieldWeights

__all__ = [
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "MalformedSnapshotError",
    "decode_shard",
    "decode_snapshot",
    "documents_of",
    "encode_snapshot",
    "index_from_snapshot",
]

SNAPSHOT_FORMAT = "pandora-search-index"
SNAPSHOT_VERSION = 2

_ENTRY_ARRAYS = ("entry_namespace", "entry_path", "entry_heading", "entry_revision", "entry_kind")
_PASSAGE_ARRAYS = ("passage_body_length", "passage_heading_length", "passage_path_length")
_EXTRA_ARRAYS = ("extra_at", "extra_heading", "extra_path")


def analysed_segment(items: Iterable[SearchEntry | AnalysedEntry]) -> Segment:
    return build_segment(item if isinstance(item, AnalysedEntry) else analyse_entry(item) for item in items)


def content_hash_of(revision_id: str) -> str:
    """Revision ids are `<logical path>#<content hash>`; the path may itself hold '#'."""
    return revision_id.rsplit("#", 1)[-1]


def documents_of(segment: Segment) -> dict[str, str]:
    """The documents a segment's entries belong to (for snapshots that do not list them)."""
    return {
        path: content_hash_of(revision)
        for path, revision in zip(segment.paths.values(), segment.revisions.values(), strict=True)
    }


def encode_snapshot(
    source: Segment | Iterable[SearchEntry | AnalysedEntry], documents: Mapping[str, str] | None = None
) -> bytes:
    """Deterministic bytes: equal segments (however they were reached) give equal bytes.

    `documents` (logical path -> content hash) lists a shard's active documents, chunkless ones too.
    """
    segment = source if isinstance(source, Segment) else analysed_segment(source)
    blocks = as_blocks(segment.texts, segment.keys)
    postings = segment.postings
    columns = (segment.namespaces, segment.paths, segment.headings, segment.revisions, segment.kinds)
    header = {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "tokenizer": TOKENIZER_VERSION,
        "tables": {
            "keys": segment.keys,
            "namespaces": segment.namespaces.table,
            "paths": segment.paths.table,
            "headings": [list(heading) for heading in segment.headings.table],
            "revisions": segment.revisions.table,
            "kinds": segment.kinds.table,
            "vocabulary": postings.vocabulary,
        },
    }
    if documents is not None:
        header["documents"] = sorted([path, digest] for path, digest in documents.items())
    ends = [block.ends for block in blocks]
    arrays = [
        *zip(_ENTRY_ARRAYS, (column.ids for column in columns), strict=True),
        ("entry_text_end", _joined(ends)),
        ("passage_owner", segment.owners),
        *zip(_PASSAGE_ARRAYS, segment.lengths, strict=True),
        ("term_offsets", postings.offsets),
        ("posting_gap", postings.gaps),
        ("posting_body", postings.body),
        *zip(_EXTRA_ARRAYS, (postings.extra_at, postings.extra_heading, postings.extra_path), strict=True),
        ("block_entries", _array(len(end) for end in ends)),
        ("block_size", _array(len(block.member) for block in blocks)),
    ]
    return pack(header, arrays, [block.member for block in blocks])


def decode_snapshot(data: bytes) -> Segment:
    """The segment of a stored snapshot of any known version."""
    return decode_shard(data)[0]


def decode_shard(data: bytes) -> tuple[Segment, dict[str, str]]:
    """The segment of a stored snapshot of any known version, and its documents (listed, or else
    those its entries belong to)."""
    head, tail = first_member(data)
    if head[:1] == b"{":
        try:
            document = json.loads(head)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise MalformedSnapshotError(f"search snapshot does not decode: {error}") from error
        if not isinstance(document, dict):
            raise MalformedSnapshotError("search snapshot must be an object")
        legacy = analysed_segment(legacy_entries(document))
        return legacy, documents_of(legacy)
    header, arrays = unpack(head)
    if header.get("format") != SNAPSHOT_FORMAT or header.get("version") != SNAPSHOT_VERSION:
        raise MalformedSnapshotError("not a search snapshot of a known format and version")
    segment = _segment(header, arrays, tail)
    if header.get("tokenizer") != TOKENIZER_VERSION:
        segment = analysed_segment(segment.entries())
    return segment, _documents(header, segment)


def index_from_snapshot(
    data: bytes | Segment, extra: Iterable[SearchEntry] = (), weights: FieldWeights = DEFAULT_WEIGHTS
) -> LexicalIndex:
    """The index of a stored snapshot plus entries that live elsewhere (approved memories)."""
    segment = data if isinstance(data, Segment) else decode_snapshot(data)
    others = analysed_segment(extra)
    return LexicalIndex([segment, others] if len(others) else [segment], weights)


# -- decoding ---------------------------------------------------------------------------------------
def _array(values: Iterable[int]) -> "array[int]":
    return array("I", values)


def _joined(parts: Iterable["array[int]"]) -> "array[int]":
    joined: array[int] = array("I")
    for part in parts:
        joined.extend(part if part.typecode == "I" else iter(part))
    return joined


def _documents(header: dict[str, object], segment: Segment) -> dict[str, str]:
    listed = header.get("documents")
    if listed is None:
        return documents_of(segment)
    if not isinstance(listed, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
        for pair in listed
    ):
        raise MalformedSnapshotError("search snapshot documents must be [path, hash] pairs")
    documents = {path: digest for path, digest in listed}
    if set(segment.paths.table) - documents.keys():
        raise MalformedSnapshotError("search snapshot holds entries of a document it does not list")
    return documents


def _strings(tables: dict[str, object], name: str) -> list[str]:
    values = tables.get(name)
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise MalformedSnapshotError(f"search snapshot table {name!r} must be a list of strings")
    return values


def _headings(tables: dict[str, object]) -> list[tuple[str, ...]]:
    values = tables.get("headings")
    if not isinstance(values, list):
        raise MalformedSnapshotError("search snapshot table 'headings' must be a list")
    headings = []
    for value in values:
        if not isinstance(value, list) or not all(isinstance(title, str) for title in value):
            raise MalformedSnapshotError("search snapshot heading paths must be lists of strings")
        headings.append(tuple(value))
    return headings


def _sized(arrays: dict[str, "array[int]"], name: str, count: int) -> "array[int]":
    values = arrays.get(name)
    if values is None or len(values) != count:
        raise MalformedSnapshotError(f"search snapshot array {name!r} is missing or of the wrong length")
    return values


def _bounded(values: "array[int]", limit: int, name: str) -> "array[int]":
    if max(values, default=-1) >= limit:
        raise MalformedSnapshotError(f"search snapshot array {name!r} points past its table")
    return values


def _column(arrays: dict[str, "array[int]"], name: str, count: int, table: list[T]) -> Column[T]:
    return Column(table, _bounded(_sized(arrays, name, count), len(table), name))


def _segment(header: dict[str, object], arrays: dict[str, "array[int]"], tail: bytes) -> Segment:
    tables = header.get("tables")
    if not isinstance(tables, dict):
        raise MalformedSnapshotError("search snapshot has no tables")
    keys, vocabulary = _strings(tables, "keys"), _strings(tables, "vocabulary")
    if any(map(gt, vocabulary[:-1], vocabulary[1:])) or len(set(vocabulary)) != len(vocabulary):
        raise MalformedSnapshotError("search snapshot vocabulary is not sorted and distinct")
    count = len(keys)
    owners = arrays.get("passage_owner")
    if owners is None or any(map(gt, owners[:-1], owners[1:])):
        raise MalformedSnapshotError("search snapshot passage owners are missing or out of order")
    _bounded(owners, count, "passage_owner")
    passages = len(owners)
    offsets = _sized(arrays, "term_offsets", len(vocabulary) + 1)
    postings = len(arrays.get("posting_gap", ()))
    if offsets[0] != 0 or offsets[-1] != postings or any(map(gt, offsets[:-1], offsets[1:])):
        raise MalformedSnapshotError("search snapshot term offsets do not cover the postings")
    extras = len(arrays.get("extra_at", ()))
    namespaces = _column(arrays, "entry_namespace", count, _strings(tables, "namespaces"))
    paths = _column(arrays, "entry_path", count, _strings(tables, "paths"))
    headings = _column(arrays, "entry_heading", count, _headings(tables))
    revisions = _column(arrays, "entry_revision", count, _strings(tables, "revisions"))
    kinds = _column(arrays, "entry_kind", count, _strings(tables, "kinds"))
    body, heading, path = (_sized(arrays, name, passages) for name in _PASSAGE_ARRAYS)
    extra_at, extra_heading, extra_path = (_sized(arrays, name, extras) for name in _EXTRA_ARRAYS)
    return Segment(
        keys=keys,
        namespaces=namespaces,
        paths=paths,
        headings=headings,
        revisions=revisions,
        kinds=kinds,
        texts=_texts(arrays, count, tail),
        owners=owners,
        lengths=(body, heading, path),
        postings=Postings(
            vocabulary,
            offsets,
            _sized(arrays, "posting_gap", postings),
            _sized(arrays, "posting_body", postings),
            _bounded(extra_at, postings, "extra_at"),
            extra_heading,
            extra_path,
        ),
    )


def _texts(arrays: dict[str, "array[int]"], count: int, tail: bytes) -> BlockTexts:
    entries, sizes = arrays.get("block_entries"), arrays.get("block_size")
    if entries is None or sizes is None or len(entries) != len(sizes):
        raise MalformedSnapshotError("search snapshot text blocks are missing")
    if sum(entries) != count or sum(sizes) != len(tail) or 0 in entries:
        raise MalformedSnapshotError("search snapshot text blocks do not match its entries")
    ends = _sized(arrays, "entry_text_end", count)
    view = memoryview(tail)
    blocks = [
        TextBlock(first, ends[first : first + size], bytes(view[start - length : start]))
        for first, size, start, length in zip(
            accumulate(entries, initial=0), entries, accumulate(sizes), sizes, strict=False
        )
    ]
    return BlockTexts(blocks)
