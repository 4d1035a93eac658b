"""Builds the retrieve policy's regexes from rules.toml so that `re` can skip ahead while searching.

Python's regex engine jumps straight to candidate positions only when a pattern opens with a
literal or a character set; a pattern opening with a lookbehind, an alternation of classes or a
repeat is tried at every position of the text. These builders keep each pattern's meaning and
reshape only how it opens.
"""

import re
from collections.abc import Iterable, Mapping
from typing import Any

IN_CHAT_FOLLOWUP = "in_chat_followup"
SHAPES = ("generic_question", "concept_question", "third_person", "relayed_question", "math", "trivia")
_NEVER = r"(?!x)x"
# How a math pattern may open, and the check that stands in for it once the opening character has
# been taken by the shared character set.
_DIGIT_OR_CARET_OPENERS = ((r"\d", r"(?<=\d)"), (r"\^", r"(?<=\^)"))
_QUANTIFIERS = ("*", "+", "?", "{")


def clause_shapes(shape: Mapping[str, Any]) -> re.Pattern[str]:
    """One regex, one named group per shape, matched at each clause start after a lead-in."""
    groups = [
        f"(?P<{name}>{'|'.join(f'(?:{p})' for p in shape[name])})"
        for name in (*SHAPES, IN_CHAT_FOLLOWUP)
        if shape.get(name)
    ]
    return re.compile(f"{shape['lead']}(?:{'|'.join(groups)})")


def any_of(patterns: Iterable[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns) or _NEVER)


def digit_led_any_of(patterns: Iterable[str]) -> re.Pattern[str]:
    r"""`any_of`, for patterns that each open with `\d` or `\^`: the search then visits only digits
    and carets. `[\d^]` takes the opening character and a lookbehind checks it was the one the
    alternative opens with, so every alternative matches exactly where and what it did before.
    A pattern opening any other way (or with a repeated opener) falls back to `any_of`."""
    patterns = list(patterns)
    alternatives: list[str] = []
    for pattern in patterns:
        for opener, check in _DIGIT_OR_CARET_OPENERS:
            rest = pattern[len(opener) :]
            if pattern.startswith(opener) and not rest.startswith(_QUANTIFIERS) and not _branches(pattern):
                alternatives.append(f"(?:{check}{rest})")
                break
        else:
            return any_of(patterns)
    return re.compile(rf"[\d^](?:{'|'.join(alternatives)})") if alternatives else re.compile(_NEVER)


def underscore_join(pattern: str) -> re.Pattern[str]:
    """The snake_case test, `<class>_<class>` in the rules. Only whether it occurs anywhere is
    used, so the search opens on the underscore (a literal the engine jumps to) and checks what
    stands before it with a lookbehind: a text holds one form exactly when it holds the other."""
    before, underscore, after = pattern.partition("_")
    if underscore and before.startswith("[") and before.endswith("]") and "_" not in before + after:
        try:
            return re.compile(f"_(?<={before}_){after}")
        except re.error:  # not of fixed width: a lookbehind cannot hold it
            pass
    return re.compile(pattern)


def _branches(pattern: str) -> bool:
    """Whether `|` splits the pattern at its top level (outside groups and character sets)."""
    depth, position, in_set = 0, 0, False
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            position += 2
            continue
        if in_set:
            in_set = char != "]"
        elif char == "[":
            in_set = True
            position += 1
            if pattern[position : position + 1] == "^":
                position += 1
            if pattern[position : position + 1] == "]":  # a "]" opening a set is one of its members
                position += 1
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        position += 1
    return False
