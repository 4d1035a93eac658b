"""A chunk cut at the ATX headings inside it, so each section is scored on its own.

A small file is stored as one chunk holding several sections. Ranking the chunk by its best section
keeps a short answer from being diluted by its neighbours, while the whole chunk is still returned.
Heading lines inside ``` or ~~~ fences are code, not headings. Setext headings stay body text: they
are rare inside a chunk and cost nothing but a little precision.
"""

import re
from dataclasses import dataclass

_MARKERS = re.compile(
    r"^ {0,3}(?:(?P<hashes>#{1,6})(?:[ \t]+(?P<title>[^\n]*))?$|(?P<fence>`{3,}|~{3,}))", re.M
)
_CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$|^#+[ \t]*$")


@dataclass(frozen=True)
class Passage:
    heading_path: tuple[str, ...]
    text: str


def _title(raw: str | None) -> str:
    return _CLOSING_HASHES.sub("", (raw or "").strip()).strip()


def split_passages(text: str, heading_path: tuple[str, ...]) -> list[Passage]:
    """Sections of a chunk, each with the chunk's heading path extended by the headings inside it.

    A heading with nothing but other headings before the next one (a title, a month) is no passage of
    its own: it stays at the start of the next passage.
    """
    if "#" not in text:
        return [Passage(heading_path, text)]
    passages: list[Passage] = []
    inner: list[tuple[int, str]] = []  # (level, title) of the headings opened inside this chunk
    current_path, start, content_from = heading_path, 0, 0
    fence: str | None = None
    for match in _MARKERS.finditer(text):
        marker = match.group("fence")
        if marker is not None:
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is not None:
            continue
        level, title = len(match.group("hashes")), _title(match.group("title"))
        opening = not text[: match.start()].strip()
        if not (opening and heading_path and title == heading_path[-1]):  # not the chunk's own heading
            if text[content_from : match.start()].strip():
                passages.append(Passage(current_path, text[start : match.start()]))
                start = match.start()
            inner = [(depth, name) for depth, name in inner if depth < level]
            inner.append((level, title))
            current_path = heading_path + tuple(name for _, name in inner)
        content_from = match.end()
    passages.append(Passage(current_path, text[start:]))
    return passages
