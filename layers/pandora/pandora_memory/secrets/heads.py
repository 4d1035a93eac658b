"""Find credential nouns ("heads": password, api key, token, 비밀번호...) and what they qualify.

One trie-shaped regex finds every head in a single pass; word boundaries and the qualifier before
the head (``cache`` key, ``door`` code, ``the`` key) are then checked on the few hits in Python.
"""

import re
from typing import NamedTuple

from pandora_memory.markdown.cjk import CJK_RANGES
from pandora_memory.secrets.lexicon import (
    CODE_QUALIFIERS,
    DETERMINERS,
    EMBEDDABLE_HEADS,
    HEAD_FAMILIES,
    LOCK_WORDS,
    OTHER_SCRIPT_KEY_QUALIFIERS,
    PLAIN_CODE_QUALIFIERS,
    PUBLIC_COMPONENTS,
    SELF_QUALIFIED_CODE_WORDS,
    WEAK_QUALIFIERS,
)
from pandora_memory.secrets.trie import trie_pattern
from pandora_memory.secrets.values import is_key_path

# "weak": only a random-looking value nearby counts (the key, cache key, page token).
WEAK = "weak"

# Two tries: the ASCII one keeps the regex engine's first-character fast path and runs on every
# message; the other runs only when the message has non-ASCII text.
_ASCII_HEADS = re.compile(trie_pattern(word for word in HEAD_FAMILIES if word.isascii()))
_OTHER_HEADS = re.compile(trie_pattern(word for word in HEAD_FAMILIES if not word.isascii()))
# The other trie opens with c, h or l for a few words (contraseña, hasło, lösenord), so its scan stops
# at most letters of a mostly Latin text. It can only match where one of these words is a substring
# or where a text holds the first character of one of the rest: two C scans that decide when to run it.
_OTHER_LATIN_LED = tuple(word for word in HEAD_FAMILIES if not word.isascii() and word[0].isascii())
_OTHER_FIRSTS = re.compile(
    "[" + "".join(sorted({re.escape(word[0]) for word in HEAD_FAMILIES if not word[0].isascii()})) + "]"
)


# Korean and Japanese glue particles onto a Latin word ("PIN은", "password는"), and Thai, Lao, Khmer
# and Burmese write no space between words ("รหัสประตู 8520"): a letter of those scripts after a Latin
# head ends it as a space would, and their words need no boundary.
UNSPACED_RANGES = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
GLUED_SCRIPT = re.compile(f"[{CJK_RANGES}{UNSPACED_RANGES}]")
_INFLECTED_MIN = 5
# Letters Arabic ("and", "with", "for") and Hebrew ("the", "and", "in", "to", "that", "from", "as")
# glue onto the next word, two at most ("והסיסמה": and the password).
_GLUED_PREFIXES = frozenset("وفبل" + "הובלשמכ")


class Head(NamedTuple):
    """A credential noun found in the text (a tuple: built for every hit, so kept cheap)."""

    word: str
    family: str
    start: int
    end: int
    latin: bool
    in_identifier: bool


def names_an_entry(text: str, head: Head, value: str) -> bool:
    """ "cache key: menu-v3-8779…", "page token: next-page-…": a weak head's value that is a key path,
    a dashed one only when the head's own qualifier names a lookup (not after "the key")."""
    if head.family != WEAK:
        return False
    return is_key_path(value, lookup_qualified=_qualifier(text, head.start) in WEAK_QUALIFIERS)


def _qualifier(text: str, start: int) -> str | None:
    """The word or identifier component right before a head: "api" in "api key" / "apiKey"."""
    floor = max(0, start - 24)
    end = start
    while end > floor and text[end - 1] in " \t_-.":
        end -= 1
    begin = end
    while begin > floor and text[begin - 1].isascii() and text[begin - 1].isalnum():
        begin -= 1
    return text[begin:end].lower() or None


def _other_script_qualifier(text: str, start: int) -> str | None:
    """ "비밀 키", "アクセスキー": a Korean or Japanese qualifier right before the head reads as "secret"."""
    before = text[max(0, start - 12) : start].rstrip(" \t_-.")
    return "secret" if before.endswith(OTHER_SCRIPT_KEY_QUALIFIERS) else None


def other_script_bounded(text: str, start: int, end: int, word: str) -> bool:
    """A Cyrillic or accented word stands alone at its start ("ключ" is not the one inside "включить");
    a long one may take an inflection ("пароль" in "паролью", "şifre" in "şifremizi"), a short one not
    ("пин" in "пингвин"). Korean and Japanese words glue particles on both sides: always bounded."""
    if GLUED_SCRIPT.match(word[0]):
        return True
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before in _GLUED_PREFIXES:
        first = start - 1
        if first > 0 and text[first - 1] in _GLUED_PREFIXES:
            first -= 1
        if first == 0 or not text[first - 1].isalpha():
            before = " "  # "وكلمة السر", "הסיסמה": a glued "and", "the", "with" is no part of the word
    return not before.isalpha() and (len(word) >= _INFLECTED_MIN or not after.isalpha())


def _bounded(text: str, start: int, end: int, word: str) -> bool:
    """Latin heads must stand alone (or as an identifier component: DB_PASSWORD, apiKey)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    matched = text[start:end]
    if after.isalpha() and (after.islower() or matched.isupper()) and not GLUED_SCRIPT.match(after):
        return False
    # "銀行のPIN 7391": Japanese and Korean glue particles to a Latin word as spaces would stand.
    if not before.isalpha() or word in EMBEDDABLE_HEADS or GLUED_SCRIPT.match(before):
        return True
    return before.islower() and matched[0].isupper()


# "code for the door", "código do alarme", "code de la porte", "code d'accès", "kod do drzwi".
_QUALIFIER_AFTER = re.compile(
    r"[ \t]+(?:(?:for|to|of|on|de|do|da|du|del|della|dello|dei|des|dos|das|di|für|fur|von|vom|zur|zum|"
    r"van|voor|för|till|dla|od|от|для|para|pour|per)[ \t]+"
    r"(?:(?:the|my|our|your|la|le|les|el|los|las|o|a|os|as|il|lo|die|der|das|den|dem|het|de|meu|minha|"
    r"mi|mon|ma|mein|meine|meiner|mio|mia|unser|unsere)[ \t]+|l['’])?"
    r"|(?:d|dell|dall|dello|l)['’])(\w+)"
)
# French, Spanish and Portuguese put the key's qualifier after it ("clé API", "chave secreta"): the
# head then reaches over the qualifier, so the value is read after the whole name.
_KEY_QUALIFIER_AFTER = re.compile(
    r"[ \t]+(?:d['’]|de l['’]|de la |da |do |de |del )?"
    r"(?:api|secr[eè]te|secreta|secreto|priv[ée]e|privada|privado)(?![\w-])"
)
_QUALIFIED_FAMILIES = frozenset({"key", "token", "code"})
_LOCK_LOOKBEHIND = 80
_SENTENCE_END = re.compile(r"[.!?\n]")
_LATIN_WORD = re.compile(r"[a-z]+")
_SELF_QUALIFIED_CODES = frozenset({"otp", "인증번호", "인증코드"})


def _code_qualified(qualifier: str | None, lowered: str, end: int) -> bool:
    """A door code, or a code for the door, or a code in a sentence about a lock ("lockbox at the
    flat for showings, code 9977"); not an error code or a zip code."""
    if qualifier in CODE_QUALIFIERS:
        return True
    after = _QUALIFIER_AFTER.match(lowered, end)
    if after is not None and after.group(1) in CODE_QUALIFIERS:
        return True
    return qualifier not in PLAIN_CODE_QUALIFIERS and _lock_named_before(lowered, end)


def _lock_named_before(lowered: str, end: int) -> bool:
    sentence = _SENTENCE_END.split(lowered[max(0, end - _LOCK_LOOKBEHIND) : end])[-1]
    return not LOCK_WORDS.isdisjoint(_LATIN_WORD.findall(sentence))


def _family(raw_family: str, qualifier: str | None, lowered: str, end: int) -> str | None:
    """The family after the qualifier: key/token/code depend on the word before (or after) them."""
    if qualifier in PUBLIC_COMPONENTS:
        return None
    if raw_family == "code":
        return raw_family if _code_qualified(qualifier, lowered, end) else None
    if raw_family == "key":
        if qualifier is None or qualifier in DETERMINERS or qualifier in WEAK_QUALIFIERS:
            return "token" if _code_qualified(None, lowered, end) else WEAK  # "the key for the wifi"
        return "token"
    if raw_family == "token" and qualifier in WEAK_QUALIFIERS:
        return WEAK
    return raw_family


def _compound_code(text: str, lowered: str, start: int, end: int) -> Head | None:
    """ "Zugangscode", "deurcode": a code word whose first part says what it opens."""
    begin = start
    while begin > 0 and begin > start - 16 and lowered[begin - 1].isalpha():
        begin -= 1
    after = text[end] if end < len(text) else " "
    if after.isalpha() or lowered[begin:end] not in SELF_QUALIFIED_CODE_WORDS:
        return None
    return Head(lowered[begin:end], "pin", begin, end, True, False)


def _head(text: str, lowered: str, word: str, start: int, end: int) -> Head | None:
    latin = word[0].isascii()
    if latin and not _bounded(text, start, end, word):
        if word == "code" and start > 0 and lowered[start - 1].isalpha():
            return _compound_code(text, lowered, start, end)
        return None
    if not latin and not other_script_bounded(lowered, start, end, word):
        return None
    raw_family = HEAD_FAMILIES[word]
    family = raw_family
    if raw_family in _QUALIFIED_FAMILIES and word not in _SELF_QUALIFIED_CODES:
        # Korean and Japanese nouns take English qualifiers too: "api 키", "APIキー".
        qualifier = _qualifier(text, start)
        if qualifier is None and not latin:
            qualifier = _other_script_qualifier(text, start)
        family_or_none = _family(raw_family, qualifier, lowered, end)
        if family_or_none is None:
            return None
        family = family_or_none
        if raw_family == "key":
            qualified_after = _KEY_QUALIFIER_AFTER.match(lowered, end)
            if qualified_after is not None:
                family, end = "token", qualified_after.end()
    if _names_a_variable(text, start):
        return None  # "${DB_PASSWORD:?must be set}": a variable referred to, its default or error after
    before = text[start - 1] if start > 0 else " "
    # "db-password: x" is a name; "WLAN-Passwort ist x" / "wifi-password is x" is prose.
    hyphen_name = before == "-" and text[end : end + 1] != " "
    glued = GLUED_SCRIPT.match(before) is not None
    in_identifier = before in "_.:/" or hyphen_name or (latin and before.isalnum() and not glued)
    return Head(word, family, start, end, latin, in_identifier)


def _names_a_variable(text: str, start: int) -> bool:
    """The head is part of a variable referred to as a value: "${DB_PASSWORD:?must be set}",
    "PGPASSWORD=$DB_PASSWORD". A PHP or Perl variable being assigned ("$password = '…'") is a name."""
    begin = start
    while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
        begin -= 1
    if text[begin - 2 : begin] == "${":
        return True
    return (
        begin > 0
        and text[begin - 1] == "$"
        and text[max(0, begin - 4) : begin - 1].rstrip().endswith(("=", ":"))
    )


def find_heads(text: str, lowered: str) -> list[Head]:
    """Credential nouns of `text`; `lowered` is its lower-cased form with the same length."""
    heads = [
        head
        for match in _ASCII_HEADS.finditer(lowered)
        if (head := _head(text, lowered, match.group(), match.start(), match.end())) is not None
    ]
    if not text.isascii() and (
        any(map(lowered.__contains__, _OTHER_LATIN_LED)) or _OTHER_FIRSTS.search(lowered) is not None
    ):
        heads.extend(
            head
            for match in _OTHER_HEADS.finditer(lowered)
            if (head := _head(text, lowered, match.group(), match.start(), match.end())) is not None
        )
        heads.sort(key=lambda head: head.start)
    return heads
