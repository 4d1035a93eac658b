"""Values that say what they are with no word beside them, in any language.

The context rules and the safety net need a credential word to know a value is one, and a language
they have no words for starts with no protection. Some shapes need none: digits closed by a keypad's
# or * key ("4719#", "#7070*"; "#8676" alone is an issue or an order as often) or typed before its
button ("1357 then the green button"), a password built the way sites ask for one, lower and upper
case, a digit and a symbol inside the word ("LineOA@Sabai67", "Front@1234"), and letters with two or
more digits closed by a symbol ("Mabolo1988!", "nzBnF63Brera!"). None occurs in ordinary text: over
every labeled set, tens of thousands of lines, they are found only on lines that hold a credential.
Generated keys of the built shape are long base64 (SSH public keys, inline images): the length cap and
the neighbours a base64 run has (+, /, =) leave them to the rules that know them.
"""

import re
from collections.abc import Iterator

from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.values import YEAR, is_dismissed

PRIORITY = 4
RULE = "self-evident-value"
# Closed by # or * ("4719#", "#7070*", "1-9-8-5-#"), or opened by * ("*2580 then the green button").
_KEYED_CODE = re.compile(r"(?<![\w#*.])(?:#?\d(?:[- ]?\d){3,9}-?[#*]|\*\d{4,10})(?![\w#*]|\.\d)")
# Digits typed before a keypad's button ("it's 1357 then the green button", "0613 then the key symbol").
_CODE_THEN_BUTTON = re.compile(
    r"(?<![\w.,/:-])\d{4,8}(?=,?\s+(?:then|and then|followed by|\+)\s+(?:the\s+|press\s+|hit\s+|push\s+)?"
    r"(?:\w+\s+){0,2}(?:button|key|bell|icon|symbol|star|hash|pound|enter|ok|tick|check)\b)"
)
_SYMBOLS = "!@#$%^*?~"
_PASSWORD_CHARACTERS = rf"[A-Za-z0-9{_SYMBOLS}]"
# Not after a sigil or inside a path, a key=value or a base64 run; not an e-mail address (a dot after).
_BUILT_PASSWORD = re.compile(
    rf"(?<![\w$@#%^&*!/\\.:=+\-])"
    rf"(?=(?:{_PASSWORD_CHARACTERS})*?[a-z])(?=(?:{_PASSWORD_CHARACTERS})*?[A-Z])(?=(?:{_PASSWORD_CHARACTERS})*?\d)"
    rf"[A-Za-z0-9]+[{_SYMBOLS}]+[A-Za-z0-9]{_PASSWORD_CHARACTERS}*"
    rf"(?![\w$@#%^&*!/\\=+\-]|\.\w)"
)
# Letters and two or more digits closed by a symbol, the commonest way a site's rules are met
# ("Mabolo1988!", "sabai2024!", "nzBnF63Brera!"); "?" closes questions as often.
_CLOSED_PASSWORD = re.compile(
    r"(?<![\w$@#%^&*!/\\.:=+\-])(?=(?:[A-Za-z0-9]*?[A-Za-z]){3})(?=(?:[A-Za-z0-9]*?\d){2})"
    r"[A-Za-z0-9]{5,}[!@#$%^*~]+(?![\w$@#%^&*!/\\=+\-]|\.\w)"
)
_DIGIT_THEN_SYMBOL = re.compile(r"\d[A-Za-z0-9]*[!@#$%^*~]")
# An identifier named right before the value: an IFC GlobalId ("Ck2Sq0VoS$0EVkL2PnthGe") is random
# and uses $ as a digit.
_NAMED_AN_ID = re.compile(
    r"(?i:\b(?:id|guid|globalid|uuid|ulid|hash|sha|commit|ref|reference|sku))(?:\W{1,3}\w+){0,2}\W{0,3}$"
)
BUILT_PASSWORD_LENGTH = range(8, 41)
# The cheap test first: almost no message has a symbol between two letters or digits.
_INNER_SYMBOL = re.compile(rf"[A-Za-z0-9][{_SYMBOLS}]+[A-Za-z0-9]")


def self_evident_candidates(text: str) -> Iterator[Candidate]:
    if "#" in text or "*" in text:
        for match in _KEYED_CODE.finditer(text):
            yield Candidate("pin", match.start(), match.end(), RULE, PRIORITY)
    if " then " in text or " followed by " in text or " + " in text:
        for match in _CODE_THEN_BUTTON.finditer(text):
            if YEAR.fullmatch(match.group()) is None:  # "in 2024 then the key question is..."
                yield Candidate("pin", match.start(), match.end(), RULE, PRIORITY)
    if _INNER_SYMBOL.search(text) is not None:
        yield from _passwords(_BUILT_PASSWORD, text)
    if _DIGIT_THEN_SYMBOL.search(text) is not None:
        yield from _passwords(_CLOSED_PASSWORD, text)


def _passwords(pattern: re.Pattern[str], text: str) -> Iterator[Candidate]:
    for match in pattern.finditer(text):
        value = match.group()
        if len(value) not in BUILT_PASSWORD_LENGTH or is_dismissed(value):
            continue
        if _NAMED_AN_ID.search(text, max(0, match.start() - 32), match.start()) is None:
            yield Candidate("password", match.start(), match.end(), RULE, PRIORITY)
