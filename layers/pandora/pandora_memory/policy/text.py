"""Small text helpers shared by the policies: normalisation and whole-word cue matching."""

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

# Korean and Japanese glue particles straight onto Latin words ("vercel로", "Mina한테", "PRを"): the
# word is its own token, so the cues written in Latin letters still find it.
# Kana, CJK ideographs and Hangul syllables, as a regex character-class body.
CJK_LETTERS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3"
# A Latin word (maybe ending in digits, "v1은") before CJK, or CJK before a Latin letter. Digits alone
# stay glued: "2시에" is one time word.
# Each branch opens on the character before the boundary (a set the engine jumps between) instead of a
# lookbehind tried at every position; a match ends where the space goes.
_SCRIPT_BOUNDARY = re.compile(rf"[A-Za-z][0-9]*(?=[{CJK_LETTERS}])|[{CJK_LETTERS}](?=[A-Za-z])")


def split_scripts(text: str) -> str:
    """Puts a space where a Latin word meets Hangul or Japanese; only non-ASCII text needs it."""
    return _SCRIPT_BOUNDARY.sub(_spaced, text)


def split_points(text: str) -> list[int]:
    """Where split_scripts puts its spaces: offsets into `text`, each before the character there."""
    return [match.end() for match in _SCRIPT_BOUNDARY.finditer(text)]


def _spaced(match: re.Match[str]) -> str:
    return match.group() + " "


def normalise(text: str) -> str:
    """Lower-case, unify quotes and dashes, collapse whitespace: what the cue lexicons match against."""
    text = unify_typography(unicodedata.normalize("NFKC", text))
    return re.sub(r"\s+", " ", text).strip().lower()


# Curly quotes and long dashes as the lexicons write them. Replaced one after the other: no replacement
# holds a character a later one replaces, and str.replace beats str.translate, which looks every
# character up in Python.
TYPOGRAPHY = (
    ("\u2019", "'"),
    ("\u2018", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u2014", " - "),
    ("\u2013", " - "),
)


def unify_typography(text: str) -> str:
    for typographic, plain in TYPOGRAPHY:
        if typographic in text:
            text = text.replace(typographic, plain)
    return text


@cache
def cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled alternation per lexicon; longest cues first so phrases beat their words."""
    ordered = sorted({c.lower() for c in cues}, key=len, reverse=True)
    body = "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in ordered) or r"(?!x)x"
    return re.compile(rf"(?<![\w]){'(?:' + body + ')'}(?![\w])")


def find_cues(normalised_text: str, cues: Iterable[str]) -> list[str]:
    """The distinct cues of a lexicon present in already-normalised text, in order of appearance."""
    found: list[str] = []
    for match in cue_pattern(tuple(cues)).finditer(normalised_text):
        cue = re.sub(r"\s+", " ", match.group(0))
        if cue not in found:
            found.append(cue)
    return found
