"""Three rankers over the same chunks, each filtered to one namespace and returning the top keys.

- Pandora: `LexicalIndex` (BM25F over body, heading path and logical path; its own tokenizer), built
  the way the warm search path keeps it: analysed entries plus the index.
- rank-bm25 0.2.2 `BM25Okapi`, documents tokenized as lower-case `\\w+` words of path, headings and body;
  scores of the other namespace masked before the top five are taken.
- SQLite FTS5 (stdlib sqlite3, in memory), `porter unicode61` tokenizer, columns body/heading/path
  weighted 1/2/2 in `bm25()` like Pandora's fields, the question's words OR-ed without English stop
  words (the list Pandora uses; with them every query matches nearly every row), namespace in SQL.
"""

import re
import sqlite3
from collections.abc import Sequence

import numpy as np
from pandora_memory.search.index import AnalysedEntry, LexicalIndex, SearchEntry, analyse_entry
from pandora_memory.search.stopwords import ENGLISH_STOP_WORDS
from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

from bench.retrieval_eval import TOP

_WORDS = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def _all_fields(entry: SearchEntry) -> str:
    return " ".join((entry.logical_path, *entry.heading_path, entry.text))


class PandoraEngine:
    name = "Pandora LexicalIndex"

    def __init__(self, entries: Sequence[SearchEntry]) -> None:
        # Kept alive as the reader's cache keeps them: they are part of a warm container's memory.
        self.analysed: tuple[AnalysedEntry, ...] = tuple(analyse_entry(entry) for entry in entries)
        self.index = LexicalIndex.from_analysed(self.analysed)

    def search(self, namespace: str, query: str) -> list[str]:
        return [hit.entry.key for hit in self.index.search(query, limit=TOP, namespace=namespace)]


class RankBm25Engine:
    name = "rank-bm25 BM25Okapi"

    def __init__(self, entries: Sequence[SearchEntry]) -> None:
        self.keys = [entry.key for entry in entries]
        self.bm25 = BM25Okapi([words(_all_fields(entry)) for entry in entries])
        namespaces = np.array([entry.namespace for entry in entries])
        self.outside = {str(ns): namespaces != ns for ns in set(namespaces.tolist())}

    def search(self, namespace: str, query: str) -> list[str]:
        scores = self.bm25.get_scores(words(query))
        scores[self.outside[namespace]] = -np.inf
        top = np.argpartition(-scores, TOP)[:TOP] if len(scores) > TOP else np.arange(len(scores))
        ranked = sorted((int(i) for i in top if scores[i] > 0), key=lambda i: (-scores[i], self.keys[i]))
        return [self.keys[i] for i in ranked]


class Fts5Engine:
    name = "SQLite FTS5"

    def __init__(self, entries: Sequence[SearchEntry]) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5("
            "body, heading, path, namespace UNINDEXED, key UNINDEXED, tokenize = 'porter unicode61')"
        )
        self.db.executemany(
            "INSERT INTO chunks VALUES (?, ?, ?, ?, ?)",
            (
                (entry.text, " ".join(entry.heading_path), entry.logical_path, entry.namespace, entry.key)
                for entry in entries
            ),
        )
        self.db.execute("INSERT INTO chunks(chunks) VALUES ('optimize')")
        self.db.commit()

    def search(self, namespace: str, query: str) -> list[str]:
        terms = dict.fromkeys(word for word in words(query) if word not in ENGLISH_STOP_WORDS)
        if not terms:
            return []
        expression = " OR ".join(f'"{term}"' for term in terms)
        rows = self.db.execute(
            "SELECT key FROM chunks WHERE chunks MATCH ? AND namespace = ? "
            "ORDER BY bm25(chunks, 1.0, 2.0, 2.0) LIMIT ?",
            (expression, namespace, TOP),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def size_bytes(self) -> int:
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        page_size = self.db.execute("PRAGMA page_size").fetchone()[0]
        return int(pages) * int(page_size)


def fts5_compiled_in() -> bool:
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    return True
