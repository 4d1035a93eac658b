"""What search ranks and returns: one entry (a chunk or an approved memory) and a scored hit."""

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchEntry:
    key: str
    namespace: str
    logical_path: str
    heading_path: tuple[str, ...]
    text: str
    revision_id: str
    kind: str = "chunk"  # or "memory"


@dataclass(frozen=True)
class SearchHit:
    entry: SearchEntry
    score: float
