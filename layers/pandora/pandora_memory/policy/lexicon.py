"""Cue matching over word tokens: about one dictionary lookup per word, however many cues there are.

A regex alternation of hundreds of phrases costs time per phrase at every position of the text; here
phrases sit in a word trie walked once over a clause's tokens. Phrase syntax, kept small:

- `deploy*`       the word and its -s/-ed/-ing/-er forms
- `prod|staging`  any one of the alternatives at that position; each alternative is one word, since
                  the phrase splits at spaces first ("don't|do not use" reads "don't|do", "not", "use":
                  write "do not use" as an entry of its own)
- `…`             a gap of up to GAP_MAX words ("can't … until")
- `<num>`         any word holding a digit ("lost … <num>", "ch <num>")
- `^` first       the phrase must open the clause (after filler words)

Cues in scripts that glue particles to words (Hangul, kana, CJK) are matched as substrings instead.
"""

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from pandora_memory.policy.text import split_points, split_scripts

# Keeps "don't", "ex-client", "v0.9.1", "07:00" and "fly.io" whole so cues never match inside them.
# Possessive (++, *+) because nothing follows that could make giving characters back useful: the
# same tokens as \w+(?:['.:\-]\w+)*, with less work per token.
TOKEN_PATTERN = re.compile(r"\w++(?:['.:\-]\w++)*+")
# The same tokens for ASCII text, where \w needs no Unicode table lookup per character.
_ASCII_TOKEN_PATTERN = re.compile(TOKEN_PATTERN.pattern, re.ASCII)
GAP = "…"
GAP_MAX = 6
NUMBER = "<num>"
ANCHOR = "^"
_SUFFIXES = ("", "s", "es", "ed", "d", "ing", "er", "ers")
_GLUED_SCRIPTS = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u4e00-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True, slots=True)
class Cue:
    """One lexicon entry: the family it belongs to, its text and the evidence it is worth."""

    family: str
    text: str
    weight: float
    gapped: bool = False


class Hit(NamedTuple):
    cue: Cue
    token_start: int
    token_end: int


# Hits are built as `_new_tuple(Hit, (cue, start, end))`: the same Hit, without the Python-level
# __new__ that NamedTuple generates (a message builds a few dozen hits).
_new_tuple = tuple.__new__


def tokenize(lowered_text: str) -> list[str]:
    if lowered_text.isascii():
        return _ASCII_TOKEN_PATTERN.findall(lowered_text)
    return TOKEN_PATTERN.findall(split_scripts(lowered_text))


def _forms(word: str) -> list[str]:
    forms: list[str] = []
    for alternative in word.split("|"):
        if not alternative.endswith("*"):
            forms.append(alternative)
            continue
        stem = alternative[:-1]
        forms += [stem + suffix for suffix in _SUFFIXES]
        if stem.endswith("e"):
            forms += [stem[:-1] + "ing", stem[:-1] + "er"]
    return forms


def _variants(phrase: str) -> Iterator[tuple[str, ...]]:
    """Every token sequence a phrase stands for (alternatives and inflections expanded)."""
    slots: list[list[tuple[str, ...]]] = []
    for word in phrase.lower().replace("...", GAP).split():
        if word in (GAP, NUMBER):
            slots.append([(word,)])
        else:
            slots.append([tuple(tokenize(form)) for form in _forms(word) if tokenize(form)])
    for combination in product(*slots):
        words = tuple(token for part in combination for token in part)
        if words:
            yield words


def _without_anchor(phrase: str) -> tuple[bool, str]:
    """Whether the phrase must open its clause, and the phrase without its `^`."""
    anchored = phrase.startswith(ANCHOR + " ")
    return anchored, phrase[2:] if anchored else phrase


def cue_texts(phrase: str) -> list[str]:
    """The texts a phrase's hits report ("stick|stay with" -> "stick with", "stay with"), named as
    PhraseIndex names them: what rules that name cues by their text compare with. Pattern names
    ("this, not that") stay as written."""
    _, text = _without_anchor(phrase)
    if not _is_spaced_script(text) or "," in text:
        return [text.lower()]
    return [" ".join(words) for words in _variants(text)]


def _is_spaced_script(phrase: str) -> bool:
    return _GLUED_SCRIPTS.search(phrase) is None


class _Substring(NamedTuple):
    needle: str  # without spaces when `spaced`
    cue: Cue
    anchored: bool
    spaced: bool  # some listing of the cue has a space: it is sought in the text without spaces


class _Node:
    """One word of the trie: phrases continue in `children`, after a gap, or at a number."""

    __slots__ = ("children", "cues", "gap", "number")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.cues: list[Cue] = []
        self.gap: _Node | None = None
        self.number: _Node | None = None

    def step(self, word: str) -> "_Node":
        if word == GAP:
            self.gap = self.gap or _Node()
            return self.gap
        if word == NUMBER:
            self.number = self.number or _Node()
            return self.number
        node = self.children.get(word)
        if node is None:
            node = self.children[word] = _Node()
        return node


_DIGIT = re.compile(r"\d")
_SPACES = re.compile(r"\s+")


_NON_SPACES = re.compile(r"\S+")


def _position_with_spaces(text: str, compact_position: int) -> int:
    """Where the character at `compact_position` of the text without its whitespace sits in `text`."""
    seen = 0
    for run in _NON_SPACES.finditer(text):
        length = run.end() - run.start()
        if compact_position < seen + length:
            return run.start() + compact_position - seen
        seen += length
    raise ValueError(f"position {compact_position} is past the text's end")


def _has_digit(token: str) -> bool:
    return not token.isalpha() and _DIGIT.search(token) is not None


class _TokenCount:
    """How many tokens `tokenize` finds in a text's prefix, for many prefixes of one non-ASCII text:
    one tokenisation and the offsets where split_scripts adds its spaces, instead of one per prefix."""

    def __init__(self, lowered_text: str) -> None:
        self._spaces = split_points(lowered_text)
        self._starts = [match.start() for match in TOKEN_PATTERN.finditer(split_scripts(lowered_text))]

    def before(self, position: int) -> int:
        """len(tokenize(lowered_text[:position])): the tokens that start before it."""
        return bisect_left(self._starts, position + bisect_right(self._spaces, position))


class PhraseIndex:
    """Finds every cue of every family in a tokenised clause, longest phrase first within a family."""

    def __init__(self, lexicons: Mapping[str, Iterable[tuple[str, float]]]) -> None:
        self._root = _Node()
        self._anchored = _Node()
        # (family, cue without spaces, anchored) -> (needle, cue, anchored, spaced): one entry for a
        # cue listed with and without a space ("해줘", "해 줘"), which would otherwise count twice.
        substrings: dict[tuple[str, str, bool], _Substring] = {}
        for family, entries in lexicons.items():
            for phrase, weight in entries:
                anchored, text = _without_anchor(phrase)
                if not _is_spaced_script(text):
                    lowered = text.lower()
                    compact = _SPACES.sub("", lowered)
                    known = substrings.get((family, compact, anchored))
                    spaced = compact != lowered or (known is not None and known.spaced)
                    cue = known.cue if known else Cue(family, lowered, weight)
                    needle = compact if spaced else lowered
                    substrings[family, compact, anchored] = _Substring(needle, cue, anchored, spaced)
                    continue
                for words in _variants(text):
                    if words[0] in (GAP, NUMBER):
                        raise ValueError(f"cue {phrase!r} must start with a word")
                    # Each expansion is reported as itself ("stuck on"), never as the raw "stuck on|at".
                    cue = Cue(family, " ".join(words), weight, GAP in words)
                    node = self._anchored if anchored else self._root
                    for word in words:
                        node = node.step(word)
                    if cue not in node.cues:
                        node.cues.append(cue)
        self._substrings = tuple(substrings.values())
        # Which substring cues can occur at all: only those whose first character is in the text.
        self._substrings_by_first: dict[str, list[int]] = {}
        for position, substring in enumerate(self._substrings):
            self._substrings_by_first.setdefault(substring.needle[0], []).append(position)

    def match(self, tokens: Sequence[str], lowered_text: str, start: int = 0) -> list[Hit]:
        """`start` is where the clause's content begins (after fillers): anchored cues match there."""
        hits: list[Hit] = []
        covered_until: dict[str, int] = {}
        children = self._root.children
        last = len(tokens) - 1
        for index, token in enumerate(tokens):
            node = children.get(token)
            opening = self._anchored.children.get(token) if index == start else None
            if opening is None:
                if node is None:
                    continue
                continues = node.gap is not None or node.number is not None
                if not continues and (index == last or tokens[index + 1] not in node.children):
                    # The common case: a one-word cue (or none) and no longer phrase going on here.
                    for cue in node.cues:
                        if index < covered_until.get(cue.family, -1):
                            continue
                        hits.append(_new_tuple(Hit, (cue, index, index + 1)))
                        covered_until[cue.family] = index + 1
                    continue
            found: list[tuple[Cue, int]] = []
            if node is not None:
                self._walk(node, tokens, index + 1, found)
            if opening is not None:
                self._walk(opening, tokens, index + 1, found)
            if len(found) == 1:
                cue, cue_end = found[0]
                if cue_end > covered_until.get(cue.family, -1):
                    hits.append(_new_tuple(Hit, (cue, index, cue_end)))
                    if not cue.gapped:
                        covered_until[cue.family] = cue_end
            elif found:
                self._keep_longest(found, index, hits, covered_until)
        if self._substrings and not lowered_text.isascii() and _GLUED_SCRIPTS.search(lowered_text):
            hits.extend(self._substring_hits(tokens, lowered_text))
        return hits

    @staticmethod
    def _keep_longest(
        found: list[tuple[Cue, int]], index: int, hits: list[Hit], covered_until: dict[str, int]
    ) -> None:
        longest: dict[str, tuple[Cue, int]] = {}
        for cue, cue_end in found:
            known = longest.get(cue.family)
            if known is None or known[1] < cue_end:
                longest[cue.family] = (cue, cue_end)
        for family, (cue, cue_end) in longest.items():
            # A phrase inside a longer one of its family already counted ("going with" in
            # "we're going with") is not counted again; one that reaches further is.
            if cue_end <= covered_until.get(family, -1):
                continue
            hits.append(_new_tuple(Hit, (cue, index, cue_end)))
            if not cue.gapped:
                # What a gap skipped over is free to match on its own.
                covered_until[family] = cue_end

    def _walk(self, node: _Node, tokens: Sequence[str], end: int, found: list[tuple[Cue, int]]) -> None:
        """Follows `node` from token `end`, collecting every phrase that ends on the way."""
        count = len(tokens)
        while True:
            for cue in node.cues:
                found.append((cue, end))
            if node.gap is not None:
                # The nearest continuation that completes a phrase is the one meant: "can't ... until", not
                # a later one. One that only starts a longer phrase ("an" of "owe ... an apology" in "owe
                # Kevin an answer") does not stop the search for one that completes ("owe ... answer").
                gap = node.gap
                completed = len(found)
                for position in range(end, min(end + GAP_MAX + 1, count)):
                    following = gap.children.get(tokens[position])
                    digit = gap.number is not None and _has_digit(tokens[position])
                    if following is not None:
                        self._walk(following, tokens, position + 1, found)
                    if digit and gap.number is not None:
                        self._walk(gap.number, tokens, position + 1, found)
                    if len(found) > completed:
                        break
            if end >= count:
                return
            token = tokens[end]
            if node.number is not None and _has_digit(token):
                self._walk(node.number, tokens, end + 1, found)
            following = node.children.get(token)
            if following is None:
                return
            node = following
            end += 1

    def _substring_hits(self, tokens: Sequence[str], lowered_text: str) -> list[Hit]:
        """Substring cues in lexicon order, looking only for those whose first character occurs.

        A cue written with a space also matches the text without it: Korean drops the space before
        a bound word more often than not ("기다리는 중" as "기다리는중", "못 하고" as "못하고"). A cue
        without one matches only as written, so "시급" never spans two words ("에이전시 급여")."""
        first_characters = self._substrings_by_first.keys() & set(lowered_text)
        wanted = sorted(i for first in first_characters for i in self._substrings_by_first[first])
        compact: str | None = None
        count: _TokenCount | None = None
        hits: list[Hit] = []
        for needle, cue, anchored, spaced in (self._substrings[i] for i in wanted):
            if spaced:
                if compact is None:
                    compact = "".join(lowered_text.split())
                found = compact.find(needle)
                position = _position_with_spaces(lowered_text, found) if found >= 0 else -1
            else:
                position = lowered_text.find(needle)
            if position < 0 or (anchored and position > 0):
                continue
            if count is None:
                count = _TokenCount(lowered_text)
            token_index = count.before(position)
            hits.append(Hit(cue, token_index, min(token_index + 1, len(tokens))))
        return hits
