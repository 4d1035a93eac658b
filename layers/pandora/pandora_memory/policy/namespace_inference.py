"""Chooses the namespace: an explicit one always wins; otherwise clear fiction cues mean `au`.

The fiction cues are exactly those `find_cues(normalise(text), cues)` finds, found faster. Wherever
a cue matches, each of its words stands as a whole word of the text, so a word test comes first:
only the cues whose words the text holds are handed to the cue regex, and most turns hold none.
The words come from split_words, the retrieve policy's own reading, which the caller may already
have for the message. The regex then runs over the lower-cased text without normalise()'s
whitespace collapsing: it takes any run of whitespace between the words of a cue and reports the
run as one space, so it finds the same cues at the same places.
"""

import re
import unicodedata
from collections.abc import Set
from dataclasses import dataclass
from functools import cache, lru_cache

from pandora_memory.namespaces import Namespace, parse_namespace
from pandora_memory.policy.retrieve_lexicon import split_words
from pandora_memory.policy.rules import section
from pandora_memory.policy.text import cue_pattern, find_cues, normalise

# What the cue regex counts as a word: a run of word characters.
_WORD_RUN = re.compile(r"\w+")
_WHITESPACE_RUN = re.compile(r"\s+")
# normalise()'s replacements, which can put quotes and dashes within a cue's reach.
_TYPOGRAPHY = (
    ("\u2019", "'"),
    ("\u2018", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u2014", " - "),
    ("\u2013", " - "),
)


@dataclass(frozen=True)
class NamespaceChoice:
    namespace: Namespace
    explicit: bool
    cues: tuple[str, ...]

    def explain(self) -> str:
        if self.explicit:
            return f"namespace {self.namespace} given by caller"
        if self.cues:
            return f"namespace inferred as {self.namespace} from fiction cues {list(self.cues)}"
        return f"namespace inferred as {self.namespace} (no fiction cues)"


@dataclass(frozen=True)
class _FictionLexicon:
    cues: tuple[str, ...]
    # The words of each cue that split_words keeps whenever they stand as whole words: all but an
    # "s" or "t" that can follow an apostrophe ("kael's") and words holding an underscore.
    needed_words: tuple[frozenset[str], ...]
    # The word test and the whitespace-blind regex hold for cues made of words with single spaces
    # between them; anything else (a cue of punctuation, a tab, an edge space) is scanned plainly.
    fast: bool


def _kept_by_split_words(word: str) -> bool:
    return split_words(f"'{word}") == [word]


@cache
def _fiction_lexicon() -> _FictionLexicon:
    rules = section("namespace")
    cues = tuple([*rules["au_cues"], *rules["au_names"]])
    needed = tuple(frozenset(filter(_kept_by_split_words, _WORD_RUN.findall(cue.lower()))) for cue in cues)
    fast = all(needed) and all(" ".join(cue.split()) == cue for cue in cues)
    return _FictionLexicon(cues, needed, fast)


def _lowered(text: str) -> str:
    """normalise() without its whitespace collapsing: NFKC, quotes and dashes, lower case."""
    if text.isascii():  # plain ASCII is its own NFKC form and holds no typographic marks
        return text.lower()
    text = unicodedata.normalize("NFKC", text)
    for typographic, plain in _TYPOGRAPHY:
        if typographic in text:
            text = text.replace(typographic, plain)
    return text.lower()


# The cue regex of a few cues, as text.cue_pattern builds it; bounded, as cue subsets vary.
_cue_regex = lru_cache(maxsize=64)(cue_pattern.__wrapped__)


def _find(lowered: str, cues: tuple[str, ...]) -> list[str]:
    """text.find_cues with a bounded cache of regexes."""
    found: list[str] = []
    for match in _cue_regex(cues).finditer(lowered):
        cue = _WHITESPACE_RUN.sub(" ", match.group(0))
        if cue not in found:
            found.append(cue)
    return found


def _fiction_cues(texts: list[str], words_of_first: Set[str] | None) -> list[str]:
    lexicon = _fiction_lexicon()
    joined = " ".join(texts)
    if not lexicon.fast:
        return find_cues(normalise(joined), lexicon.cues)
    words = _words(texts, words_of_first)
    possible = tuple(
        cue for cue, needed in zip(lexicon.cues, lexicon.needed_words, strict=True) if needed <= words
    )
    # A cue that matches nowhere never changes where the others match: leaving it out of the regex
    # changes nothing but the time the scan takes.
    return _find(_lowered(joined), possible) if possible else []


def _words(texts: list[str], words_of_first: Set[str] | None) -> Set[str]:
    if words_of_first is None:
        return {word for text in texts for word in split_words(_lowered(text))}
    if len(texts) == 1:
        return words_of_first
    return {*words_of_first, *(word for text in texts[1:] for word in split_words(_lowered(text)))}


def choose_namespace(
    namespace: object, *texts: str | None, words_of_first: Set[str] | None = None
) -> NamespaceChoice:
    """Raises UnknownNamespaceError for anything but None, `real_life` or `au`.

    `words_of_first`: when the caller has them, the words split_words reads in the whole of the
    first text once normalised (NFKC, quotes and dashes, whitespace, lower case); they spare a pass.
    """
    if namespace is not None:
        return NamespaceChoice(parse_namespace(namespace), explicit=True, cues=())
    present = [t for t in texts if t]
    cues = _fiction_cues(present, words_of_first if texts and texts[0] else None)
    chosen = Namespace.AU if cues else Namespace.REAL_LIFE
    return NamespaceChoice(chosen, explicit=False, cues=tuple(cues))
