"""A compact, JSON-able form of analysed search entries, so a warm index rebuilds without tokenizing.

Repeated strings (namespaces, paths, revision ids, kinds, heading titles) are stored once in `strings`
and body terms once in `vocabulary`; each entry row is
`[key, namespace, logical_path, [heading...], text, revision_id, kind, passages]`, a passage being
`[[heading...], [term, count, term, count...]]`
with indexes into those tables. A snapshot made by another tokenizer version is re-tokenized from the
entry texts, so an upgrade never ranks with stale terms.
"""

from collections.abc import Iterable, Mapping, Sequence

from pandora_memory.search.index import (
    DEFAULT_WEIGHTS,
    AnalysedEntry,
    AnalysedPassage,
    FieldWeights,
    LexicalIndex,
    SearchEntry,
    analyse_entry,
)
from pandora_memory.search.tokenize import TOKENIZER_VERSION

SNAPSHOT_FORMAT = "pandora-search-entries"
SNAPSHOT_VERSION = 1


class MalformedSnapshotError(ValueError):
    pass


class _Interner:
    def __init__(self) -> None:
        self.values: list[str] = []
        self._ids: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        found = self._ids.get(value)
        if found is None:
            found = self._ids[value] = len(self.values)
            self.values.append(value)
        return found


def encode_entries(entries: Iterable[SearchEntry | AnalysedEntry]) -> dict[str, object]:
    strings, vocabulary = _Interner(), _Interner()
    rows: list[list[object]] = []
    for item in entries:
        analysed = item if isinstance(item, AnalysedEntry) else analyse_entry(item)
        entry = analysed.entry
        passages: list[list[list[int]]] = []
        for passage in analysed.passages:
            body: list[int] = []
            for term, count in sorted(passage.body_terms.items()):
                body += (vocabulary(term), count)
            passages.append([[strings(title) for title in passage.heading_path], body])
        rows.append(
            [
                entry.key,
                strings(entry.namespace),
                strings(entry.logical_path),
                [strings(title) for title in entry.heading_path],
                entry.text,
                strings(entry.revision_id),
                strings(entry.kind),
                passages,
            ]
        )
    return {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "tokenizer": TOKENIZER_VERSION,
        "strings": strings.values,
        "vocabulary": vocabulary.values,
        "entries": rows,
    }


def _string_list(data: Mapping[str, object], name: str) -> list[str]:
    values = data.get(name)
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise MalformedSnapshotError(f"search snapshot field {name!r} must be a list of strings")
    return values


def _decode_passage(passage: object, strings: Sequence[str], vocabulary: Sequence[str]) -> AnalysedPassage:
    if not isinstance(passage, list) or len(passage) != 2:
        raise MalformedSnapshotError("search snapshot passage must be [headings, terms]")
    headings, body = passage
    if not (isinstance(headings, list) and isinstance(body, list)):
        raise MalformedSnapshotError("search snapshot passage has a field of the wrong type")
    pairs = zip(body[0::2], body[1::2], strict=True)
    return AnalysedPassage(
        tuple(strings[i] for i in headings), {vocabulary[term]: int(n) for term, n in pairs}
    )


def _decode_row(row: object, strings: Sequence[str], vocabulary: Sequence[str], fresh: bool) -> AnalysedEntry:
    if not isinstance(row, list) or len(row) != 8:
        raise MalformedSnapshotError("search snapshot entry must be a list of 8 fields")
    key, namespace, path, headings, text, revision, kind, passages = row
    if not (isinstance(key, str) and isinstance(text, str)):
        raise MalformedSnapshotError("search snapshot entry has a field of the wrong type")
    if not (isinstance(headings, list) and isinstance(passages, list)):
        raise MalformedSnapshotError("search snapshot entry has a field of the wrong type")
    try:
        entry = SearchEntry(
            key=key,
            namespace=strings[namespace],
            logical_path=strings[path],
            heading_path=tuple(strings[title] for title in headings),
            text=text,
            revision_id=strings[revision],
            kind=strings[kind],
        )
        if not fresh:
            return analyse_entry(entry)
        return AnalysedEntry(entry, tuple(_decode_passage(p, strings, vocabulary) for p in passages))
    except (IndexError, TypeError, ValueError) as error:
        raise MalformedSnapshotError(f"search snapshot entry {key!r} does not decode: {error}") from error


def decode_entries(data: Mapping[str, object]) -> list[AnalysedEntry]:
    if data.get("format") != SNAPSHOT_FORMAT or data.get("version") != SNAPSHOT_VERSION:
        raise MalformedSnapshotError("not a search snapshot of a known format and version")
    strings, vocabulary = _string_list(data, "strings"), _string_list(data, "vocabulary")
    rows = data.get("entries")
    if not isinstance(rows, list):
        raise MalformedSnapshotError("search snapshot field 'entries' must be a list")
    fresh = data.get("tokenizer") == TOKENIZER_VERSION
    return [_decode_row(row, strings, vocabulary, fresh) for row in rows]


def index_from_snapshot(
    data: Mapping[str, object], extra: Iterable[SearchEntry] = (), weights: FieldWeights = DEFAULT_WEIGHTS
) -> LexicalIndex:
    """The index of a stored snapshot plus entries that live elsewhere (approved memories)."""
    analysed = decode_entries(data)
    analysed.extend(analyse_entry(entry) for entry in extra)
    return LexicalIndex.from_analysed(analysed, weights)
