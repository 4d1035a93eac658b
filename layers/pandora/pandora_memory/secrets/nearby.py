"""The safety net under the grammar of the context rules: a credential word, then a value shaped like
what it names, close by, however the sentence between them runs.

The context rules read how a value is introduced ("password is X", "PIN은 X", "code for the gate X").
People also write "le code du portail (3C91) mais pas celui de l'alarme, c'est 1945", "the code, which
I changed last week after the guests, is now 8 1 3 3", "the spotify password is on the next line" and
the value on that line.
Here a value counts when it stands within a short reach after the word (or right before it, stated
with "is"/"c'est") and looks like a code (four to forty digits, spaces, dashes or the keypad's # and *
allowed; a run of backup codes), or a password (letters with a digit or symbol). A "code" counts only in
a sentence that names what it opens (a gate, an alarm, a bank card, 2FA...), not an error, zip or promo
code; one typed with # or * needs no word at all (self_evident.py). The words live in nearby_words.py.
A false block costs one review; a missed credential cannot be taken back.
"""

import re
from collections.abc import Iterator
from typing import NamedTuple

from pandora_memory.secrets.code_lists import first_code_run
from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.heads import GLUED_SCRIPT, other_script_bounded
from pandora_memory.secrets.lexicon import PLAIN_CODE_QUALIFIERS
from pandora_memory.secrets.nearby_words import (
    A_LOCK,
    CODE_WORDS,
    COMPOUND_CODE,
    LOCKS,
    LOGIN_WORDS,
    NAMES_PIN_AS_AN_ID,
    NO_USER_NAME_HAS,
    NOT_LOCK_PREFIXES,
    OPENED_WITH,
    OPENS,
    OPENS_UNSPACED,
    OPENS_WITH,
    OPENS_WITH_NEEDLES,
    PASSWORD_WORDS,
    PIN_AS_AN_ID,
    PLAIN_AFTER,
    SHAPED_ONLY_WORDS,
    SHORT_REACH_WORDS,
)
from pandora_memory.secrets.trie import trie_pattern
from pandora_memory.secrets.user_pairs import SPACED_SLASH_NEEDLES, spaced_slash_pairs
from pandora_memory.secrets.values import (
    CLAUSE_END,
    YEAR,
    has_digit,
    has_password_shape,
    is_dismissed,
    is_object_id,
    without_marks,
)

# After every other rule: where one of them found the value, its name for it stands.
PRIORITY = 4
RULE = "nearby-value"
REACH = 140
BACK_REACH = 60


_PASSWORD_SET = frozenset((*PASSWORD_WORDS, *LOGIN_WORDS))
# One trie-shaped pattern over the lower-cased text (the engine jumps between first letters); word
# boundaries are checked on the few hits, as heads.py does.
_TRIGGER_WORDS = frozenset((*PASSWORD_WORDS, *LOGIN_WORDS, *CODE_WORDS))
# Two tries, as heads.py keeps: the words in ASCII run on every message, the others only on a message
# that is not ASCII (no word of them can stand in one that is).
_ASCII_TRIGGER = re.compile(trie_pattern(word for word in _TRIGGER_WORDS if word.isascii()))
_OTHER_TRIGGER = re.compile(trie_pattern(word for word in _TRIGGER_WORDS if not word.isascii()))
_GLUE = frozenset("-_")
# Articles and possessives glued onto a Latin word: Indonesian and Malay "its" ("passwordnya"),
# Romanian "the" ("pinul", "PUK-ul", "codului").
_GLUED_SUFFIX = re.compile(r"nya|-?ul(?:ui)?")


class _Trigger(NamedTuple):
    start: int
    end: int
    word: str
    password: bool


def _triggers(text: str, lowered: str) -> Iterator[_Trigger]:
    if "kod" in lowered or "kood" in lowered:
        for match in COMPOUND_CODE.finditer(lowered):
            if match.group(1) not in NOT_LOCK_PREFIXES:
                yield _Trigger(match.start(), match.end(), A_LOCK, False)
    if any(map(lowered.__contains__, OPENS_WITH_NEEDLES)):
        for match in OPENS_WITH.finditer(lowered):
            yield _Trigger(match.start(), match.end(), OPENED_WITH, False)
    matches = _ASCII_TRIGGER.finditer(lowered)
    if not lowered.isascii():
        both = (*matches, *_OTHER_TRIGGER.finditer(lowered))
        matches = iter(sorted(both, key=lambda match: match.start()))
    for match in matches:
        start, end = match.span()
        word = match.group()
        if not word[0].isascii():
            if not other_script_bounded(lowered, start, end, word):
                continue
            yield _Trigger(start, end, word, word in _PASSWORD_SET)
            continue
        before = lowered[start - 1] if start else " "
        glued = _GLUED_SUFFIX.match(lowered, end)
        if glued is not None and not lowered[glued.end() : glued.end() + 1].isalnum():
            end = glued.end()
        after = lowered[end] if end < len(lowered) else " "
        if not word[-1].isascii() and GLUED_SCRIPT.match(after):
            after = " "  # "mã은": a Korean or Japanese particle glued on ends the word; "mãe" does not
        if before.isalnum() or before in _GLUE or after.isalnum() or after in _GLUE:
            continue
        yield _Trigger(start, end, word, word in _PASSWORD_SET)


# Four to forty digits (a router's key comes in five groups of four, backup codes in fours of eight),
# maybe spaced or dashed in groups ("8 1 3 3", "73 19 46 82", "0-4-0-9"), maybe opening or closing on
# the keypad's # or * key; not a price, a time, a decimal or part of a Latin word (Japanese glues
# digits to kana: "誕生日の0917にしてる").
_DIGIT_CODE = re.compile(
    r"(?<![A-Za-z0-9_.,/:$€£#*+-])[#*]?\d(?:(?:[ ]?-[ ]?|[ ])?\d){3,39}[#*]?(?![A-Za-z0-9_%€$£]|[.,:/]\d)"
)
# A value ends at blanks, quotes, brackets and where Korean or Japanese glues a particle on ("520662로").
_TOKEN = re.compile(r"[^\s\"'`()\[\]{},;\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]+")
# A product or a word with a number is no password ("1password", "nextjs14", "web3").
_NAMED_THING = re.compile(r"\d{1,3}[a-z]+|[a-z]+\d{1,2}")
# A sentence ends at . ! ? (not the full stop of "i.e.", "e.g.", "Dr.", "St.") or at a blank line.
_SENTENCE_END = re.compile(
    r"(?<!\bi\.e)(?<!\be\.g)(?<!\b[Dd]r)(?<!\b[Ss]t)(?<!\b[Ss]tr)(?<!\b[Mm]r)(?<!\b[Mm]rs)(?<!\bvs)"
    r"[.!?](?:\s|$)|\n\s*\n"
)
_WORD = re.compile(r"[\w']+")
# Sentence marks that end a value, Arabic and Urdu ones included ("؟", "،", "۔").
_VALUE_END = ".:!?؟،۔"
# What a number may count instead of opening something: "4719 km", "1500 lines", "2024 model".
_COUNTED = re.compile(
    r"\s*(?:km|kms|mi|miles|m|kg|g|lbs?|min|mins|minutes|h|hours|hrs|days|weeks|months|years|yrs|"
    r"lines|words|pages|users|people|times|euros?|dollars?|pounds?|ans|jours|heures|mois|requests|rows|"
    r"items|records|files|tests|errors|ms|secs?|seconds|mb|gb|tokens|points|followers|views|orders|units|"
    r"customers|subscribers|downloads|steps|calls|members|tickets)\b"
    r"|\s*(?:€|\$|£|%|₹|₺|₽|₴|zł|kč|czk|ft|huf|pln|nok|sek|dkk|aed|egp|sar|inr|rub|ron|lei|chf)"
    r"|년|개|원|명|시|분|초|층|호|번째|살|円|年|個|人|階|番目|歳",
    re.IGNORECASE,
)
_ASSIGNS = re.compile(r"\s*[:=]\s*")
_NUMBERED_BEFORE = re.compile(
    r"\b(?:ticket|order|case|invoice|ref|reference|issue|job|booking|room|flight|model|serial)\s*(?:no\.?|nr\.?|#)?\s*$",
    re.IGNORECASE,
)
# A dependency pinned to a version ("numpy<2", "django>=4.2", "react@18"): "pin" is a verb there.
_REQUIREMENT = re.compile(r"[A-Za-z][\w.\-]*(?:[<>]=?|[=!~]=)\d[\w.*]*|[a-z][a-z0-9.\-]*@\d{1,2}(?:\.\d+)*")
# An error or status code ("E-1021", "ERR-404"): letters, a dash, digits.
_ERROR_CODE = re.compile(r"[A-Za-z]{1,4}-\d{2,6}")
_EMAIL = re.compile(r"[^@\s]@[\w-]+\.[A-Za-z]")
# A short code of letters and digits on a keypad ("58B21", "3C91").
_KEYPAD_CODE = re.compile(r"(?=(?:[A-ZА-Я]*\d){2})(?=\d*[A-ZА-Я])[0-9A-ZА-Я]{4,8}")
# A combination lock's dial numbers ("0-4-2", "12 - 40 - 7"): three or four small numbers, dashed.
_DIAL_COMBINATION = re.compile(r"(?<![\w.,/:-])\d{1,2}(?:[ ]?-[ ]?\d{1,2}){2,3}(?![\w-])")
# A dial's turns, said ("left 24, right 61, left 08", "putar kanan ke 27, kiri ke 14, kanan ke 62").
_DIAL_TURNS = re.compile(
    r"(?i:(?:\b(?:left|right|kanan|kiri|links|rechts|gauche|droite|izquierda|derecha|sinistra|destra)\b"
    r"[ \t:]*(?:(?:ke|to|à|a|auf|nach|til)[ \t]+)?\d{1,2}\b[ \t,;.]*"
    r"(?:(?:and|then|dan|und|et|y|e|i)[ \t]+)?){3,4})"
)
# What a serial or model number is read next to: "seriale della cassaforte: SFX-4521-8830".
_SERIAL = re.compile(r"serial|seriale|série|serie|model|modell|modello|modelo", re.IGNORECASE)
_GROUP_BREAK = re.compile(r"[ \-]+")
_COPULAS = frozenset(
    {"is", "was", "c'est", "c’est", "est", ":", "=", "->", "→", "είναι", "ist", "es", "è", "é", "är", "er"}
    | {"on", "là", "adalah", "jest", "je", "это", "—", "ni"}
)
# A four-digit time of day ("0300", "2145") after a word that times something: a time, not a code.
_CLOCK = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_TIME_LEADS = frozenset(
    {"at", "by", "until", "till", "til", "around", "before", "after", "@", "um", "à", "às"}
)
_YEAR_LEADS = frozenset({"in", "since", "from", "until", "of", "year", "en", "depuis", "année", "au", "de"})
# Versions, domains and file names; names of variables and placeholders ("MOT_DE_PASSE"); words joined
# by hyphens or dots ("junior-level", "sophie.tricote").
_NOT_A_VALUE = re.compile(
    r"[vV]?\d+(?:\.\d+)+|.*\.[A-Za-z]{2,5}|[A-Z][A-Z0-9_]+|[^\W\d_]+(?:[-_.][^\W\d_]+)+"
)
_VALUE_FIRST_CUT = re.compile(r"[^\s\"'`<>()\[\]{},;]")
_VALUE_FIRST = re.compile(
    r"(?P<value>[^\s\"'`<>()\[\]{},;]{4,64})[ \t]+(?:[—–-][ \t]+)?"
    r"(?:(?:questa|questo|esta|este|this|dat|das|dit)[ \t]+)?"
    r"(?:c'est|c’est|is|ist|est|è|es|é|=|was|:|—|–|-|<-|←|itu|adalah|là|on|är|er)[ \t]+"
    r"(?:(?:le|la|les|the|my|mon|ma|mes|our|notre|il|el|lo|o|a|het|de|das|der|die)[ \t]+)?"
    r"(?:[\w'-]+[ \t]+){0,5}$",
    re.IGNORECASE,
)


def _word_before(lowered: str, start: int, reach: int) -> str:
    """The last word in the `reach` characters before `start` ("error [code": "error")."""
    words = _WORD.findall(lowered, max(0, start - reach), start)
    return words[-1] if words else ""


def _lead(text: str, start: int, reach: int) -> str:
    """The blank-separated piece of text right before `start`, lower-cased ("at", "c'est", "pw:"), or ""."""
    pieces = text[max(0, start - reach) : start].lower().split()
    return pieces[-1] if pieces else ""


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around [start, end), lower-cased."""
    opening = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, start - 200), start)), default=0)
    closing = _SENTENCE_END.search(text, end, end + 200)
    return text[max(opening, start - 200) : closing.start() if closing else end + 200].lower()


def _names_what_it_opens(text: str, lowered: str, start: int, end: int) -> bool:
    after = lowered[end : end + 24].lstrip()
    if _word_before(lowered, start, 24) in PLAIN_CODE_QUALIFIERS or after.startswith(PLAIN_AFTER):
        return False
    sentence = _sentence(text, start, end)
    if not OPENS.isdisjoint(_WORD.findall(sentence)):
        return True
    return not sentence.isascii() and any(map(sentence.__contains__, OPENS_UNSPACED))


def _no_user_name(value: str) -> bool:
    """A symbol no user name has, or an "@" that opens no e-mail domain ("ujeR5TwQRCF@")."""
    return not NO_USER_NAME_HAS.isdisjoint(value) or ("@" in value and _EMAIL.search(value) is None)


def _typed_like_a_code(value: str) -> bool:
    """Digits typed in groups: a combination or backup code is dashed ("24-8-36", "8697-7623", not a
    date "12-01-2026"); spaced, its groups are alike ("8 1 3 3", "73 19 46 82", "8697 7623"). "404 12",
    "12 12" and "404 404" are numbers side by side."""
    groups = [group for group in _GROUP_BREAK.split(value) if group]
    if len(groups) == 1:
        return True
    if len(set(groups)) == 1:
        return False
    sizes = [len(group) for group in groups]
    if "-" in value:
        return sizes not in ([2, 2, 4], [4, 2, 2], [1, 2, 4], [2, 1, 4], [1, 1, 4])
    size = sizes[0]
    return len(set(sizes)) == 1 and len(groups) >= {1: 4, 2: 3, 3: 2}.get(size, 2)


def _digit_code(text: str, match: re.Match[str]) -> bool:
    value = match.group()
    if _COUNTED.match(text, match.end()):
        return False
    if _NUMBERED_BEFORE.search(text, max(0, match.start() - 16), match.start()):
        return False  # "ticket #55120", "order no. 4471": a number of something, not a code
    if not _typed_like_a_code(value.strip("#*")):
        return False
    if _CLOCK.fullmatch(value) and _lead(text, match.start(), 8) in _TIME_LEADS:
        return False  # "the alarm went off at 0300": a time of day
    if value[-1] in "#*":
        return True  # typed on a keypad ("1953*"), not a year
    if YEAR.fullmatch(value):
        # "password 2025 rotation": a year the sentence goes on from dates it; "c'est 1945" states it.
        lead = _lead(text, match.start(), 12)
        if lead in _YEAR_LEADS:
            return False
        stated = lead in _COPULAS or lead.endswith((":", "="))
        return CLAUSE_END.match(text, match.end()) is not None or stated
    return True


def _password_like(value: str) -> bool:
    value = without_marks(value.lstrip("=:>→-"))
    if _ERROR_CODE.fullmatch(value) or _REQUIREMENT.fullmatch(value):
        return False
    if not 6 <= len(value) <= 64 or value[0] in ".$%~#@:" or "/" in value or "=" in value:
        return False
    if _NAMED_THING.fullmatch(value) or is_object_id(value):
        return False
    if _EMAIL.search(value) or not (has_digit(value) or not value.isalnum()):  # "RealMe" is a name
        return False
    if _NOT_A_VALUE.fullmatch(value) and not (value.isupper() and has_digit(value) and "_" not in value):
        return False
    return has_password_shape(value) and not is_dismissed(value)


def _first_value(text: str, start: int, limit: int, password_word: bool) -> tuple[int, int, str] | None:
    """The first code or password-shaped value in text[start:limit]; after a password word, a number
    that is a placeholder ("111111") is none."""
    codes = (m for m in _DIGIT_CODE.finditer(text, start, limit) if _digit_code(text, m))
    code = next((m for m in codes if not password_word or not is_dismissed(m.group())), None)
    for index, token in enumerate(_TOKEN.finditer(text, start, limit)):
        if code is not None and token.start() >= code.start():
            break
        raw = token.group().rstrip(_VALUE_END)
        value = raw.lstrip("=:>→-")
        given = index == 0 and _ASSIGNS.fullmatch(text, start, token.start() + len(raw) - len(value))
        if given and is_dismissed(value):
            return None  # the value was given, masked or a placeholder ("password=********")
        keypad = not password_word and 4 <= len(value) <= 8 and _KEYPAD_CODE.fullmatch(value) is not None
        if keypad or _password_like(value):
            at = token.start() + len(raw) - len(value)
            return at, at + len(value), "pin" if keypad else "password"
    if code is not None:
        return code.start(), code.end(), "pin"
    if password_word:
        return None
    dial = _DIAL_COMBINATION.search(text, start, limit) or _DIAL_TURNS.search(text, start, limit)
    if dial is not None:
        return dial.start(), dial.start() + len(dial.group().rstrip(" \t,;.")), "pin"
    return None


def _reach_end(text: str, start: int) -> int:
    """A value is looked for up to REACH characters on, across one line break at most."""
    limit = min(len(text), start + REACH)
    first_break = text.find("\n", start, limit)
    if first_break >= 0:
        second_break = text.find("\n", first_break + 1, limit)
        if second_break >= 0:
            limit = second_break
    return limit


# What stands between a short-reach word and its value: a few words of the clause, then "is" or ":".
_STATED_LATER = re.compile(r"[^.!?\n,;:=]{0,40}?(?:[ \t](?:is|was|ni|é|è)[ \t]+|[ \t]*[:=][ \t]*)")


def _next_token_end(text: str, start: int) -> int:
    token = _TOKEN.search(text, start, min(len(text), start + 80))
    between = text[start : token.start()].strip(" \t\"'`") if token is not None else "-"
    return token.end() if token is not None and not between else start


def _value_before(text: str, trigger: _Trigger) -> Candidate | None:
    """ "9o9tl77a c'est le code de récupération": the value, a copula, then the credential word."""
    before = _VALUE_FIRST.search(text, max(0, trigger.start - BACK_REACH), trigger.start)
    if before is None:
        return None
    opening = before.start("value")
    if opening > 0 and _VALUE_FIRST_CUT.match(text, opening - 1):
        return None  # the reach began inside a longer token (a digest): not a value of its own
    value = before.group("value").rstrip(_VALUE_END)
    if value.startswith("#") and not value.endswith(("#", "*")):
        return None  # "issue #4471 is the flaky login test": a number of something
    digits = _DIGIT_CODE.fullmatch(value) is not None
    if not (digits or _password_like(value)):
        return None
    start = before.start("value")
    return Candidate("pin" if digits else "password", start, start + len(value), RULE, PRIORITY)


def nearby_candidates(text: str, lowered: str) -> Iterator[Candidate]:
    """`lowered` is text lower-cased with the same length (detector._same_length_lower)."""
    if any(map(text.__contains__, SPACED_SLASH_NEEDLES)):
        yield from spaced_slash_pairs(text)
    for trigger in _triggers(text, lowered):
        opens_itself = trigger.password or trigger.word in LOCKS
        if not opens_itself and not _names_what_it_opens(text, lowered, trigger.start, trigger.end):
            continue  # a code typed on a keypad ("8426#") is found whatever it opens: self_evident.py
        if _SERIAL.search(text, max(0, trigger.start - 30), trigger.start):
            continue
        if trigger.word in PIN_AS_AN_ID and _word_before(lowered, trigger.start, 16) in NAMES_PIN_AS_AN_ID:
            continue  # "kra pin ya supplier ni P051234567X": Kenya's tax number is called a PIN
        after = trigger.end
        reach = _reach_end(text, after)
        if trigger.word in SHORT_REACH_WORDS:
            # "pass X", or "root pass on the hetzner box is X": the word right after, or after the copula.
            stated = _STATED_LATER.match(text, after)
            after = stated.end() if stated is not None else after
            reach = _next_token_end(text, after)
        found = _first_value(text, after, reach, trigger.password)
        if found is not None and trigger.word in SHAPED_ONLY_WORDS and found[2] != "password":
            found = None  # "boarding pass 1234": after "pass" only a password-shaped word counts
        login = trigger.word in LOGIN_WORDS
        if found is not None and login and not _no_user_name(text[found[0] : found[1]]):
            found = None  # "my login is marta.kowal92": the user name
        if found is None and not trigger.password:
            run = first_code_run(text, after, reach)  # "reservkoder: Q7KDM X2PLR B9WZT"
            found = (*run, "pin") if run is not None else None
        if found is not None and _SERIAL.search(text, max(0, found[0] - 30), found[0]):
            found = None  # "the keysafe model is Master Lock 5401EURD"
        if found is not None:
            start, end, shape = found
            kind = "pin" if not trigger.password and shape == "pin" else "password"
            yield Candidate(kind, start, end, RULE, PRIORITY)
        before = _value_before(text, trigger)
        if before is not None:
            yield before
