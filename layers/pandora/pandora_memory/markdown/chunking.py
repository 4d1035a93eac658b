"""Markdown text to chunks: the unit that is stored, redacted and ranked.

Strategies:
- whole_file: one chunk.
- heading: one chunk per heading (and one for any text before the first), no size logic.
- window: bounded overlapping windows cut at line starts, ignoring Markdown structure.
- adaptive (default): a file within `small_file_tokens` is one chunk. A larger file is a tree of
  heading sections; a section within `max_tokens` (its subsections included) is one chunk, a bigger one
  gives its own text before the first subsection and then recurses into the subsections. Text that is
  still too big is cut into windows (see windows.py). A section's text holds its heading line; a short
  introduction (a title, front matter) travels into the next chunk instead of standing alone.
  A larger chat log (see transcript.py) is cut at its exchanges instead, a user turn with the replies
  after it: consecutive exchanges share a chunk while they fit in `max_tokens`, and an exchange too big
  for one is cut into windows. Role headings ("## User") never make sections of their own.

Every chunk is a span [start, end) of the input with leading blank lines and trailing whitespace
trimmed, so `text == input[start:end]`; spans cover every non-whitespace character. A chunk's heading
path is the path of the deepest section that contains the whole chunk, role headings left out.
"""

import hashlib
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field

from pandora_memory.markdown.structure import Structure, analyse
from pandora_memory.markdown.token_estimate import MAX_TOKENS_PER_CHARACTER, SpanMeasure, estimate_tokens
from pandora_memory.markdown.transcript import exchange_starts, find_turns, role_of_title
from pandora_memory.markdown.windows import cuts_between, line_priorities, split_windows

CHUNKER_NAME = "pandora-markdown"
# 2: chat logs are cut at exchanges, and role headings leave heading paths.
CHUNKER_VERSION = "2"
STRATEGIES = ("whole_file", "heading", "window", "adaptive")

# An introduction this small (a fraction of max_tokens, heading line excluded) joins the next chunk.
_SMALL_INTRO_FRACTION = 8

__all__ = [
    "CHUNKER_NAME",
    "CHUNKER_VERSION",
    "STRATEGIES",
    "Chunk",
    "ChunkerConfig",
    "chunk_markdown",
    "estimate_tokens",
]


@dataclass(frozen=True)
class ChunkerConfig:
    strategy: str = "adaptive"
    max_tokens: int = 400
    overlap_tokens: int = 80
    small_file_tokens: int = 400

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown chunking strategy {self.strategy!r}: expected one of {STRATEGIES}")
        if self.max_tokens < 4 * MAX_TOKENS_PER_CHARACTER:
            raise ValueError(f"max_tokens must be at least {4 * MAX_TOKENS_PER_CHARACTER}")
        if not 0 <= self.overlap_tokens < self.max_tokens // 2:
            raise ValueError("overlap_tokens must be at least 0 and less than half of max_tokens")
        if self.small_file_tokens < 0:
            raise ValueError("small_file_tokens must not be negative")

    def as_dict(self) -> dict[str, object]:
        return {"name": CHUNKER_NAME, "version": CHUNKER_VERSION, **asdict(self)}


@dataclass(frozen=True)
class Chunk:
    ordinal: int
    heading_path: tuple[str, ...]
    start: int
    end: int
    text: str
    chunk_hash: str
    token_estimate: int


@dataclass
class _Section:
    path: tuple[str, ...]
    level: int
    start: int
    body_start: int  # just past the heading line(s)
    end: int = -1
    children: list["_Section"] = field(default_factory=list)
    child_starts: list[int] = field(default_factory=list)


def _section_tree(structure: Structure) -> _Section:
    text_end = len(structure.text)
    root = _Section((), 0, 0, 0, text_end)
    open_sections = [root]
    for heading in structure.headings:
        start = structure.offset(heading.line)
        while open_sections[-1].level >= heading.level:
            open_sections.pop().end = start
        parent = open_sections[-1]
        section = _Section(
            (*parent.path, heading.title), heading.level, start, structure.offset(heading.end_line)
        )
        parent.children.append(section)
        parent.child_starts.append(start)
        open_sections.append(section)
    for section in open_sections[1:]:
        section.end = text_end
    return root


def _deepest_path(root: _Section, start: int, end: int) -> tuple[str, ...]:
    section = root
    while section.children:
        index = bisect_right(section.child_starts, start) - 1
        if index < 0 or section.children[index].end < end:
            break
        section = section.children[index]
    return section.path


def _topic_path(path: tuple[str, ...], transcript: bool) -> tuple[str, ...]:
    """A chat log's role headings ("User", "Assistant") say who speaks, not what about."""
    if not transcript:
        return path
    return tuple(heading for heading in path if role_of_title(heading) is None)


class _Chunker:
    def __init__(self, text: str, config: ChunkerConfig) -> None:
        self.text = text
        self.config = config
        self.structure = analyse(text)
        self.measure = SpanMeasure(text)
        structured = config.strategy != "window"
        self.priorities = line_priorities(
            self.structure, self.measure, config.max_tokens, structured=structured
        )
        turns = find_turns(self.structure) if config.strategy == "adaptive" else ()
        self.exchanges = exchange_starts(turns)

    def fits(self, start: int, end: int, budget: int) -> bool:
        return self.measure.fits(start, end, budget)

    def windows(self, start: int, end: int) -> list[tuple[int, int]]:
        cuts = cuts_between(self.structure, self.priorities, start, end)
        config = self.config
        return split_windows(
            self.text, self.measure, (start, end), cuts, config.max_tokens, config.overlap_tokens
        )

    def bounded(self, start: int, end: int) -> list[tuple[int, int]]:
        return [(start, end)] if self.fits(start, end, self.config.max_tokens) else self.windows(start, end)

    def spans(self, root: _Section) -> list[tuple[int, int]]:
        strategy = self.config.strategy
        everything = [(0, len(self.text))]
        if strategy == "whole_file":
            return everything
        if strategy == "window":
            return self.windows(0, len(self.text))
        if strategy == "heading":
            starts = [0, *(self.structure.offset(h.line) for h in self.structure.headings)]
            return list(zip(starts, [*starts[1:], len(self.text)], strict=True))
        if self.fits(0, len(self.text), self.config.small_file_tokens):
            return everything
        if self.exchanges:
            return list(self.exchange_spans())
        return list(self.section_spans(root, None))

    def exchange_spans(self) -> Iterator[tuple[int, int]]:
        """Whole exchanges packed up to max_tokens; a short preamble (the log's title) joins the first."""
        limit = self.config.max_tokens
        starts = [self.structure.offset(line) for line in self.exchanges]
        # The preamble opens the first exchange's span, unless it is big enough to stand alone.
        opening = 0
        if self.text[: starts[0]].strip() and not self.fits(0, starts[0], limit // _SMALL_INTRO_FRACTION):
            yield from self.bounded(0, starts[0])
            opening = starts[0]
        bounds = list(zip([opening, *starts[1:]], [*starts[1:], len(self.text)], strict=True))
        packed: tuple[int, int] | None = None
        for start, end in bounds:
            if packed is not None and self.fits(packed[0], end, limit):
                packed = (packed[0], end)
                continue
            if packed is not None:
                yield packed
            packed = (start, end)
            if not self.fits(start, end, limit):
                yield from self.windows(start, end)
                packed = None
        if packed is not None:
            yield packed

    def section_spans(self, section: _Section, carried: int | None) -> Iterator[tuple[int, int]]:
        """Spans of one section; `carried` is where a short introduction waiting for this section starts."""
        start = section.start if carried is None else carried
        limit = self.config.max_tokens
        if self.fits(start, section.end, limit):
            yield start, section.end
            return
        if carried is not None and self.fits(section.start, section.end, limit):
            yield from self.bounded(carried, section.start)
            yield section.start, section.end
            return
        if not section.children:
            yield from self.windows(start, section.end)
            return
        intro_end = section.children[0].start
        if self.text[start:intro_end].strip() == "":
            next_carried = None
        elif self.fits(section.body_start, intro_end, limit // _SMALL_INTRO_FRACTION):
            next_carried = start
        else:
            yield from self.bounded(start, intro_end)
            next_carried = None
        yield from self.section_spans(section.children[0], next_carried)
        for child in section.children[1:]:
            yield from self.section_spans(child, None)

    def trimmed(self, start: int, end: int) -> tuple[int, int] | None:
        """Drop leading blank lines and trailing whitespace; None when nothing visible is left."""
        body = self.text[start:end]
        stripped = body.lstrip()
        if not stripped:
            return None
        first_visible = start + len(body) - len(stripped)
        line_start = self.structure.offset(self.structure.line_of(first_visible))
        return max(start, line_start), end - (len(body) - len(body.rstrip()))


def _chunk_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chunk_markdown(text: str, config: ChunkerConfig = ChunkerConfig()) -> list[Chunk]:
    if not text.strip():
        return []
    chunker = _Chunker(text, config)
    root = _section_tree(chunker.structure)
    chunks: list[Chunk] = []
    for raw_start, raw_end in chunker.spans(root):
        span = chunker.trimmed(raw_start, raw_end)
        if span is None:
            continue
        start, end = span
        body = text[start:end]
        path = _topic_path(_deepest_path(root, start, end), bool(chunker.exchanges))
        chunks.append(Chunk(len(chunks), path, start, end, body, _chunk_hash(body), estimate_tokens(body)))
    return chunks
