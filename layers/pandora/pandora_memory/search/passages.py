"""A chunk cut at the ATX headings inside it, so each section is scored on its own.

A small file is stored as one chunk holding several sections. Ranking the chunk by its best section
keeps a short answer from being diluted by its neighbours, while the whole chunk is still returned.
Heading lines inside ``` or ~~~ fences are code, not headings. Setext headings stay body text: they
are rare inside a chunk and cost nothing but a little precision.

A chunk of a chat log (both sides speak in it: "## User" and "## Assistant" headings, "**User:**" or
"User:" labels) is cut into exchanges instead: a user turn opens a passage and the replies stay in it,
so a question and its answer are scored together. Headings inside turns belong to the answer, and
role headings add nothing to the heading path.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pandora_memory.markdown.transcript import LABEL_LINE, Speaker, role_of_title, speaker_of

_MARKERS = re.compile(
    r"^ {0,3}(?:(?P<hashes>#{1,6})(?:[ \t]+(?P<title>[^\n]*))?$|(?P<fence>`{3,}|~{3,})"
    rf"|{LABEL_LINE})",
    re.M | re.IGNORECASE,
)
_CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$|^#+[ \t]*$")


@dataclass(frozen=True)
class Passage:
    heading_path: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class _Marker:
    start: int
    end: int
    level: int  # 0 for a role label
    title: str
    speaker: Speaker | None


def _title(raw: str | None) -> str:
    return _CLOSING_HASHES.sub("", (raw or "").strip()).strip()


def _markers(text: str) -> Iterator[_Marker]:
    """Headings and role labels outside code fences, in order."""
    fence: str | None = None
    for match in _MARKERS.finditer(text):
        marker = match.group("fence")
        if marker is not None:
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
        elif fence is None:
            if match.group("label") is not None:
                yield _Marker(match.start(), match.end(), 0, "", speaker_of(match.group("label")))
            else:
                title = _title(match.group("title"))
                level = len(match.group("hashes"))
                yield _Marker(match.start(), match.end(), level, title, role_of_title(title))


def split_passages(text: str, heading_path: tuple[str, ...]) -> list[Passage]:
    """Sections of a chunk, each with the chunk's heading path extended by the headings inside it.

    A heading with nothing but other headings before the next one (a title, a month) is no passage of
    its own: it stays at the start of the next passage.
    """
    if "#" not in text and ":" not in text:
        return [Passage(heading_path, text)]
    markers = list(_markers(text))
    speakers = {marker.speaker for marker in markers}
    if Speaker.USER in speakers and Speaker.ASSISTANT in speakers:
        return _exchanges(text, heading_path, markers)
    passages: list[Passage] = []
    inner: list[tuple[int, str]] = []  # (level, title) of the headings opened inside this chunk
    current_path, start, content_from = heading_path, 0, 0
    for marker in markers:
        if not marker.level:  # a role label outside a chat log is just text
            continue
        opening = not text[: marker.start].strip()
        if not (opening and heading_path and marker.title == heading_path[-1]):  # not the chunk's own heading
            if text[content_from : marker.start].strip():
                passages.append(Passage(current_path, text[start : marker.start]))
                start = marker.start
            inner = [(depth, name) for depth, name in inner if depth < marker.level]
            inner.append((marker.level, marker.title))
            current_path = heading_path + tuple(name for _, name in inner)
        content_from = marker.end
    passages.append(Passage(current_path, text[start:]))
    return passages


def _exchanges(text: str, heading_path: tuple[str, ...], markers: list[_Marker]) -> list[Passage]:
    """A chat log's chunk cut before each user turn, unless only headings (a title) come before it."""
    cuts: list[int] = []
    seen_content, previous_end = False, 0
    for marker in markers:
        seen_content = seen_content or bool(text[previous_end : marker.start].strip())
        if marker.speaker is Speaker.USER and seen_content:
            cuts.append(marker.start)
        seen_content = seen_content or marker.speaker is not None  # a turn is content, a title is not
        previous_end = marker.end
    bounds = zip([0, *cuts], [*cuts, len(text)], strict=True)
    return [Passage(heading_path, text[start:end]) for start, end in bounds]
