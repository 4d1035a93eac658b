"""Reading format version 1 snapshots (gzip JSON of analysed entries), written before version 2.

Only the entries are taken: a reader rebuilds their index by tokenizing the texts again. Each row is
`[key, namespace, logical_path, [heading...], text, revision_id, kind, passages]`, strings other than
key and text being indexes into `strings`.
"""

from collections.abc import Mapping, Sequence

from pandora_memory.search.records import SearchEntry
from pandora_memory.search.segment import MalformedSnapshotError

LEGACY_FORMAT = "pandora-search-entries"
LEGACY_VERSION = 1


def _strings(data: Mapping[str, object]) -> list[str]:
    values = data.get("strings")
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise MalformedSnapshotError("search snapshot field 'strings' must be a list of strings")
    return values


def _entry(row: object, strings: Sequence[str]) -> SearchEntry:
    if not isinstance(row, list) or len(row) != 8:
        raise MalformedSnapshotError("search snapshot entry must be a list of 8 fields")
    key, namespace, path, headings, text, revision, kind, _passages = row
    if not (isinstance(key, str) and isinstance(text, str) and isinstance(headings, list)):
        raise MalformedSnapshotError("search snapshot entry has a field of the wrong type")
    try:
        return SearchEntry(
            key=key,
            namespace=strings[namespace],
            logical_path=strings[path],
            heading_path=tuple(strings[title] for title in headings),
            text=text,
            revision_id=strings[revision],
            kind=strings[kind],
        )
    except (IndexError, TypeError) as error:
        raise MalformedSnapshotError(f"search snapshot entry {key!r} does not decode: {error}") from error


def legacy_entries(data: Mapping[str, object]) -> list[SearchEntry]:
    if data.get("format") != LEGACY_FORMAT or data.get("version") != LEGACY_VERSION:
        raise MalformedSnapshotError("not a search snapshot of a known format and version")
    strings = _strings(data)
    rows = data.get("entries")
    if not isinstance(rows, list):
        raise MalformedSnapshotError("search snapshot field 'entries' must be a list")
    return [_entry(row, strings) for row in rows]
