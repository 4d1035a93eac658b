"""Bounded, overlapping windows over a span that is too big for one chunk.

Cuts fall at line starts ranked by how much structure they keep: 0 between top-level blocks, 1 between
nested blocks (list items), 2 between lines of a paragraph, 3 between lines of a code fence that is
itself bigger than a window. Lines inside a fence, list item, HTML block or heading that fits in a
window are never cut, so a fence or a link's list item is only split when it cannot fit anywhere. The
furthest cut of the best rank that still fills half a window wins. A single line bigger than a window
is cut after a space, or at any character as a last resort.
"""

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from pandora_memory.markdown.structure import LINE_BREAK, Structure
from pandora_memory.markdown.token_estimate import SpanMeasure

TOP_LEVEL, NESTED, LINE, INSIDE_FENCE = 0, 1, 2, 3
FORBIDDEN = -1

_ATOMIC = frozenset({"fence", "code_block", "list_item_open", "html_block", "heading_open"})
_FENCES = frozenset({"fence", "code_block"})
_WORD_START = re.compile(r"(?<=\s)\S")
_VISIBLE = re.compile(r"\S")


def line_priorities(
    structure: Structure, measure: SpanMeasure, max_tokens: int, *, structured: bool = True
) -> list[int]:
    """Cut rank of the start of every line (index = line number); FORBIDDEN where cutting is banned."""
    priorities = [LINE] * (structure.line_count + 1)
    if not structured:
        return priorities
    for block in structure.blocks:
        if block.start < len(priorities):
            rank = TOP_LEVEL if block.depth == 0 else NESTED
            priorities[block.start] = min(priorities[block.start], rank)
    priorities[min(structure.front_matter_lines, structure.line_count)] = TOP_LEVEL
    banned = [False] * len(priorities)
    for block in structure.blocks:
        if block.kind not in _ATOMIC or block.end - block.start < 2:
            continue
        inside = range(block.start + 1, min(block.end, len(priorities)))
        if measure.fits(structure.offset(block.start), structure.offset(block.end), max_tokens):
            for line in inside:
                banned[line] = True
        elif block.kind in _FENCES:
            for line in inside:
                priorities[line] = INSIDE_FENCE
    return [FORBIDDEN if ban else rank for rank, ban in zip(priorities, banned, strict=True)]


@dataclass(frozen=True)
class Cut:
    offset: int
    priority: int


def cuts_between(structure: Structure, priorities: Sequence[int], start: int, end: int) -> list[Cut]:
    """Allowed cuts strictly inside (start, end), in order."""
    first = structure.line_of(start) + 1
    last = structure.line_of(end) if end < len(structure.text) else structure.line_count
    cuts: list[Cut] = []
    for line in range(first, last + 1):
        offset = structure.offset(line)
        if start < offset < end and priorities[line] != FORBIDDEN:
            cuts.append(Cut(offset, priorities[line]))
    return cuts


class EndKind(Enum):
    CLEAN = "clean"  # at a line start outside any fence
    IN_FENCE = "in_fence"  # at a line start inside an oversized fence
    MID_LINE = "mid_line"  # inside a line too long for a window


def _last_true(low: int, high: int, predicate: Callable[[int], bool]) -> int | None:
    """Largest i in [low, high] with predicate(i), for a predicate that is true and then false."""
    if low > high or not predicate(low):
        return None
    good, step = low, 1
    while good + step <= high and predicate(good + step):
        good += step
        step *= 2
    bad = min(good + step, high + 1)
    while bad - good > 1:
        middle = (good + bad) // 2
        if predicate(middle):
            good = middle
        else:
            bad = middle
    return good


def _first_true(low: int, high: int, predicate: Callable[[int], bool]) -> int:
    """Smallest i in [low, high) with predicate(i), for a predicate that is false and then true; else high."""
    while low < high:
        middle = (low + high) // 2
        if predicate(middle):
            high = middle
        else:
            low = middle + 1
    return low


class _Windower:
    def __init__(
        self, text: str, measure: SpanMeasure, end: int, cuts: list[Cut], max_tokens: int, overlap_tokens: int
    ) -> None:
        self.text = text
        self.measure = measure
        self.offsets = [cut.offset for cut in cuts] + [end]
        self.priorities = [cut.priority for cut in cuts] + [TOP_LEVEL]
        self.max_tokens = max_tokens
        self.overlap_tokens = overlap_tokens

    def tokens(self, start: int, end: int) -> int:
        return self.measure.tokens(start, end)

    def fits(self, start: int, end: int) -> bool:
        return self.measure.fits(start, end, self.max_tokens)

    def choose_end(self, start: int, floor: int) -> tuple[int, EndKind] | None:
        """Where a window opening at `start` ends, strictly after `floor`; None when nothing fits."""
        first = bisect_right(self.offsets, floor)
        last = _last_true(first, len(self.offsets) - 1, lambda i: self.fits(start, self.offsets[i]))
        if last is None:
            cut = self._cut_inside_line(start, floor, self.offsets[first], at_space_only=False)
            return None if cut is None else (cut, EndKind.MID_LINE)
        for rank in (TOP_LEVEL, NESTED, LINE, INSIDE_FENCE):
            best = self._furthest(first, last, rank)
            if best is not None and self.tokens(start, self.offsets[best]) >= self.max_tokens / 2:
                kind = EndKind.IN_FENCE if self.priorities[best] == INSIDE_FENCE else EndKind.CLEAN
                return self.offsets[best], kind
        if last + 1 < len(self.offsets):
            # A long single line comes next: cutting it after a space beats a mostly empty window.
            line_start, line_end = self.offsets[last], self.offsets[last + 1]
            if not LINE_BREAK.search(self.text, line_start, line_end - 1):
                cut = self._cut_inside_line(start, line_start, line_end, at_space_only=True)
                if cut is not None:
                    return cut, EndKind.MID_LINE
        best = self._furthest(first, last, LINE)
        if best is not None:
            return self.offsets[best], EndKind.CLEAN
        return self.offsets[last], EndKind.IN_FENCE

    def _furthest(self, first: int, last: int, rank: int) -> int | None:
        for index in range(last, first - 1, -1):
            if self.priorities[index] <= rank:
                return index
        return None

    def _cut_inside_line(self, start: int, floor: int, limit: int, *, at_space_only: bool) -> int | None:
        end = _last_true(floor + 1, limit - 1, lambda i: self.fits(start, i))
        if end is None:
            return None
        space = max(self.text.rfind(" ", floor + 1, end), self.text.rfind("\t", floor + 1, end))
        if space > floor and self.tokens(start, space + 1) >= self.max_tokens / 2:
            return space + 1
        return None if at_space_only else end

    def overlap_start(self, start: int, end: int, kind: EndKind) -> int:
        """Where the next window opens: the earliest allowed cut whose tail fits the overlap; else `end`."""
        # Never repeat more than half of a short window, or the next one would nearly contain it.
        budget = min(self.overlap_tokens, self.tokens(start, end) // 2)
        if budget <= 0:
            return end
        if kind is EndKind.MID_LINE:
            return self._overlap_inside_line(start, end, budget)
        ceiling = INSIDE_FENCE if kind is EndKind.IN_FENCE else LINE
        content_end = start + len(self.text[start:end].rstrip())  # blank lines are no overlap
        lowest, highest = bisect_right(self.offsets, start), bisect_left(self.offsets, content_end)
        candidates = [self.offsets[i] for i in range(lowest, highest) if self.priorities[i] <= ceiling]
        index = _first_true(0, len(candidates), lambda i: self.tokens(candidates[i], end) <= budget)
        if index < len(candidates):
            return candidates[index]
        # The last line alone is over the overlap budget: overlap with its last words instead, unless
        # that would open the next window inside a fence or list item.
        last_line = candidates[-1] if candidates else start
        if LINE_BREAK.search(self.text, last_line, content_end):
            return end
        return self._overlap_inside_line(max(start, last_line), content_end, budget)

    def _overlap_inside_line(self, start: int, end: int, budget: int) -> int:
        first_fit = _first_true(start + 1, end, lambda i: self.tokens(i, end) <= budget)
        word = _WORD_START.search(self.text, first_fit, end)
        return word.start() if word else end


def split_windows(
    text: str,
    measure: SpanMeasure,
    span: tuple[int, int],
    cuts: list[Cut],
    max_tokens: int,
    overlap_tokens: int,
) -> list[tuple[int, int]]:
    """Spans [a, b) covering text[start:end], each within max_tokens, consecutive ones overlapping."""
    start, end = span
    windower = _Windower(text, measure, end, cuts, max_tokens, overlap_tokens)
    spans: list[tuple[int, int]] = []
    window_start, floor = start, start
    while True:
        chosen = windower.choose_end(window_start, floor)
        if chosen is None:  # the overlap left no room to advance: open the window without it
            window_start = floor
            chosen = windower.choose_end(window_start, floor)
            if chosen is None:  # one character always fits: ChunkerConfig validates max_tokens
                raise AssertionError("no window fits")
        window_end, kind = chosen
        spans.append((window_start, window_end))
        if window_end >= end or not _VISIBLE.search(text, window_end, end):
            return spans
        floor = window_end
        window_start = windower.overlap_start(window_start, window_end, kind)
