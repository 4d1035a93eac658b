"""A cheap, deterministic stand-in for a model tokenizer, used only to bound chunk sizes.

English averages about four characters or 0.75 words per token, punctuation and code cost extra, and
each Hangul, kana or Han character is roughly one token. The estimate is the CJK character count plus
the larger of (other non-space characters / 4) and (1.3 per word + 0.5 per symbol). Every count only
grows when text is appended, so the estimate is monotone in the end of a span: window cutting relies
on that to binary-search a cut.
"""

import math
import re
from dataclasses import dataclass

from pandora_memory.markdown.cjk import CJK_RANGES

_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
_WORD = re.compile(f"[^\\W{CJK_RANGES}]+")
_WORD_CHAR = re.compile(f"[^\\W{CJK_RANGES}]")
_SYMBOL = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s")

# Chunk sizes are bounded by estimates, so no single character may exceed this many tokens.
MAX_TOKENS_PER_CHARACTER = 2


def estimate_tokens(text: str) -> int:
    return _from_counts(_counts(text)) if text else 0


@dataclass(frozen=True, slots=True)
class _Counts:
    """What the estimate is made of; each count adds up over consecutive pieces of a text."""

    cjk: int
    visible: int  # non-space characters other than CJK
    words: int
    symbols: int

    def plus(self, other: "_Counts") -> "_Counts":
        return _Counts(
            self.cjk + other.cjk,
            self.visible + other.visible,
            self.words + other.words,
            self.symbols + other.symbols,
        )

    def minus(self, other: "_Counts") -> "_Counts":
        return _Counts(
            self.cjk - other.cjk,
            self.visible - other.visible,
            self.words - other.words,
            self.symbols - other.symbols,
        )


_NOTHING = _Counts(0, 0, 0, 0)


def _counts(text: str) -> _Counts:
    cjk = 0 if text.isascii() else len(_CJK_CHAR.findall(text))
    visible = len(text) - len(_SPACE.findall(text)) - cjk
    return _Counts(cjk, visible, len(_WORD.findall(text)), len(_SYMBOL.findall(text)))


def _from_counts(counts: _Counts) -> int:
    return counts.cjk + math.ceil(max(counts.visible / 4, 1.3 * counts.words + 0.5 * counts.symbols))


class SpanMeasure:
    """estimate_tokens of any span of one text, without re-reading the middle of long spans.

    The text is cut into fixed pieces with running totals of their counts, so a span costs two partial
    pieces at its ends. A word cut by a piece boundary is counted in both pieces; the boundaries that
    fall inside a word are counted too, and subtracted.
    """

    _PIECE = 128

    def __init__(self, text: str) -> None:
        self._text = text
        piece = self._PIECE
        totals = [_NOTHING]
        inside_word = [0]
        for start in range(0, len(text), piece):
            totals.append(totals[-1].plus(_counts(text[start : start + piece])))
            if start:
                split = bool(_WORD_CHAR.match(text, start - 1) and _WORD_CHAR.match(text, start))
                inside_word.append(inside_word[-1] + split)
        self._totals = totals
        self._inside_word = inside_word  # [k]: boundaries 1..k that fall inside a word

    def _span_counts(self, start: int, end: int) -> _Counts:
        piece = self._PIECE
        first, last = start // piece, (end - 1) // piece
        if last - first < 2:
            return _counts(self._text[start:end])
        head = _counts(self._text[start : (first + 1) * piece])
        tail = _counts(self._text[last * piece : end])
        middle = self._totals[last].minus(self._totals[first + 1])
        total = head.plus(middle).plus(tail)
        split_words = self._inside_word[last] - self._inside_word[first]
        return _Counts(total.cjk, total.visible, total.words - split_words, total.symbols)

    def tokens(self, start: int, end: int) -> int:
        if end <= start:
            return 0
        return _from_counts(self._span_counts(start, end))

    def fits(self, start: int, end: int, budget: int) -> bool:
        return self.tokens(start, end) <= budget
