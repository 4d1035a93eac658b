"""YAML (`---`) and TOML (`+++`) front matter at the very start of a file.

Markdown parsers read a YAML block as a thematic break followed by a setext heading, so the block is
located here and hidden from the parser; it stays in the chunk text.
"""

import re

# An optional byte-order mark, the opening fence, then everything up to a closing fence on its own line.
_YAML = re.compile(
    r"\ufeff?---[ \t]*(?:\r\n?|\n)(?:.*?(?:\r\n?|\n))??(?:---|\.\.\.)[ \t]*(?:\r\n?|\n|\Z)", re.S
)
_TOML = re.compile(r"\ufeff?\+\+\+[ \t]*(?:\r\n?|\n)(?:.*?(?:\r\n?|\n))??\+\+\+[ \t]*(?:\r\n?|\n|\Z)", re.S)


def front_matter_end(text: str) -> int:
    """Offset just past the closing fence line, or 0 when the file has no front matter."""
    for pattern in (_YAML, _TOML):
        match = pattern.match(text)
        if match:
            return match.end()
    return 0
