"""Small text helpers shared by the policies: normalisation and whole-word cue matching."""

import re
import unicodedata
from collections.abc import Iterable
from functools import cache


def normalise(text: str) -> str:
    """Lower-case, unify quotes and dashes, collapse whitespace: what the cue lexicons match against."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2014", " - ").replace("\u2013", " - ")
    return re.sub(r"\s+", " ", text).strip().lower()


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
