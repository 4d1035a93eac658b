"""A login and its password written as one pair: "admin:Frost1ng", "root / Tr1cky!",
"mina@example.com / Kettle99".

No credential word is needed: a default account name (admin, root, pi, sa...) or an email address
says what the other half is. Image tags (postgres:16-alpine), paths (root/.ssh) and scopes
(admin:read) are not pairs.
"""

import re
from collections.abc import Iterator

from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.lexicon import DEFAULT_USERS
from pandora_memory.secrets.values import (
    has_digit,
    has_password_shape,
    is_dismissed,
    is_public_identifier,
    strip_value,
    value_span,
)

PRIORITY = 2
# Matched on the lower-cased text, led by the literal names (the engine jumps between their first
# letters); the character before a name is checked afterwards.
_PAIR = re.compile(
    "(?:" + "|".join(sorted(map(re.escape, DEFAULT_USERS), key=len, reverse=True)) + ")"
    r"(?P<separator>[ \t]*/[ \t]*|:)(?P<value>[^\s\"'`<>,;]{4,128})"
)
_GLUED = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_@.-/")
# Version-led values are image tags or releases: 16-alpine, 22.04, 8.11.1-jdk.
_VERSION_LED = re.compile(r"v?\d+(?:[.\-_][a-z0-9]+)*", re.IGNORECASE)
# Lower-case word chains are scopes and names: admin:read_org, admin:repo_hook.
_WORD_CHAIN = re.compile(r"[a-z]+(?:[_\-][a-z]+)*")
# Literal triggers: the account names ("administrator" holds "admin").
NEEDLES = tuple(sorted(user for user in DEFAULT_USERS if not any(o in user for o in DEFAULT_USERS - {user})))
# An email address, then " / " or " : " (spaced, so "a@b.c:443" stays a host) and the password.
# Each part is bounded, so a long run of word characters costs a bounded scan per position.
_EMAIL_PAIR = re.compile(
    r"(?<![\w.+\-])[\w.+\-]{1,64}@[\w\-]{1,63}(?:\.[\w\-]{1,63}){1,6}"
    r"[ \t]*(?:/|[ \t]:|\|)[ \t]*(?P<value>[^\s\"'`<>,;]{4,128})"
)
EMAIL_NEEDLES = ("@",)
# "her netflix login is her email + mmwshW296", "ines's netflix is her email and marmelada2000": the
# account named by the word for it, then the password. Only a value with a digit counts ("my email and
# Slack" is no pair).
_ACCOUNT_WORD_PAIR = re.compile(
    r"\b(?:e-?mail(?:[ \t]+address)?|gmail|username|user[ \t]name|phone[ \t]number)"
    r"[ \t]*(?:\+|&|/|,|\band\b|\bplus\b)[ \t]*(?:(?:the[ \t]+)?(?:password|pw|pass)[ \t]+)?"
    r"(?P<value>[^\s\"'`<>,;]{6,64})",
    re.IGNORECASE,
)
ACCOUNT_WORD_NEEDLES = ("mail", "username", "user name", "phone number")
# "sophie.tricote / Pelote2023$", "Fourviere_Guest / BienvenueLyon69": any login, a slash with spaces
# around it (a path has none), then a password with a digit and a capital or symbol.
_SPACED_SLASH_PAIR = re.compile(
    r"(?<![\w./\-])[A-Za-z][\w.\-]{2,39}[ \t]+/[ \t]+(?P<value>[^\s\"'`<>,;/]{6,64})"
)
SPACED_SLASH_NEEDLES = (" / ",)


def _password_shaped(value: str) -> bool:
    """Letters with a digit, symbol or case mix; or digits with a symbol (040@9893), not a port."""
    if has_password_shape(value):
        return True
    return value.isascii() and has_digit(value) and not value.isalnum() and not _VERSION_LED.fullmatch(value)


def _could_be_password(value: str) -> bool:
    """The second half of either pair: password-shaped, and no placeholder, hash or public id."""
    return _password_shaped(value) and not is_dismissed(value) and not is_public_identifier(value)


def default_user_pairs(text: str) -> Iterator[Candidate]:
    lowered = text.lower()
    if len(lowered) != len(text):  # a few letters lower-case to two: keep offsets, give up the case
        lowered = "".join(char if len(char.lower()) != 1 else char.lower() for char in text)
    for match in _PAIR.finditer(lowered):
        if match.start() > 0 and lowered[match.start() - 1] in _GLUED:
            continue
        raw = text[match.start("value") : match.end("value")]
        start, end = strip_value(raw)
        value = raw[start:end]
        if any(char in value for char in "/:\\") or value.startswith((".", "~", "$", "%")):
            continue
        if _VERSION_LED.fullmatch(value) or _WORD_CHAIN.fullmatch(value) or not _could_be_password(value):
            continue
        if match.group("separator") == "/" and value.isalnum():
            continue  # admin/Dashboard2 is a path; root/Tr1cky!9 and admin / Zebra7714 are pairs
        offset = match.start("value")
        yield Candidate("password", offset + start, offset + end, "default-user-pair", PRIORITY)


def email_pairs(text: str) -> Iterator[Candidate]:
    for match in _EMAIL_PAIR.finditer(text):
        start, end, value = value_span(match)
        if _could_be_password(value):
            yield Candidate("password", start, end, "email-pair", PRIORITY)


def account_word_pairs(text: str) -> Iterator[Candidate]:
    for match in _ACCOUNT_WORD_PAIR.finditer(text):
        start, end, value = value_span(match)
        if not (has_digit(value) and has_password_shape(value)) or not _could_be_password(value):
            continue
        if not _VERSION_LED.fullmatch(value):
            yield Candidate("password", start, end, "account-word-pair", PRIORITY)


def spaced_slash_pairs(text: str) -> Iterator[Candidate]:
    for match in _SPACED_SLASH_PAIR.finditer(text):
        start, end, value = value_span(match)
        if not has_digit(value) or _VERSION_LED.fullmatch(value) or not _could_be_password(value):
            continue
        if not (value.isalnum() and value.islower()):  # "react / nextjs14" names two things
            yield Candidate("password", start, end, "spaced-slash-pair", PRIORITY)
