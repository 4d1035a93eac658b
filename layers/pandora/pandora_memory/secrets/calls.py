"""Credentials passed by position in code, where no name says what they are.

    Client('AC…', '<auth token>')            the argument after a provider's account id
    new Stripe('…'), Pusher(id, key, secret) the random-looking arguments of an SDK client
    auth=('svc-bot', '…'), HTTPBasicAuth(u, p), login('admin', '…')   the password of a user pair
    jwt.encode(payload, '…')                 the signing secret
    (api_key, api_secret) = ('…', '…')       tuple assignments, each value under its own name

Each quoted literal of the message is placed in its call (callee, argument position, keyword) by a
short backward scan on its line; only literals inside a credential-shaped call are judged.
"""

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

from pandora_memory.secrets.context_rules import ASSIGNED, acceptable, name_is_secret
from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.heads import find_heads
from pandora_memory.secrets.lexicon import PAIR_CALLS, PAIR_KEYWORDS, SDK_CLIENTS
from pandora_memory.secrets.values import (
    is_dismissed,
    is_plain_language,
    is_public_identifier,
    looks_like_password,
    looks_random,
)

PRIORITY = 1
# Quoted literals that may hold a credential; shorter ones are never judged.
_LITERAL = re.compile(
    r"'(?P<single>[^'\n\\]{4,256})'|\"(?P<double>[^\"\n\\]{4,256})\"|`(?P<tick>[^`\n\\]{4,256})`"
)
# Names that end where a literal or a parenthesis starts are read on the reversed text, where they
# start: an anchored match, where a search for "name$" would retry at every character.
_CALLEE_REVERSED = re.compile(r"[ \t]*(?P<callee>[\w$.]*[A-Za-z_$])")
_KEYWORD_REVERSED = re.compile(r"[ \t]*[=:][ \t]*(?P<keyword>\w*[A-Za-z_])")
_PROVIDER_ID = re.compile(r"(?:AC|SK)[0-9a-fA-F]{32}|(?:AKIA|ASIA)[A-Z0-9]{16}")
_HEX_KEY = re.compile(r"[0-9a-fA-F]{16,128}")
_BODY = re.compile(r"[A-Za-z0-9_\-+/=.~]{16,256}")
# Read from the "=" (found by a literal scan) backwards to the names and forwards to the values.
_TUPLE_VALUES = re.compile(
    r"=[ \t]*\(?[ \t]*(?P<values>(?:'[^'\n]*'|\"[^\"\n]*\")(?:[ \t]*,[ \t]*(?:'[^'\n]*'|\"[^\"\n]*\"))+)"
)
_TUPLE_NAMES_REVERSED = re.compile(
    r"[ \t]*\)?[ \t]*(?P<names>[\w.]*[A-Za-z_](?:[ \t]*,[ \t]*[\w.]*[A-Za-z_])+)"
)
_TUPLE_VALUE = re.compile(r"'(?P<single>[^'\n]*)'|\"(?P<double>[^\"\n]*)\"")
_SCAN_LIMIT = 300


class Place(NamedTuple):
    """Where a literal sits: its call's name (lower-cased, last component), position and keyword."""

    paren: int
    callee: str
    qualified: str
    position: int
    keyword: str


# Every quoted stretch of a line (judged or not), masked before the brackets are read, so that a comma
# or a parenthesis inside a string never counts.
_ANY_LITERAL = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_STRUCTURE = re.compile(r"[()\[\]{},\n]")


def _mask(match: re.Match[str]) -> str:
    return "_" * (match.end() - match.start())


class _Brackets:
    """The brackets, commas and line breaks of a text outside its string literals, in order."""

    def __init__(self, text: str) -> None:
        masked = _ANY_LITERAL.sub(_mask, text)
        self.marks = [(match.start(), match.group()) for match in _STRUCTURE.finditer(masked)]
        self.positions = [position for position, _ in self.marks]

    def place(self, text: str, start: int) -> Place | None:
        """The call (or tuple) holding the literal that opens at `start`, if it is on the same line."""
        depth, index, segment = 0, 0, start
        for mark in range(bisect.bisect_left(self.positions, start) - 1, -1, -1):
            position, char = self.marks[mark]
            if char == "\n" or start - position > _SCAN_LIMIT:
                return None
            if char in ")]}":
                depth += 1
            elif char in "([{":
                if depth == 0:
                    return _placed(text, position, index, segment, start) if char == "(" else None
                depth -= 1
            elif depth == 0:  # a comma between arguments
                index += 1
                if segment == start:
                    segment = position + 1
        return None


def _name_before(pattern: re.Pattern[str], text: str, floor: int, end: int, group: str) -> str:
    """The name that `pattern` (written for reversed text) finds right before `end`, or ""."""
    match = pattern.match(text[floor:end][::-1])
    return match.group(group)[::-1] if match else ""


def _placed(text: str, paren: int, index: int, segment: int, start: int) -> Place:
    segment = paren + 1 if segment == start else segment
    keyword = _name_before(_KEYWORD_REVERSED, text, segment, start, "keyword")
    floor = max(0, paren - 80)
    qualified = _name_before(_CALLEE_REVERSED, text, floor, paren, "callee").lower()
    if not qualified:  # "auth=(...)": a tuple given to a keyword names its role
        tuple_keyword = _name_before(_KEYWORD_REVERSED, text, floor, paren, "keyword").lower()
        qualified = tuple_keyword + "=" if tuple_keyword else ""
    return Place(paren, qualified.rsplit(".", 1)[-1], qualified, index, keyword)


def _key_like(value: str) -> bool:
    """An API key or secret given without a name: random-looking, or a long hex or base64 body."""
    if not _BODY.fullmatch(value) or is_dismissed(value):
        return False
    if _HEX_KEY.fullmatch(value) or _PROVIDER_ID.fullmatch(value):  # a hash elsewhere, a key in this place
        return True
    return looks_random(value) and not is_public_identifier(value)


def _password_like(value: str) -> bool:
    return looks_like_password(value) and not is_dismissed(value) and not is_public_identifier(value)


def _judge(place: Place, value: str, after_provider_id: bool) -> tuple[str, str] | None:
    """(kind, rule) when the literal at `place` is a credential."""
    if place.keyword:  # named arguments are judged by their names (context rules)
        return None
    if place.callee in PAIR_CALLS or place.callee in PAIR_KEYWORDS:
        if place.position == 0:
            return ("api_key", "auth-pair") if _key_like(value) else None
        return ("password", "auth-pair") if _password_like(value) or _key_like(value) else None
    if place.qualified.startswith("jwt.") and place.position == 1:
        return ("jwt_signing_secret", "jwt-signing-secret") if _password_like(value) else None
    if place.callee in SDK_CLIENTS and _key_like(value):
        return "api_key", "sdk-client-argument"
    if after_provider_id and _key_like(value):
        return "api_key", "argument-after-provider-id"
    return None


def call_arguments(text: str) -> Iterator[Candidate]:
    previous: dict[int, str] = {}  # the last literal seen in each call, by its parenthesis
    brackets: _Brackets | None = None
    for match in _LITERAL.finditer(text):
        group = match.lastgroup or "single"
        value = match.group(group)
        if len(value) < 5 or " " in value or (value.isalpha() and value.islower()):
            continue  # 'utf-8', 'GET', 'stripe', prose: never a key or a password (and most literals)
        brackets = brackets or _Brackets(text)
        place = brackets.place(text, match.start())
        if place is None:
            continue
        after_provider_id = _PROVIDER_ID.fullmatch(previous.get(place.paren, "")) is not None
        previous[place.paren] = value
        if is_plain_language(value):
            continue
        judged = _judge(place, value, after_provider_id)
        if judged is not None:
            yield Candidate(judged[0], *match.span(group), judged[1], PRIORITY)


def tuple_assignments(text: str) -> Iterator[Candidate]:
    """(api_key, api_secret) = ('…', '…'): each value judged under the name in its position."""
    for match in _TUPLE_VALUES.finditer(text):
        line_start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - 200)
        names_text = _name_before(_TUPLE_NAMES_REVERSED, text, line_start, match.start(), "names")
        if not names_text:
            continue
        names = [name.strip() for name in names_text.split(",")]
        values = list(_TUPLE_VALUE.finditer(text, match.start("values"), match.end("values")))
        for name, literal in zip(names, values, strict=False):
            heads = find_heads(name, name.lower())
            group = literal.lastgroup or "single"
            value = literal.group(group)
            if heads and name_is_secret(name, heads[-1]) and acceptable(heads[-1].family, value, ASSIGNED):
                yield Candidate("secret", *literal.span(group), "tuple-assignment", PRIORITY)


def positional_credentials(text: str) -> Iterator[Candidate]:
    """Both forms: call arguments and tuple assignments (they share their literal triggers)."""
    yield from call_arguments(text)
    if "=" in text:
        yield from tuple_assignments(text)
