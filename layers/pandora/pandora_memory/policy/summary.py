"""The one line a reviewer reads: type label plus the user's own words, minus chat filler, bounded.

Built only from already-redacted clauses, so a credential can never reach it.
"""

import re
from collections.abc import Sequence

from pandora_memory.policy.candidate_rules import CandidateRules
from pandora_memory.policy.clauses import Clause

_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,!?;:])")
_REPEATED_PUNCTUATION = re.compile(r"([!?.,])\1+")
# Cheap tests for when the two fixes above have anything to do (a regex that opens with a space
# class or a group is tried at every character; these skip ahead to punctuation).
_PUNCTUATION_AFTER_SPACE = re.compile(r"[.,!?;:](?<=\s.)")
_DOUBLED_PUNCTUATION = ("!!", "??", "..", ",,")
_LEADING_PUNCTUATION = re.compile(r"[\s.,;:!?-]+")  # matched at the start only
_ELLIPSIS = "…"
# Emoji, pictographs and the joiners/selectors that build them say nothing a reviewer needs.
_SYMBOLS = re.compile("[\u2190-\u2bff\u2600-\u27bf\ufe00-\ufe0f\u200d\U0001f000-\U0001faff]")


def _clause_body(clause: Clause, rules: CandidateRules) -> str:
    text = clause.text
    if clause.label:
        labelled = rules.mood.label_prefix.match(text)
        text = text[labelled.end() :] if labelled else text
    if not rules.summary_filler_words.isdisjoint(clause.tokens):
        text = rules.summary_fillers.sub("", text)
    leading = _LEADING_PUNCTUATION.match(text)
    text = (text[leading.end() :] if leading else text).strip()
    if text and text[-1] not in ".!?:;,":
        text += "."
    return text


def summarise(label: str, clauses: Sequence[Clause], rules: CandidateRules) -> str:
    limit = rules.summary_max_chars
    pieces: list[str] = []
    length = 0
    for clause in clauses:
        body = _clause_body(clause, rules)
        if body:
            pieces.append(body)
            length += len(body) + 1
        if length > limit:
            break
    text = " ".join(pieces)
    if not text.isascii():
        text = _SYMBOLS.sub("", text)
    if _PUNCTUATION_AFTER_SPACE.search(text):
        text = _SPACE_BEFORE_PUNCTUATION.sub(r"\1", text)
    if any(map(text.__contains__, _DOUBLED_PUNCTUATION)):
        text = _REPEATED_PUNCTUATION.sub(r"\1", text)
    text = " ".join(text.split())
    if text:
        text = text[0].upper() + text[1:]
    line = f"{label}: {text}" if label and text else text or label
    return truncate(line, limit)


def truncate(line: str, limit: int) -> str:
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:") + _ELLIPSIS
