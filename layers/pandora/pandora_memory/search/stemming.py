"""A small English suffix stripper: enough to meet 'deploys', 'deployed' and 'deploying' at 'deploy'.

It only has to be consistent (documents and queries go through the same function), not to produce
dictionary words: 'release', 'released' and 'releasing' all become 'releas'.
"""

from functools import lru_cache

_VOWELS = frozenset("aeiouy")
# Doubled final consonants that a suffix created ('shipped' -> 'shipp'); ll, ss and zz are kept.
_UNDOUBLE = frozenset("bdgkmnprt")


def _has_vowel(stem: str) -> bool:
    return any(letter in _VOWELS for letter in stem)


def _undouble(stem: str) -> str:
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] in _UNDOUBLE:
        return stem[:-1]
    return stem


def _strip_plural(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _strip_verb_suffix(word: str) -> str:
    for suffix in ("ing", "ed"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and _has_vowel(stem):
            stem = _undouble(stem)
            return stem[:-1] + "y" if stem.endswith("i") else stem
    return word


def _strip_noun_suffix(word: str) -> str:
    if word.endswith(("tion", "sion")) and len(word) - 3 >= 4:
        return word[:-3]  # resurrection -> resurrect, like resurrected
    if word.endswith("ment") and len(word) - 4 >= 5:
        return word[:-4]
    if word.endswith("ly") and len(word) - 2 >= 4:
        return word[:-2]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Stem of a lower-case ASCII word; other words come back unchanged."""
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    word = _strip_noun_suffix(_strip_verb_suffix(_strip_plural(word)))
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word
