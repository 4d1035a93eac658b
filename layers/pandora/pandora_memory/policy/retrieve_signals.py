"""Reads one message into the cue families the retrieve policy scores (reading stage one).

Built for speed on long messages: the text is split into words once; cue families are found by
intersecting the message's word and word-pair sets with the lexicon indexes (set operations run in
C, not a Python loop per word); positions are looked up only for the rare neutral phrases and
longer cues. Stages two and three (recalled events, names, specifics; question shapes) live in
retrieve_details, and the scorer runs them only when they can change the decision.
"""

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import pairwise
from operator import itemgetter

from pandora_memory.policy.retrieve_lexicon import (
    NEUTRAL_FAMILY,
    Cue,
    CueIndex,
    RetrieveRules,
    retrieve_rules,
    split_words,
)
from pandora_memory.policy.retrieve_patterns import SHAPES
from pandora_memory.policy.retrieve_positions import WordPositions
from pandora_memory.policy.spelling import respelling
from pandora_memory.policy.text import unify_typography

_SENTENCE_OPENING_THAT = re.compile(r"(?:^|[.!?;:]\s*)that\b")
# The cue a message that only asks to go on reports, and the last sentence of a message, which may
# be one ("ok that worked. next?").
BARE_GO_ON = "bare go-on"
_LAST_SENTENCE = re.compile(r"(?:^|(?<=[.!?])\s)[^.!?]*[.!?]*\s*$")
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# A term in quotes or backticks is named, not used: "what does 'continue' do in a loop". Inline
# code of any length (up to 80 characters); a quoted term of up to three words (a longer quote may
# be speech). The opening mark follows no letter or digit (not the one in "don't"), the closing
# one precedes none. The pattern opens on the mark itself, checked by a lookbehind after it, so the
# search jumps from one mark to the next. A message that is little more than the quote
# ('ok "continue"') uses the term: it stays. The term goes with one space after it, which keeps
# the text single-spaced.
_QUOTED_TERM = re.compile(r"""(['"`])(?<![^\W_]['"`])([^'"`\n]{1,80}?)\1(?![^\W_]) ?""")
# Where a quoted term can open: most apostrophes sit inside words ("don't") and open nothing.
_QUOTE_OPENINGS = (" '", ' "', "`", "('", '("')
_MAX_QUOTED_WORDS = 3
# A request to rewrite quoted material, or a question about what a quoted term means: everything it
# quotes is dropped, whatever its length ("what does 'ENOENT: no such file' mean").
_MATERIAL_REQUEST = re.compile(
    r"\W*(?:(?:pls|please|can you|could you|ok|okay)\W+)*"
    r"(?:(?:translate|rewrite|rephrase|reword|proofread|correct|paraphrase|shorten|spell-check|spellcheck)\b"
    r"|what (?:does|do|is) [\"'`])",
    re.IGNORECASE,
)
_MAX_QUOTED_CHARS = 40
_MIN_WORDS_AROUND_QUOTE = 3
# The ASCII whitespace str.split splits on, besides the space.
_ASCII_BREAKS = "\n\r\t\x0b\x0c\x1c\x1d\x1e\x1f"
_SHAPE_FAMILIES = frozenset(SHAPES)
_RANK = itemgetter(0)

Hit = tuple[int, Cue, str]  # rank, cue, and the message word that matched the cue's first word


@dataclass(slots=True)
class MessageReading:
    text: str  # prepared text, original case
    lowered: str
    words: list[str]
    wordset: set[str] = field(default_factory=set)
    whole: bool = True  # the text kept all of the message: nothing cut, no code dropped
    cues: dict[str, list[str]] = field(default_factory=dict)  # family -> distinct cues
    names: list[str] = field(default_factory=list)
    all_casual: bool = False
    shapes: dict[str, str] = field(default_factory=dict)  # shape -> the text that showed it
    in_chat_followup: bool = False
    specific_items: list[str] = field(default_factory=list)
    details_read: bool = False
    # Words as typed: "spokeline에서" is one, though `words` holds its word and particle apart.
    word_count: int = 0
    places: WordPositions = field(init=False)

    def __post_init__(self) -> None:
        self.places = WordPositions(self.words, self.wordset)

    def add(self, family: str, cue: str) -> None:
        found = self.cues.setdefault(family, [])
        if cue not in found:
            found.append(cue)


def prepare(message: str, max_chars: int) -> tuple[str, bool]:
    """Unicode-normalise, unify quotes and dashes, drop pasted code and quoted terms, collapse
    whitespace; and whether the text kept all of the message (nothing cut from a long one, no
    code or term dropped).

    Case is kept: names are spotted from it. Pasted code is material to work on, not the user
    talking, so its "my_var" or "# we fix it later" must not read as personal context; nor must
    the 'continue' of "what does 'continue' do in a loop".
    """
    whole = len(message) <= max_chars
    if not whole:
        half = max_chars // 2
        message = f"{message[:half]} . {message[-half:]}"
    text = unicodedata.normalize("NFKC", message)
    if not text.isascii():
        text = unify_typography(text)
    if "```" in text:
        whole = False
        text = _CODE_BLOCK.sub(" . ", text)
    if text[:1] in ("'", '"') or any(map(text.__contains__, _QUOTE_OPENINGS)):
        # "translate 'my brother moved to lisbon' into german": what a rewrite request quotes is
        # material of any length, not speech about the user's life.
        unquoted = _QUOTED_TERM.sub("" if _MATERIAL_REQUEST.match(text) else _drop_named_term, text)
        if unquoted != text and len(unquoted.split(None, _MIN_WORDS_AROUND_QUOTE)) >= _MIN_WORDS_AROUND_QUOTE:
            whole, text = False, unquoted
    return _collapse_whitespace(text), whole


def _drop_named_term(match: re.Match[str]) -> str:
    mark, quoted = match.group(1, 2)
    if mark == "`" or (len(quoted) <= _MAX_QUOTED_CHARS and quoted.count(" ") < _MAX_QUOTED_WORDS):
        return ""
    return match.group(0)


def _collapse_whitespace(text: str) -> str:
    """ " ".join(text.split()), which costs a string per word; most one-line messages need none."""
    if (
        text.isascii()
        and "  " not in text
        and text[:1] != " "
        and text[-1:] != " "
        and not any(map(text.__contains__, _ASCII_BREAKS))
    ):
        return text
    return " ".join(text.split())


def _spans(places: WordPositions, cue: Cue, word: str) -> list[range]:
    words, width = places.words, 1 + len(cue.rest)
    return [range(p, p + width) for p in places.of(word) if cue.rest_matches(words, p + 1)]


def _occurs(spaced: str, cue: Cue, word: str) -> bool:
    """Whether the cue stands anywhere, its first word being `word`. `spaced` holds the words
    joined by single spaces, with a space at each end: one substring search finds a phrase where
    list scans would compare it with every word."""
    return f" {word}{cue.following}" in spaced


def _cue_hits(reading: MessageReading, ascii_only: bool, index: CueIndex) -> tuple[list[Hit], bool]:
    """Every cue hit, and whether one of them may be a neutral phrase that masks others."""
    words, wordset = reading.words, reading.wordset
    spaced = f" {' '.join(words)} "
    single_hits, pair_hits = index.single_hits, index.pair_hits
    matched_words = index.single_keys.intersection(wordset)
    hits = [hit for word in matched_words for hit in single_hits[word]]
    matched_pairs = index.phrase_keys.intersection(pairwise(words))
    for pair in matched_pairs:
        if pair in pair_hits:
            hits.extend(pair_hits[pair])
        for cue in index.phrases.get(pair, ()):
            if _occurs(spaced, cue, pair[0]):
                hits.append((cue.rank, cue, pair[0]))
    neutral = not (
        index.neutral_words.isdisjoint(matched_words) and index.neutral_pairs.isdisjoint(matched_pairs)
    )
    if not ascii_only:  # word-start and word-end cues exist only for non-Latin scripts
        glued: list[Hit] = []
        for word in wordset:
            if not word.isascii():
                glued.extend(
                    (c.rank, c, word)
                    for c in index.glued_cues(word)
                    if not c.rest or _occurs(spaced, c, word)
                )
        for first in index.loose_phrases.keys() & wordset:
            glued.extend((c.rank, c, first) for c in index.loose_phrases[first] if _occurs(spaced, c, first))
        neutral = neutral or any(hit[1].family == NEUTRAL_FAMILY for hit in glued)
        hits.extend(glued)
    return hits, neutral


def _drop_masked(hits: list[Hit], places: WordPositions) -> list[Hit]:
    """Drops neutral phrases and the cues that end inside one ("next" in "next week", "do i" in
    "how do i", "what next" in "what next.js"), unless the cue also occurs clear of one."""
    masked = {
        p for _, c, w in hits if c.family == NEUTRAL_FAMILY for span in _spans(places, c, w) for p in span
    }
    masked_words = {places.words[p] for p in masked}
    return [
        (rank, cue, word)
        for rank, cue, word in hits
        if cue.family != NEUTRAL_FAMILY
        and (
            (not cue.rest and word not in masked_words)  # a single word nowhere masked: no lookup
            or any(span[-1] not in masked for span in _spans(places, cue, word))
        )
    ]


def _is_casual(word: str, rules: RetrieveRules) -> bool:
    casual = rules.casual_index
    return word in casual.single_keys or (not word.isascii() and bool(casual.glued_cues(word)))


def _that_points_back(reading: MessageReading, rules: RetrieveRules) -> bool:
    """ "that" after a noun opens a relative clause ("startups that pivoted"); it points back only
    at a sentence start or after words like "did", "about", "fix"."""
    words = reading.words
    if any(words[p - 1] in rules.that_after for p in reading.places.of("that")[:8] if p):
        return True
    return _SENTENCE_OPENING_THAT.search(reading.lowered) is not None


def _ends_on_bare_continuation(lowered: str, rules: RetrieveRules) -> bool:
    """ "go", "ok next", "ok that worked. next?": the message or its last sentence only asks to go on."""
    last = _LAST_SENTENCE.search(lowered)
    return last is not None and rules.bare_continuation.match(last.group()) is not None


def read_message(message: str, rules: RetrieveRules | None = None) -> MessageReading:
    """Stage one: the cue families, small talk, and the shapes that cue words give away."""
    rules = rules or retrieve_rules()
    text, whole = prepare(message, rules.max_analysed_chars)
    lowered = text.lower()
    words = split_words(lowered)
    spelling = respelling()
    if spelling.needed(words):
        lowered = spelling.text(lowered)
        words = split_words(lowered)
    wordset = set(words)
    reading = MessageReading(text, lowered, words, wordset, whole)
    ascii_only = lowered.isascii()
    reading.word_count = len(words) if ascii_only else len(split_words(lowered, scripts_apart=False))
    if not words:
        return reading
    hits, neutral = _cue_hits(reading, ascii_only, rules.index)
    if neutral:
        hits = _drop_masked(hits, reading.places)
    hits.sort(key=_RANK)
    found: dict[str, list[str]] = {}
    for _, cue, _ in hits:
        family = cue.family
        if family in found:
            found[family].append(cue.text)
        else:
            found[family] = [cue.text]
    for shape in _SHAPE_FAMILIES.intersection(found):
        reading.shapes[shape] = found.pop(shape)[0]
    anaphors = found.get("anaphoric_reference")
    # Only worth telling apart where an anaphor weighs much: in short and medium messages.
    short_enough = reading.word_count <= rules.medium_message_max_words
    if anaphors and short_enough and "that" in anaphors and not _that_points_back(reading, rules):
        anaphors.remove("that")
        if not anaphors:
            del found["anaphoric_reference"]
    # A cue glued onto two different words would be listed twice: list it once.
    reading.cues = found if ascii_only else {f: list(dict.fromkeys(texts)) for f, texts in found.items()}
    if reading.word_count <= rules.short_message_max_words and _ends_on_bare_continuation(lowered, rules):
        reading.add("continuation", BARE_GO_ON)
    # "ok and now?" is made of small-talk words but asks to go on.
    reading.all_casual = (
        reading.word_count <= rules.casual_max_words
        and "continuation" not in found
        and all(_is_casual(w, rules) for w in reading.wordset)
    )
    if rules.index.infix and not ascii_only and rules.index.infix_any.search(lowered):
        for fragment, cue in rules.index.infix:
            if fragment in lowered:
                reading.add(cue.family, cue.text)
    return reading
