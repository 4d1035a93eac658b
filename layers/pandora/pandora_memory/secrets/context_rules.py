"""Context rules: a value *stated* to be a credential, in code or in prose.

Anchored at each credential noun found by `heads`, so each form costs one anchored match:
  NAME = value          DB_PASSWORD=..., "client_secret": "...", apiKey: '...', --token ...
  noun [for X] is value "the wifi password is hunter2", "my password for gmail is ...", "pin: 4471"
  noun's / noun to      "the password's ...", "changed my password to ..."
  noun value            "password hunter2", "mistral key yqbN..." (stricter value test)
  value as the noun     "use hunter2 as the password", "hunter2 is my password"
  noun [is] user / pw   "login is admin / Velvet88", "creds: ops / Fj3kq8Lm" (the password half)
  user X pass value     "bank login: user tidewell_ops pass ..." (a label after a user name)
  noun of X value.      "код от домофона 1234" (a value closing the clause, bare test)
Copulas and prepositions cover the languages of the credential words (é, est, ist, lautet, är, je,
jest, to, on; do, de la, d'...); a few copulas (to, on, er) count only after a non-English word.
The span is the value alone, so the words around it survive redaction.
"""

import re

from pandora_memory.secrets.findings import Candidate, Coverage
from pandora_memory.secrets.heads import GLUED_SCRIPT, WEAK, Head, names_an_entry
from pandora_memory.secrets.lazy_pattern import LazyPattern
from pandora_memory.secrets.lexicon import (
    ENGLISH_HEADS,
    LOCK_HEADS,
    LOCK_MIN_DIGITS,
    NON_SECRET_SUFFIXES,
    PASSWORD_LABELS,
    PUBLIC_COMPONENTS,
    USER_LABELS,
)
from pandora_memory.secrets.values import (
    CLAUSE_END,
    YEAR,
    components,
    has_digit,
    has_password_shape,
    is_dismissed,
    is_key_path,
    is_public_identifier,
    is_published_key,
    looks_like_credential,
    looks_like_password,
    looks_random,
    strip_value,
    value_span,
)

PRIORITY = 2

_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_QUOTED = r"\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|“[^”\n]{1,200}”|«[^»\n]{1,200}»"
# Unquoted values end at , ; & when a new field or a space follows (a=1&b=2, k=v; k2=v2), so that
# "P&ssw0rd" stays whole while "Password=x;Encrypt=True" stops after x.
_FIELD_END = r"[,;&](?![\s\w\-.]*[=:]|$)"
# "<" and ">" may be characters of a password ("Tq>w8pLx2", "s3<cr"), but "<" before a letter or "/"
# opens a markup tag ("hunter22</code>"), where the value ends; a "<placeholder>" is dismissed whole.
_ANGLE = r"<(?![/!A-Za-z])|>"
# "password: <code>hunter22</code>": markup opening around a value is skipped, not read as a placeholder.
_OPENING_TAGS = r"(?:<(?:b|i|u|em|strong|code|pre|kbd|samp|span|mark|tt|td|li|p)(?:[ \t][^<>\n]{0,40})?>)*"
_PROSE_VALUE = (
    rf"{_OPENING_TAGS}(?P<value>{_QUOTED}|(?:[^\s\"'`<>，。、,;&{_CJK}]|{_ANGLE}|{_FIELD_END}){{1,256}})"
)
_ASSIGNED_VALUE = rf"{_OPENING_TAGS}(?P<value>{_QUOTED}|(?:[^\s\"'`<>,;&]|{_ANGLE}|{_FIELD_END}){{1,256}})"

# define('DB_PASSWORD', 'x'), setenv("API_TOKEN", "x"): a quoted name, a comma, a quoted value.
_QUOTED_PAIR = LazyPattern(r"(?P<rest>[\w.\-]{0,40}?)[\"'][ \t]*,[ \t]*(?P<value>" + _QUOTED + ")")
# Values given in groups of four (app passwords "abcd efgh ijkl mnop", codes "1234-5678-9012").
_MORE_GROUPS = re.compile(r"(?:[ \-][A-Za-z0-9]{4}){1,7}(?![\w\-])")
# ...of digits after digits: a PIN "2464" runs on over "8813 0957", not over "2464 wait".
_MORE_DIGIT_GROUPS = re.compile(r"(?:[ \-]\d{4}){1,7}(?![\w\-])")
_ASSIGNMENT = LazyPattern(
    r"(?P<rest>[\w.\-]{0,40}?)[\"'\])]{0,2}[ \t]*(?::=|=>|->|==|=|:|：)[ \t]*" + _ASSIGNED_VALUE
)
_PREPOSITIONS = (
    "for|from|of|on|to|at|in|outside|inside|behind|by|near|under|beside|de|del|da|do|du|für|von|para|pour|per|della|dello|dei|des|dos|das|di|zur|zum|"
    "vom|van|voor|för|till|dla|od|от|для|na|chez|bei|à"
)
# "for the wifi", "do alarme", "de la porte", "d'accès", "dell'allarme": what the credential opens.
_PREPOSITION_PHRASE = (
    rf"(?:[ \t]+(?:{_PREPOSITIONS})[ \t]+(?:[^\s:=,;!?]+[ \t]+){{0,3}}?[^\s:=,;!?]+"
    r"|[ \t]+(?:d|dell|dall|dello)['’][^\s:=,;!?]+(?:[ \t]+[^\s:=,;!?]+){0,2}?)"
)
# Copulas of the languages of the password words: is, es, é, est, ist, lautet, är, je, jest, este...
_COPULA_WORDS = (
    r"is|was|are|will[ \t]+be|would[ \t]+be|should[ \t]+be|has[ \t]+been|became|becomes|es|era|é|est|ist|"
    r"c'est|c’est|è|sigue[ \t]+siendo|lautet|lauten|är|je|jest|este|adalah|là|wynosi"
)
# Words that are copulas only after a credential word of another language (hasło to, salasana on,
# adgangskode er): in English they start ordinary phrases ("password to continue").
_OTHER_LANGUAGE_COPULA_WORDS = r"to|on|er|olarak"


# Before a stated value: spaces, or a line break ("my password is\nhunter2" still states it).
_GAP_BEFORE_VALUE = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"


# "is now X", "are both X": words between a copula and the value.
_COPULA_ADVERBS = r"now|still|just|literally|actually|simply|currently|set[ \t]+to|always|probably|both|all"
# "password changed to X", "pin was just reset to X": the verbs, and the words that may lead them.
_NEW_VALUE_VERBS = "changed|set|updated|reset|switched|rotated|changes"
_NEW_VALUE_LEADS = "was|is|got|just|now"
_NEW_VALUE_VERB = (
    rf"[ \t]+(?:(?:{_NEW_VALUE_LEADS}|has[ \t]+been)[ \t]+){{0,2}}(?:{_NEW_VALUE_VERBS})[ \t]+to"
)


# "changed my password to X", "j'ai changé le mot de passe en X", "cambié la contraseña a X": only
# a password-shaped value counts after these.
_CHANGED_TO_WORDS = ("to", "into", "as", "en", "a", "à")
# Words that qualify the credential noun after it, as Romance languages place them ("le mot de passe
# admin c'est X", "la contraseña nueva es X").
_QUALIFIERS = (
    "admin|administrateur|administrador|root|wifi|wi-fi|guest|invité|invitado|master|principal|"
    "temporaire|provisoire|temporal|nouveau|nuevo|nueva|actuel|bancaire"
)


def _connector(copulas: str) -> str:
    return (
        rf"(?:[ \t]+(?:number|num|code|phrase|{_QUALIFIERS}))?"
        # "de la porte chez Ana", "de la puerta de casa de Ana": up to two phrases say what it opens.
        rf"(?:{_PREPOSITION_PHRASE}){{0,2}}"
        # "password changed to X", "pin was just reset to X": the value the credential now has. Tried
        # before the copulas, which would otherwise take "changed" for the value of "was".
        rf"(?:{_NEW_VALUE_VERB}{_GAP_BEFORE_VALUE}"
        rf"|[ \t]*(?:[:=：→]|->|=>)[ \t]*|[ \t]+(?:{copulas})(?:[ \t]*:)?{_GAP_BEFORE_VALUE}"
        rf"(?:(?:{_COPULA_ADVERBS})[ \t]+)?)"
    )


_CONNECTOR = _connector(_COPULA_WORDS)
_STATEMENT = LazyPattern(_CONNECTOR + _PROSE_VALUE, re.IGNORECASE)
_OTHER_LANGUAGE_STATEMENT = LazyPattern(
    _connector(_COPULA_WORDS + "|" + _OTHER_LANGUAGE_COPULA_WORDS) + _PROSE_VALUE, re.IGNORECASE
)
# "код от домофона 1234", "the code for the alarm 4471": a value closing the clause right after
# what the credential opens, without a copula (judged as a bare value).
_PREPOSITION_VALUE = LazyPattern(
    _PREPOSITION_PHRASE + r"[ \t]+" + _PROSE_VALUE + r"(?=[ \t]*(?:$|[\r\n.,;!?)]))", re.IGNORECASE
)
# Symbols found in passwords but not in user names ("ops_admin", "j.doe-2") or emails.
_PASSWORD_SYMBOL = re.compile(r"[!#$%&*?^~+=]")
# A value after "login" this long is a key ("wandb login <40 hex>"), not a user name.
_LOGIN_KEY_MIN_CHARS = 24
# A user and a password given as a pair: "login is admin / Velvet88", "creds: ops / Fj3kq8Lm".
_PAIR = LazyPattern(
    r"(?:" + _CONNECTOR + r"|[ \t]+)(?P<user>[^\s/:|,;]{1,64})[ \t]*[/:|][ \t]*" + _PROSE_VALUE,
    re.IGNORECASE,
)
# "netflix login ana@mail.com Kettle99", "my login is ana@mail.com and Kettle99": an email, then the
# password, with or without a separator.
_EMAIL_PAIR = LazyPattern(
    r"(?:" + _CONNECTOR + r"|[ \t]+)(?P<user>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)"
    r"(?:[ \t]*[/:|,]|[ \t]+(?:and|&|pw|pass|password))?[ \t]+" + _PROSE_VALUE,
    re.IGNORECASE,
)
_POSSESSIVE = LazyPattern(r"['’]s[ \t]+" + _PROSE_VALUE)
_CHANGED_TO = LazyPattern(
    rf"[ \t]+(?:{'|'.join(_CHANGED_TO_WORDS)})" + _GAP_BEFORE_VALUE + _PROSE_VALUE, re.IGNORECASE
)
# "비밀번호 4자리는 4821": how many digits the value has may come before its particle.
_CJK_PARTICLE = LazyPattern(
    r"[ \t]*(?:\d{1,2}[ \t]?(?:자리|桁|位))?(?P<particle>는요|은요|는|은|이|가|は|が|是|为|為|:|：|=)?[ \t]*"
    + _PROSE_VALUE
)
# "api key (the publisher one!) 4F1F...": an aside between the noun and its value.
_ASIDE = r"(?:[ \t]*\([^()\n]{1,48}\))?"
_BARE = LazyPattern(_ASIDE + r"[ \t]+" + _PROSE_VALUE)
# "와이파이 비번 알려줄게 손님용: X": Korean and Japanese put what the password is for after the noun,
# then a colon and the value.
_CJK_LATER_COLON = LazyPattern(r"[^\n:：=]{1,40}?[ \t]*[:：][ \t]*" + _PROSE_VALUE)
# "the PIN for the joint account I use for appa's payments is X": a preposition, then up to ten words
# of what the credential opens (no clause punctuation), then a copula and the value.
_LONG_OPENS_STATEMENT = LazyPattern(
    rf"[ \t]+(?:{_PREPOSITIONS})(?:[ \t]+[^\s:=,;!?.]+){{1,10}}?[ \t]+(?:is|was)[ \t]+" + _PROSE_VALUE,
    re.IGNORECASE,
)
_PREPOSITIONS_SET = frozenset(_PREPOSITIONS.split("|"))
# "the webflow token so you can check: X": a few words about the noun, then a colon and the value.
_LATER_COLON_LATIN = LazyPattern(r"(?:[ \t]+[^\s:：=.,;!?]{1,30}){1,6}[ \t]*[:：][ \t]+" + _PROSE_VALUE)
_LATER_COLON_FAMILIES = frozenset({"token", "key", "secret", "password", "credential"})
_NOT_THE_VALUE = frozenset(
    {"hash", "hashed", "digest", "sha256", "sha1", "md5", "checksum", "fingerprint", "id", "prefix", "length"}
)
# "비번 알려줄게 X", "パスワード教えるね X": the noun, a verb of telling, then the value.
_CJK_TELLS = LazyPattern(
    r"[은는을를]?[ \t]*(?:알려\s?줄게|알려\s?줄께|알려\s?드릴게요|알려\s?드려요|보내\s?줄게|"
    r"여기\s?있어|이거야|教えるね|教えます|送るね|はこれ)[ \t,:：]*" + _PROSE_VALUE
)
# "PIN 새로 834333로 바꿈", "비번 이제 Kettle99야": a Korean adverb of change between the noun and its
# new value; "비번 바꿨어. 이제 Kettle99 이걸로": a verb of change first, the sentence may end there.
_KOREAN_CHANGE_ADVERBS = "새로|이제|다시|방금|새로운|새거|새 거|바뀐|변경된"
_KOREAN_NEW_VALUE = LazyPattern(
    r"[은는을를]?[ \t]+(?:"
    # "비번 바꿈 → X": an arrow may point from the change to the new value.
    rf"(?:바꿨|바꿈|바꿔|바뀜|바뀌었|바뀌|변경했|변경함|변경됨|변경)[가-힣]{{0,3}}[.!~]*"
    r"(?:[ \t]*(?:→|->|=>))?[ \t]+"
    # "비번 바뀜 ㅋㅋ 이제 X": laughter or a sigh between the change and the new value.
    rf"(?:[ㅋㅎㅠㅜ]+[ \t]+)?(?:(?:{_KOREAN_CHANGE_ADVERBS})[ \t]+)?"
    rf"|(?:{_KOREAN_CHANGE_ADVERBS})(?:[ \t]*[은는])?[ \t]+)" + _PROSE_VALUE
)
# "the wifi password at flat 1, its been X for years", "saved as STEAM_KEY, it's X": a few words about the
# credential, a comma, then "it's" and the value.
_COMMA_ITS = LazyPattern(
    r"(?:[ \t]+[^\s:=,;!?.]+){0,6}?[ \t]*,[ \t]*"
    r"(?:it's been|its been|it’s been|it has been|it's|it’s|its|it is|mine is|mine's|mine’s)[ \t]+"
    + _PROSE_VALUE,
    re.IGNORECASE,
)
# "the PIN for the joint card before the bank closes it Friday. It's 7366.": for a PIN or a password, the
# next sentence may open on "it's" and the value.
_NEXT_SENTENCE_ITS = LazyPattern(
    # One way only to read the gap before each word (a comma, if any, then blanks): an ambiguous split of a
    # run of blanks would make a failing match try every split of every run.
    r"(?:(?:[ \t]*,)?[ \t]+[^\s:=,;!?.]+){0,16}?[ \t]*[.,][ \t]*"
    r"(?:it's|it’s|its|it is)[ \t]+" + _PROSE_VALUE,
    re.IGNORECASE,
)
_NEXT_SENTENCE_FAMILIES = frozenset({"pin", "password"})
# "the PIN (5813)": the value in brackets right after the noun.
_BRACKETED = LazyPattern(r"[ \t]*\((?P<value>[^()\s]{3,64})\)")
# "my password:\nhunter2" / "token:\n```\nabc...\n```": the value alone on the next line.
_NEXT_LINE = LazyPattern(
    r"[ \t]*[:=：][ \t]*\r?\n(?:[ \t]*```[\w-]*\r?\n)?[ \t]*(?P<value>\S{4,256})[ \t]*(?:\r?\n|$)"
)
_CJK_CHAR = re.compile(f"[{_CJK}]")
_ELIDED_PREPOSITIONS = ("d'", "d’", "dell'", "dell’", "dall'", "dall’", "dello'")
# A user name before a password label: "user bob pass", "login: jdoe, pw", "email a@b.c pass".
_USER_BEFORE = LazyPattern(
    r"(?i:\b(?:" + "|".join(sorted(USER_LABELS, key=len, reverse=True)) + r"))[ \t]*[:=]?[ \t]*"
    r"[^\s:=]{1,64}[ \t]*[,;/|]?[ \t]*(?:and[ \t]+)?$"
)
# A lower-case word can never be a bare value (those need a digit, a symbol or mixed case).
_PLAIN_WORD = re.compile(r"[a-z]+[.,;:!?]?").fullmatch
_NEXT_WORD = re.compile(r"[ \t]+(\S+)")
# First words after a noun that may start a "noun [for X] is value" statement.
_STATEMENT_STARTS = frozenset(
    {
        "is",
        "was",
        "are",
        "will",
        "would",
        "should",
        "has",
        "became",
        "becomes",
        "es",
        "era",
        "é",
        "est",
        "ist",
        "è",
        "sigue",
        "number",
        "num",
        "code",
        "phrase",
        "for",
        "of",
        "on",
        "to",
        "at",
        "in",
        "de",
        "del",
        "da",
        "do",
        "du",
        "für",
        "von",
        "para",
        "pour",
        "per",
        "is:",
        "was:",
        *("→", "->", "=>"),
        *_QUALIFIERS.split("|"),
        *_NEW_VALUE_VERBS.split("|"),
        *_NEW_VALUE_LEADS.split("|"),
        *_PREPOSITIONS.split("|"),
        *_COPULA_WORDS.replace("[ \\t]+", " ").split("|"),
    }
)

# Value-first statements are read backwards from the noun over whitespace-split words:
#   VERB value (as|for) [the] [w1 w2] NOUN      "use hunter2 as the wifi password"
#   value (is|was) [my] [w1 w2] NOUN            "hunter2 is my gmail password"
_WORD = re.compile(r"\S+")
_FILLER = re.compile(r"[\w\-]+")
_BACKWARD_GATE = re.compile(
    r"\s(?:is|as|was|for|=|es|era|é|est|ist|como|comme|that's|that’s|thats)\s", re.IGNORECASE
)
_LINKS = frozenset(
    {"and", "or", "but", "is", "was", "are", "to", "for", "of", "in", "on", "at", "with", "not", "no"}
)
_USE_VERBS = frozenset({"use", "try", "enter", "type", "with", "put", "usa", "utiliza", "usar", "prueba"})
_AS = frozenset({"as", "for", "como", "comme"})
_COPULAS = frozenset({"is", "was", "=", "es", "era", "é", "est", "ist"})
# "hunter2 — that's the wifi password": the value, a dash, then a pointer back to it.
_POINTERS = frozenset({"that's", "that’s", "thats"})
_DASHES = frozenset({"-", "—", "–", ":"})
_OWNERS = frozenset(
    {
        "the",
        "my",
        "your",
        "our",
        "his",
        "her",
        "their",
        "a",
        "an",
        "el",
        "la",
        "mi",
        "tu",
        "ma",
        "mon",
        "mein",
        "meine",
    }
)

# Keypad / backup codes: 1357#, 12-34-56, 8271-4402.
_NUMERIC_CODE = re.compile(r"\d[\d\-#*. ]{2,18}[\d#*]")
# Further codes of a list after the first one ("backup codes: 8271-4402 9931-0087").
_MORE_CODES = re.compile(r"(?:[ \t]*[,;]?[ \t]+(?:\d{4,10}|[0-9a-z]{3,6}-[0-9a-z]{3,6})(?![\w\-]))+")

_KINDS = {
    "password": "password",
    "login": "password",
    "pass": "password",
    "pin": "pin",
    "code": "access_code",
    "token": "token",
    "secret": "secret",
    "key": "api_key",
    "credential": "credential",
    "auth": "token",
    "network": "password",
    WEAK: "generic_secret",
}

ASSIGNED, STATED, BARE = "assigned", "stated", "bare"
PAIR_STATED, PAIR_BARE = "pair-stated", "pair-bare"


def _has_shape(family: str, value: str, form: str, min_digits: int = 4) -> bool:
    """The family's test on the value's shape alone (cheap, so it runs first)."""
    if family == WEAK:
        plain = looks_random(value) and not is_public_identifier(value)
        return plain and not is_key_path(value, lookup_qualified=False)
    if family in ("password", "pass"):
        if form == BARE:
            # "카드 비밀번호 4821", "wifi password 48213377": a bare number right after the noun is one.
            numeric = value.isdigit() and 4 <= len(value) <= 12 and not YEAR.fullmatch(value)
            return has_password_shape(value) or numeric
        return looks_like_password(value)
    if family == "network":  # "the wifi is Kx7-pine-42" yes; "the wifi is down", "wifi 6" no
        return form == STATED and has_password_shape(value)
    if family in ("pin", "code"):
        if value.isdigit() or _NUMERIC_CODE.fullmatch(value):
            return min_digits <= sum(ch.isdigit() for ch in value) <= 16
        return form != BARE and has_password_shape(value) and (family == "pin" or has_digit(value))
    return looks_like_credential(value) and (form != BARE or len(value) >= 12)


def acceptable(family: str, value: str, form: str, min_digits: int = 4) -> bool:
    """Does `value` look like what a `family` credential stated in `form` would be? A code has at least
    `min_digits` digits (a combination lock's may have three)."""
    if not value or not _has_shape(family, value, form, min_digits) or is_published_key(value):
        return False
    if family in ("pin", "code") and (value.isdigit() or _NUMERIC_CODE.fullmatch(value)):
        return True  # 0000 and 111441 are codes people really use, not masks
    return not is_dismissed(value)


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$@")


def _name_start(text: str, head_start: int) -> int:
    """Where the identifier holding the head begins (a plain backward scan: no regex search)."""
    floor = max(0, head_start - 60)
    start = head_start
    while start > floor and text[start - 1] in _NAME_CHARS:
        start -= 1
    return start


def _inside_uri(text: str, name_start: int) -> bool:
    """A "name" that is a segment of an ARN / URN / URL (arn:aws:...:secret:prod/db) names a resource."""
    floor = max(0, name_start - 160)
    word_start = max(text.rfind(" ", floor, name_start), text.rfind("\n", floor, name_start), floor - 1) + 1
    segment = text[word_start:name_start]
    return "arn:" in segment or "urn:" in segment or "://" in segment


def _name_is_secret(text: str, head: Head, rest: str) -> bool:
    """DB_PASSWORD yes; password_hash, token_type, NEXT_PUBLIC_ANON_KEY, KEY_ID no."""
    name_start = _name_start(text, head.start)
    if _inside_uri(text, name_start):
        return False
    parts = components(text[name_start : head.end] + rest)
    if not parts or any(part in PUBLIC_COMPONENTS for part in parts):
        return False
    return parts[-1] not in NON_SECRET_SUFFIXES


def name_is_secret(name: str, head: Head) -> bool:
    """For a head found in `name` alone: does the name hold a credential (api_secret, not key_id)?"""
    return _name_is_secret(name, head, name[head.end :])


# A number followed by a unit or a counter is a quantity, not a code: "4471 km away", "2024 model",
# "2024년형", "3000円".
_MEASURE_AFTER = re.compile(
    r"(?:년|개|원|명|시|분|초|층|호|번째|살|킬로|미터|円|年|個|人|階|番目|歳"
    r"|[ \t]+(?:km|kms|mi|miles|m|kg|g|lbs?|won|dollars?|euros?|usd|eur|krw|years?|yrs|model|models"
    r"|edition|édition|edición|edizione|version|times|people|pages|words|steps|calories|kcal|mb|gb)\b"
    r"|[ \t]*%)",
    re.IGNORECASE,
)


_INDIAN_POSTCODE = re.compile(r"[1-9]\d{5}")


def _in_a_remark(text: str, start: int) -> bool:
    """ "REDIS_PASSWORD= (left blank for local)": the first word of a bracketed remark where a value
    would be is none (a bracketed value holds no blank: "pass (Kx7-pine)")."""
    if start == 0 or text[start - 1] != "(":
        return False
    close = text.find(")", start, start + 80)
    return close > 0 and " " in text[start:close]


def _candidate(head: Head, match: re.Match[str], form: str, covered: Coverage) -> Candidate | None:
    start, end, value = value_span(match)
    if value.isdigit() and _MEASURE_AFTER.match(match.string, end):
        return None
    if _in_a_remark(match.string, start):
        return None
    if head.word == "pincode" and _INDIAN_POSTCODE.fullmatch(value):
        return None  # "kothrud pincode 411038": in India a pincode is the postcode (a Dutch one has 4 digits)
    family, test_form, rule = head.family, form, f"context-{form}"
    if form in (PAIR_STATED, PAIR_BARE):  # the second half of a user pair is a password
        family, test_form, rule = "password", BARE, "context-pair"  # "SSO / Okta" is no pair: a shape
    elif form == BARE and family in ("password", "pass") and YEAR.fullmatch(value):
        test_form = STATED if CLAUSE_END.match(match.string, end) else BARE
    min_digits = LOCK_MIN_DIGITS if head.word in LOCK_HEADS else 4
    if covered.covers(start, end) or not acceptable(family, value, test_form, min_digits):
        return None
    if names_an_entry(match.string, head, value):
        return None
    if family == "code":
        more = _MORE_CODES.match(match.string, end)
        end = more.end() if more else end
    elif len(value) == 4 and family in ("password", "pin"):
        groups = (_MORE_DIGIT_GROUPS if value.isdigit() else _MORE_GROUPS).match(match.string, end)
        end = groups.end() if groups else end
    return Candidate(_KINDS[family], start, end, rule, PRIORITY)


_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def _env_name_before(text: str, head: Head) -> bool:
    """The head ends an upper-case setting name ("MATCH_PASSWORD", "DB_PASS")."""
    begin = head.start
    while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
        begin -= 1
    return _ENV_NAME.fullmatch(text, begin, head.end) is not None


def _ordinary_word_follows(text: str, position: int) -> bool:
    """ "password reset", "key point": a plain lower-case word that opens no form, so no regex runs."""
    after = _NEXT_WORD.match(text, position)
    if after is None or not _PLAIN_WORD(after.group(1)):
        return False
    word = after.group(1).rstrip(".,;:!?")
    return word not in _STATEMENT_STARTS and word not in _CHANGED_TO_WORDS


def _pair(text: str, head: Head) -> list[tuple[re.Match[str], str]]:
    """ "login is admin / Velvet88", "creds: ops / Fj3kq8Lm": the password half of a user pair."""
    pair = _PAIR.match(text, head.end)
    if pair is None:
        pair = _EMAIL_PAIR.match(text, head.end)
        if pair is None or not has_password_shape(value_span(pair)[2]):
            return []
    if not any(char.isalpha() for char in pair.group("user")):  # "1200 / 3400" is no pair
        return []
    stated = bool(text[head.end : pair.start("user")].strip())
    return [(pair, PAIR_STATED if stated else PAIR_BARE)]


def _login_password(text: str, head: Head) -> list[tuple[re.Match[str], str]]:
    """ "laptop login is Otter57&kvog": a value with a symbol no user name or email carries;
    "wandb login 3f9a…": a key as long as no user name is, handed to a command's login."""
    statement = _STATEMENT.match(text, head.end)
    if statement is None:
        bare = _BARE.match(text, head.end)
        if bare is not None and len(value_span(bare)[2]) >= _LOGIN_KEY_MIN_CHARS:
            return [(bare, BARE)]
        return []
    value = value_span(statement)[2]
    if "@" in value or not _PASSWORD_SYMBOL.search(value) or not any(c.isdigit() for c in value):
        return []
    return [(statement, STATED)]


def _after_user_label(text: str, head: Head) -> bool:
    """ "user tidewell_ops pass ...": a password label right after a user name."""
    return _USER_BEFORE.search(text, max(0, head.start - 80), head.start) is not None


def _statement_pattern(head: Head) -> LazyPattern:
    return _STATEMENT if head.word in ENGLISH_HEADS else _OTHER_LANGUAGE_STATEMENT


def _later_colon(text: str, head: Head) -> list[tuple[re.Match[str], str]]:
    """ "the webflow token so you can check: X", "my portal password are the same lol: X"."""
    if head.family not in _LATER_COLON_FAMILIES or ":" not in text[head.end : head.end + 200]:
        return []
    later = _LATER_COLON_LATIN.match(text, head.end)
    if later is None:
        return []
    # "api key id: <uuid>", "token hash: ...": the word after the noun makes it name something else;
    # so does one further on that says what the value is instead ("stored as a sha256 hash: <hex>").
    between = text[head.end : later.start("value")].lower().replace(":", " ").split()
    if between[0] in NON_SECRET_SUFFIXES or between[0] in PUBLIC_COMPONENTS:
        return []
    if not _NOT_THE_VALUE.isdisjoint(between):
        return []
    return [(later, STATED)]


def _forward_matches(text: str, head: Head) -> list[tuple[re.Match[str], str]]:
    """Anchored matches of the value-after-noun forms that apply to this head."""
    found: list[tuple[re.Match[str], str]] = []
    if head.family in ("login", "credential") and not head.in_identifier:
        found.extend(_pair(text, head))
        if found:
            return found
        if head.family == "login":  # "login: bob" names a user: only a pair holds a password...
            return _login_password(text, head)  # ...or a value no user name looks like
    if head.family in ("network", "password") and not head.in_identifier:
        pair = _pair(text, head)
        if pair and head.family == "network" and acceptable("password", value_span(pair[0][0])[2], BARE):
            return pair  # "wifi: HomeNet / Kettle99": the network's name, then its password
        found.extend(pair)
    stated_forms: tuple[LazyPattern, ...] = (_COMMA_ITS, _BRACKETED)
    if head.family in _NEXT_SENTENCE_FAMILIES:
        stated_forms += (_NEXT_SENTENCE_ITS,)
    for pattern in stated_forms:
        stated = pattern.match(text, head.end)
        if stated is not None:
            found.append((stated, STATED))
    if head.latin and text[head.end : head.end + 1] == " " and _ordinary_word_follows(text, head.end):
        found.extend(_later_colon(text, head))
        return found
    for pattern in (_ASSIGNMENT, _QUOTED_PAIR):
        assignment = pattern.match(text, head.end)
        if assignment is not None and _name_is_secret(text, head, assignment.group("rest")):
            found.append((assignment, ASSIGNED))
    if head.in_identifier or head.family == "auth":
        # "MATCH_PASSWORD는 X": a Korean topic particle glued to the name states its value, as "is" would.
        if (
            head.in_identifier
            and GLUED_SCRIPT.match(text[head.end : head.end + 1])
            and _name_is_secret(text, head, "")
        ):
            particle = _CJK_PARTICLE.match(text, head.end)
            if particle is not None:
                found.append((particle, STATED if particle.group("particle") else BARE))
        elif head.in_identifier and _env_name_before(text, head) and _name_is_secret(text, head, ""):
            # "the MATCH_PASSWORD is X", "MATCH_PASSWORD は 'X'": a setting's name stated in prose.
            for pattern in (_STATEMENT, _CJK_PARTICLE):
                stated = pattern.match(text, head.end)
                if stated is not None and (pattern is _STATEMENT or stated.group("particle")):
                    found.append((stated, STATED))
                    break
        return found
    # "user bob pass X": a password label after a user name states its value as "is" would.
    labelled = head.word in PASSWORD_LABELS and _after_user_label(text, head)
    if head.family == "pass" and not labelled:
        return found
    next_line = _NEXT_LINE.match(text, head.end)
    if next_line is not None:
        found.append((next_line, STATED))
    if head.family in ("password", "pin"):
        renewed = _KOREAN_NEW_VALUE.match(text, head.end)
        if renewed is not None:
            found.append((renewed, STATED))
    follow = text[head.end : head.end + 1]
    # A Korean or Japanese noun, or a Latin one with a particle glued on ("PIN은 4827이야"): the same
    # test find_heads used to let the Latin noun end there.
    if (not head.latin and _CJK_CHAR.search(head.word)) or GLUED_SCRIPT.match(follow):
        particle = _CJK_PARTICLE.match(text, head.end)
        if particle is not None:
            found.append((particle, STATED if particle.group("particle") else BARE))
        if head.family in ("password", "pin"):
            later = _CJK_LATER_COLON.match(text, head.end) or _CJK_TELLS.match(text, head.end)
            if later is not None:
                found.append((later, STATED))
        return found
    if follow in ("'", "’"):
        statement = _POSSESSIVE.match(text, head.end)
    elif follow and follow in " \t:=：":
        next_word = _NEXT_WORD.match(text, head.end)
        word = next_word.group(1).lower().rstrip(":") if next_word else ""
        statement = None
        opens_phrase = word in _STATEMENT_STARTS or word.startswith(_ELIDED_PREPOSITIONS)
        if follow not in " \t" or word[:1] in (":", "=", "：") or opens_phrase:
            statement = _statement_pattern(head).match(text, head.end)
            if statement is None and follow in " \t" and word != "to":
                closing = _PREPOSITION_VALUE.match(text, head.end)
                if closing is not None:
                    found.append((closing, BARE))
            if statement is None and head.family in ("pin", "password") and word in _PREPOSITIONS_SET:
                # "ATM PIN for the joint account I use for appa's payments is 839631": a long account of
                # what it opens, then "is" and the value (judged as stated).
                statement = _LONG_OPENS_STATEMENT.match(text, head.end)
        if word in _CHANGED_TO_WORDS:
            changed = _CHANGED_TO.match(text, head.end)
            if changed is not None:  # "password to continue": only a password-shaped value counts
                found.append((changed, BARE))
        elif next_word is not None and not opens_phrase and not _PLAIN_WORD(next_word.group(1)):
            bare = _BARE.match(text, head.end)
            if bare is not None:
                found.append((bare, STATED if labelled else BARE))
    else:
        statement = None
    if statement is not None:
        found.append((statement, STATED))
    if head.latin and follow in " \t":  # "password are the same lol: X": the copula's value was no value
        found.extend(_later_colon(text, head))
    return found


def _value_before(words: list[re.Match[str]], copulas: bool = True) -> re.Match[str] | None:
    """The value word of a value-first statement ending right before the head, if any; without
    `copulas`, only the "use X as/for the ..." form counts."""
    lowered = [word.group().lower() for word in words]
    for connector in range(len(words) - 1, max(len(words) - 5, 0), -1):
        between = lowered[connector + 1 :]
        if between and between[0] in _OWNERS:
            between = between[1:]
        if len(between) > 2 or not all(_FILLER.fullmatch(word) and word not in _LINKS for word in between):
            continue
        if lowered[connector] in _AS:
            verb = lowered[connector - 2] if connector >= 2 else ""
            if (
                verb in _USE_VERBS
                or lowered[connector - 3 : connector - 1] == ["it", "is"]
                or verb in ("it's", "its")
            ):
                return words[connector - 1]
        elif copulas and lowered[connector] in _COPULAS:
            return words[connector - 1]
        elif (
            copulas
            and lowered[connector] in _POINTERS
            and connector >= 2
            and lowered[connector - 1] in _DASHES
        ):
            return words[connector - 2]
    return None


def _backward(text: str, head: Head, covered: Coverage) -> Candidate | None:
    if head.family in ("pass", "auth", WEAK) or head.in_identifier or not head.latin:
        return None
    window_start = max(0, head.start - 96)
    if _BACKWARD_GATE.search(text, max(0, head.start - 48), head.start) is None:
        return None
    # A network name is stated as often as its password ("HomeNet5G is the wifi"): only "it's X for
    # the wifi" gives a network's value.
    copulas = head.family != "network"
    word = _value_before(list(_WORD.finditer(text, window_start, head.start))[-7:], copulas)
    if word is None:
        return None
    raw = word.group()
    start, end = strip_value(raw)
    value = raw[start:end]
    start, end = word.start() + start, word.start() + end
    if not has_password_shape(value):  # "use fingerprint as the password" names no password
        return None
    if value.isalpha() and text[end : head.start].strip() == "=":
        return None  # "contentType = Password": a field set to the word, not a password
    if covered.covers(start, end) or not acceptable(head.family, value, STATED):
        return None
    return Candidate(_KINDS[head.family], start, end, "context-value-first", PRIORITY)


def context_candidates(text: str, heads: list[Head], covered: Coverage) -> list[Candidate]:
    found: list[Candidate] = []
    for head in heads:
        for match, form in _forward_matches(text, head):
            candidate = _candidate(head, match, form, covered)
            if candidate is not None:
                found.append(candidate)
        before = _backward(text, head, covered)
        if before is not None:
            found.append(before)
    return found
