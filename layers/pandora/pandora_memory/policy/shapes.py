"""Shapes of single tokens ("v0.9.1", "07:00", "us-east-1", "LOG_LEVEL", "pandora.dev"), found in one pass.

Shapes say "this is a version / a time / an identifier" without a regex scanning the whole message per
idea; rules.toml maps each shape to the memory types it supports.
"""

import re
from collections.abc import Sequence
from itertools import filterfalse

NUMBER = "number"
CAPITALISED = "capitalised"
IDENTIFIER = "identifier"
UPPER_IDENTIFIER = "upper_identifier"
DOMAIN = "domain"
VERSION = "version"
CLOCK = "clock"
CLOUD_REGION = "cloud_region"
ENVIRONMENT_SUFFIX = "environment_suffix"
DURATION = "duration"
METRIC = "metric"
LONG_NUMBER = "long_number"
CONFIG_ASSIGNMENT = "config_assignment"

_REGION = re.compile(
    r"(?:us|eu|ap|sa|ca|me|af)-(?:north|south|east|west|central|northeast|southeast|northwest|southwest)-\d"
)
_ENVIRONMENTS = ("-prod", "-production", "-staging", "-dev")
# One pass per numeric token; the group that matched names the shape. A long number is an ID, account
# or card number: a Korean resident number (6-7), a US SSN or Korean business number (3-2-4/5), 12 to
# 19 digits, a card's four groups of four, or a bank account or phone number in three groups
# ("110-482-739201", "010-4821-7730"; not a date: its first groups are short).
_NUMBER_SHAPE = re.compile(
    r"(?P<version>v?\d+(?:\.\d+)+(?:\.x)?)"
    r"|(?P<clock>\d{1,2}(?::\d{2})?(?:am|pm)|\d{1,2}:\d{2})"
    r"|(?P<duration>\d+(?:ms|s|mb|gb|kb|days|d|h|min|mins))"
    r"|(?P<metric>\d+(?:\.\d+)?k)"
    r"|(?P<long_number>\d{6}-\d{7}|\d{3}-\d{2}-\d{4,5}|\d{12,19}|(?:\d{4}-){3}\d{4}|\d{3,6}-\d{3,6}-\d{4,8})"
)
_DIGIT = re.compile(r"\d")
# "TZ=UTC", "LOG_LEVEL = info": an upper-case key given a value (read on the case-kept text).
_CONFIG_ASSIGNMENT = re.compile(r"(?<![\w=])[A-Z][A-Z0-9_]+\s?=\s?[\w\"'/.-]")
_NO_SHAPES: frozenset[str] = frozenset()
# Fillers may precede the subject ("ok so Riven..."); "the"/"a" may too ("the Tidewardens...").
_CHARACTER_OPENING = re.compile(
    r"^(?:(?i:ok|so|and|but|also|btw|fyi|oh|well|lol|canon)[\s,:]+)*(?:(?i:the|a)\s+)?([A-Z][a-z][\w'-]*)"
)
# A capitalised word after the first one: a name, a product, a place ("I" alone does not count).
_INNER_CAPITAL = re.compile(r" [A-Z][a-z]")


def token_shapes(
    text: str, lowered: str, tokens: Sequence[str], top_level_domains: frozenset[str]
) -> frozenset[str]:
    """Shapes present in a clause: `text` case-kept, `lowered` its lower case, `tokens` its words."""
    found: set[str] = set()
    if _INNER_CAPITAL.search(text):
        found.add(CAPITALISED)
    if "=" in text and _CONFIG_ASSIGNMENT.search(text):
        found.add(CONFIG_ASSIGNMENT)
    has_digit = _DIGIT.search(lowered) is not None  # one scan of the clause, not one per token
    for token in filterfalse(str.isalpha, tokens):  # most words are plain letters: skipped in C
        if "_" in token:
            at = lowered.find(token)
            original = text[at : at + len(token)] if at >= 0 else token
            found.add(UPPER_IDENTIFIER if original.isupper() else IDENTIFIER)
        if "." in token and token.rsplit(".", 1)[1] in top_level_domains:
            found.add(DOMAIN)
        if "-" in token:
            if token.endswith(_ENVIRONMENTS):
                found.add(ENVIRONMENT_SUFFIX)
            if _REGION.fullmatch(token):
                found.add(CLOUD_REGION)
        if has_digit and _DIGIT.search(token):
            found.add(NUMBER)
            shaped = _NUMBER_SHAPE.fullmatch(token)
            if shaped is not None and shaped.lastgroup:
                found.add(shaped.lastgroup)
    return frozenset(found) if found else _NO_SHAPES


def opens_with_character(text: str, not_names: frozenset[str], common_openers: frozenset[str]) -> bool:
    """ "Riven touches...", "the Tidewardens never...": a capitalised subject opens the clause; a common
    word capitalised only because it opens the sentence ("Just a thought", "Give me...") does not."""
    opening = _CHARACTER_OPENING.match(text)
    if opening is None:
        return False
    word = opening.group(1).split("'")[0]
    return word not in not_names and word.lower() not in common_openers
