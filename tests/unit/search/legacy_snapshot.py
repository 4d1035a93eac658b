"""Snapshots as the format version 1 writer stored them (gzip JSON rows), to test the upgrade path."""

import gzip
import json
from collections.abc import Iterable

from pandora_memory.search.index import SearchEntry, analyse_entry


def version_1(entries: Iterable[SearchEntry]) -> bytes:
    strings: dict[str, int] = {}
    vocabulary: dict[str, int] = {}

    def intern(table: dict[str, int], value: str) -> int:
        return table.setdefault(value, len(table))

    rows = []
    for entry in sorted(entries, key=lambda item: (item.logical_path, item.key)):
        passages = [
            [
                [intern(strings, title) for title in passage.heading_path],
                [
                    n
                    for term, count in sorted(passage.body_terms.items())
                    for n in (intern(vocabulary, term), count)
                ],
            ]
            for passage in analyse_entry(entry).passages
        ]
        rows.append(
            [
                entry.key,
                intern(strings, entry.namespace),
                intern(strings, entry.logical_path),
                [intern(strings, title) for title in entry.heading_path],
                entry.text,
                intern(strings, entry.revision_id),
                intern(strings, entry.kind),
                passages,
            ]
        )
    document = {
        "format": "pandora-search-entries",
        "version": 1,
        "tokenizer": "1",
        "strings": list(strings),
        "vocabulary": list(vocabulary),
        "entries": rows,
    }
    return gzip.compress(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode(), mtime=0)
