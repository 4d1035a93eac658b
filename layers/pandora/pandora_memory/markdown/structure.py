"""What markdown-it sees in a file: line offsets, real headings and block line ranges.

Only the token stream's `.map` line ranges are used, so headings inside code fences, HTML blocks or
front matter never count, and setext headings are found as reliably as ATX ones.
"""

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pandora_memory.markdown.front_matter import front_matter_end

# Exactly the line breaks markdown-it normalises, so its line numbers index our offsets.
LINE_BREAK = re.compile(r"\r\n?|\n")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Heading:
    line: int
    end_line: int
    level: int
    title: str


@dataclass(frozen=True)
class Block:
    """A block token's line range [start, end); depth 0 means a top-level block."""

    kind: str
    start: int
    end: int
    depth: int


@dataclass(frozen=True)
class Structure:
    text: str
    line_starts: tuple[int, ...]
    headings: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    front_matter_lines: int

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def offset(self, line: int) -> int:
        """Offset of a line's first character; one past the last line is the end of the text."""
        return self.line_starts[line] if line < len(self.line_starts) else len(self.text)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _plain_title(inline: Token | None) -> str:
    if inline is None:
        return ""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "text_special", "image", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return _SPACES.sub(" ", "".join(parts)).strip()


def analyse(text: str) -> Structure:
    line_starts = (0, *(match.end() for match in LINE_BREAK.finditer(text)))
    front_end = front_matter_end(text)
    front_lines = bisect_right(line_starts, front_end) - 1 if front_end else 0
    if front_end and front_end == len(text) and front_end not in line_starts:
        front_lines = len(line_starts)
    # Blank lines keep markdown-it's line numbers aligned with the original text.
    source = "\n" * front_lines + text[front_end:] if front_end else text
    tokens = _parser().parse(source)

    headings: list[Heading] = []
    blocks: list[Block] = []
    for index, token in enumerate(tokens):
        if token.map is None or token.nesting == -1 or token.type == "inline":
            continue
        start, end = token.map
        blocks.append(Block(token.type, start, end, token.level))
        if token.type == "heading_open" and token.level == 0:
            inline = tokens[index + 1] if index + 1 < len(tokens) else None
            headings.append(Heading(start, end, int(token.tag[1:]), _plain_title(inline)))
    return Structure(text, line_starts, tuple(headings), tuple(blocks), front_lines)
