"""Exported chat logs: where each turn starts and whose turn it is.

An export marks turns with a role label: a heading ("## User", "### Assistant"), a bold label at the
start of a line ("**User:**", "**Assistant**:") or a plain one ("User: ..."). Labels count only at the
top level of the document (never inside a code fence, list or quote), and a file is a transcript only
when both sides speak at least twice, so a note with one "## User" section stays a note.

Headings named after a role carry no topic: hundreds of them would otherwise make hundreds of tiny
sections, each with a heading path that says nothing.
"""

import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Only chunking parses Markdown; search reads the labels and speakers here without markdown-it.
    from pandora_memory.markdown.structure import Structure

_USER_LABELS = frozenset({"user", "you", "me", "human"})
_ASSISTANT_LABELS = frozenset({"assistant", "chatgpt", "ai", "bot"})
_OTHER_LABELS = frozenset({"system", "tool"})

_LABEL_WORDS = "|".join(sorted(_USER_LABELS | _ASSISTANT_LABELS | _OTHER_LABELS))
# "**User:**", "**User**:", "__User:__", "User:" at the start of a line, then a space or the line end.
# A pattern, not a compiled regex, so unparsed text (a stored chunk) can be scanned the same way.
LABEL_LINE = rf"(?:\*\*|__)?(?P<label>{_LABEL_WORDS})(?::\*\*|\*\*:|:__|__:|:)(?=[ \t]|$)"
_LINE_LABEL = re.compile(LABEL_LINE, re.IGNORECASE)
_TITLE_LABEL = re.compile(rf"(?P<label>{_LABEL_WORDS})\s*:?", re.IGNORECASE)
_MIN_TURNS_PER_SIDE = 2


class Speaker(Enum):
    USER = "user"
    ASSISTANT = "assistant"
    OTHER = "other"


@dataclass(frozen=True)
class Turn:
    line: int
    speaker: Speaker


def speaker_of(label: str) -> Speaker:
    """Whose turn a role label ("User", "ChatGPT") opens."""
    word = label.lower()
    if word in _USER_LABELS:
        return Speaker.USER
    return Speaker.ASSISTANT if word in _ASSISTANT_LABELS else Speaker.OTHER


def role_of_title(title: str) -> Speaker | None:
    """The speaker a heading title names ("User", "Assistant:"), or None for a real heading."""
    match = _TITLE_LABEL.fullmatch(title.strip())
    return speaker_of(match.group("label")) if match else None


def _label_at(structure: "Structure", line: int) -> Speaker | None:
    start, end = structure.offset(line), structure.offset(line + 1)
    match = _LINE_LABEL.match(structure.text, start, end)
    return speaker_of(match.group("label")) if match else None


def find_turns(structure: "Structure") -> tuple[Turn, ...]:
    """Every turn of a chat log, in order; empty when the text is not a chat log."""
    heading_lines = {heading.line: heading for heading in structure.headings}
    found: dict[int, Speaker] = {}
    for block in structure.blocks:
        if block.depth != 0:
            continue
        if block.kind == "heading_open":
            heading = heading_lines.get(block.start)
            speaker = role_of_title(heading.title) if heading else None
            if speaker is not None:
                found[block.start] = speaker
        elif block.kind == "paragraph_open":
            # A label may open any line of a paragraph: plain transcripts often skip blank lines.
            for line in range(block.start, block.end):
                speaker = _label_at(structure, line)
                if speaker is not None:
                    found[line] = speaker
    turns = tuple(Turn(line, speaker) for line, speaker in sorted(found.items()))
    users = sum(turn.speaker is Speaker.USER for turn in turns)
    assistants = sum(turn.speaker is Speaker.ASSISTANT for turn in turns)
    if users < _MIN_TURNS_PER_SIDE or assistants < _MIN_TURNS_PER_SIDE:
        return ()
    return turns


def exchange_starts(turns: tuple[Turn, ...]) -> list[int]:
    """Lines where an exchange opens: each user turn, and the first turn whoever speaks it.

    An exchange is a user turn with the replies that follow it, the unit a later question is about.
    """
    return [turn.line for index, turn in enumerate(turns) if index == 0 or turn.speaker is Speaker.USER]
