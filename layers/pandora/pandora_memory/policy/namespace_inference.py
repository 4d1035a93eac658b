"""Chooses the namespace: an explicit one always wins; otherwise clear fiction cues mean `au`.

The fiction cues are exactly those `find_cues(normalise(text), cues)` finds, found faster:

- Wherever a cue matches, each of its words stands as a whole word of the text, so a word test
  comes first and only the cues whose words the text holds go on to the regex; most turns hold
  none. The words are split_words' reading, which the caller may already have for the message,
  together with its normalised text (a `ReadText`).
- The regex runs over the lower-cased text without normalise()'s whitespace collapsing: between
  the words of a cue it takes any run of whitespace, and reports the run as one space.
- Each cue opens with its first word as a literal and checks the character before that word with
  a lookbehind placed after it. The regex engine can then jump from one occurrence of the word to
  the next, where a leading lookbehind would have it try every position of the text.

The last two hold for cues made of words with single spaces between them; a lexicon holding
anything else is scanned the plain way.
"""

import re
import unicodedata
from collections.abc import Set
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from pandora_memory.namespaces import Namespace, parse_namespace
from pandora_memory.policy.retrieve_lexicon import split_words
from pandora_memory.policy.rules import section
from pandora_memory.policy.text import find_cues, normalise, unify_typography

# What the cue regex counts as a word: a run of word characters.
_WORD_RUN = re.compile(r"\w+")
_WHITESPACE_RUN = re.compile(r"\s+")


# A NamedTuple: built on every turn, and a frozen dataclass is slow to build.
class NamespaceChoice(NamedTuple):
    namespace: Namespace
    explicit: bool
    cues: tuple[str, ...]

    def explain(self) -> str:
        if self.explicit:
            return f"namespace {self.namespace} given by caller"
        if self.cues:
            return f"namespace inferred as {self.namespace} from fiction cues {list(self.cues)}"
        return f"namespace inferred as {self.namespace} (no fiction cues)"


class ReadText(NamedTuple):
    """A whole text the caller has already normalised (NFKC, quotes and dashes, whitespace, lower
    case) and split into words with split_words."""

    lowered: str
    words: Set[str]


@dataclass(frozen=True)
class _FictionLexicon:
    cues: tuple[str, ...]
    # The words of each cue that split_words keeps wherever they stand as whole words: all but an
    # "s" or "t" that can follow an apostrophe ("kael's") and words holding an underscore.
    needed_words: tuple[frozenset[str], ...]
    # One needed word of each cue, its longest: the cues whose key word a text lacks are out.
    key_of: tuple[str, ...]
    key_words: frozenset[str]
    fast: bool  # every cue is words with single spaces between them


def _kept_by_split_words(word: str) -> bool:
    return split_words(f"'{word}") == [word]


@cache
def _fiction_lexicon() -> _FictionLexicon:
    rules = section("namespace")
    cues = tuple([*rules["au_cues"], *rules["au_names"]])
    needed = tuple(frozenset(filter(_kept_by_split_words, _WORD_RUN.findall(cue.lower()))) for cue in cues)
    fast = all(needed) and all(" ".join(cue.split()) == cue for cue in cues)
    keys = tuple(min(words, key=lambda word: (-len(word), word)) if words else "" for words in needed)
    return _FictionLexicon(cues, needed, keys, frozenset(keys), fast)


def _lowered(text: str) -> str:
    """normalise() without its whitespace collapsing: NFKC, quotes and dashes, lower case."""
    if text.isascii():  # plain ASCII is its own NFKC form and holds no typographic marks
        return text.lower()
    # normalise()'s replacements can put quotes and dashes within a cue's reach.
    return unify_typography(unicodedata.normalize("NFKC", text)).lower()


def _alternative(cue: str) -> str:
    """re.escape(cue) with `\\s+` for its spaces, the lookbehind slipped in after the first word."""
    first, *rest = re.escape(cue).split(r"\ ")
    width = len(cue.partition(" ")[0])
    return r"\s+".join([rf"{first}(?<!\w.{{{width}}})", *rest])


@lru_cache(maxsize=64)  # bounded: the cues that pass the word test vary from text to text
def _cue_regex(cues: tuple[str, ...]) -> re.Pattern[str]:
    """text.cue_pattern's regex (longest cue first, whole words only), each cue opening with its
    first word."""
    ordered = sorted({cue.lower() for cue in cues}, key=lambda cue: (-len(cue), cue))
    return re.compile(f"(?:{'|'.join(map(_alternative, ordered))})(?!\\w)")


def _find(lowered: str, cues: tuple[str, ...]) -> list[str]:
    """text.find_cues: the distinct cues in order of appearance, whitespace runs as one space."""
    found: list[str] = []
    for match in _cue_regex(cues).finditer(lowered):
        cue = _WHITESPACE_RUN.sub(" ", match.group(0))
        if cue not in found:
            found.append(cue)
    return found


def _fiction_cues(texts: list[str], first_read: ReadText | None) -> list[str]:
    lexicon = _fiction_lexicon()
    if not lexicon.fast:
        return find_cues(normalise(" ".join(texts)), lexicon.cues)
    if not texts:
        return []
    first = first_read or _read(texts[0])
    others = [_read(text) for text in texts[1:]]
    other_words = set().union(*(other.words for other in others))
    keys = lexicon.key_words.intersection(first.words)
    if other_words:
        keys |= lexicon.key_words.intersection(other_words)
    if not keys:  # most texts
        return []
    possible = tuple(
        cue
        for cue, key, needed in zip(lexicon.cues, lexicon.key_of, lexicon.needed_words, strict=True)
        if key in keys and (needed <= first.words or needed.difference(first.words) <= other_words)
    )
    if not possible:
        return []
    # A cue that matches nowhere never changes where the others match: leaving it out of the regex
    # changes nothing but the time the scan takes. The texts stay apart by a space, as joined.
    return _find(" ".join([first.lowered, *(text.lowered for text in others)]), possible)


def _read(text: str) -> ReadText:
    lowered = _lowered(text)
    return ReadText(lowered, set(split_words(lowered)))


def choose_namespace(
    namespace: object, *texts: str | None, first_read: ReadText | None = None
) -> NamespaceChoice:
    """Raises UnknownNamespaceError for anything but None, `real_life` or `au`.

    `first_read`: the first text as the caller has already read it, which spares reading it again.
    """
    if namespace is not None:
        return _given(namespace)
    present = [t for t in texts if t]
    cues = _fiction_cues(present, first_read if texts and texts[0] else None)
    if not cues:
        return _NO_FICTION
    return NamespaceChoice(Namespace.AU, explicit=False, cues=tuple(cues))


# The choices that never vary, built once: Enum lookups by value run Python code on every call.
_GIVEN = {namespace.value: NamespaceChoice(namespace, explicit=True, cues=()) for namespace in Namespace}
_NO_FICTION = NamespaceChoice(Namespace.REAL_LIFE, explicit=False, cues=())


def _given(namespace: object) -> NamespaceChoice:
    """parse_namespace's answer (and its error) for the namespace given."""
    if isinstance(namespace, str):  # a Namespace too: its value is itself
        choice = _GIVEN.get(namespace.strip())
        if choice is not None:
            return choice
    return NamespaceChoice(parse_namespace(namespace), explicit=True, cues=())
