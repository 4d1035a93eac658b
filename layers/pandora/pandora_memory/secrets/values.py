"""Judging a candidate value on its own: placeholder, reference, public identifier, or credential-like.

The context rules find *where* a value is said to be a credential; these predicates decide whether
the thing said is one. They run only on short candidate strings, never on the whole message.
"""

import math
import re
import unicodedata
from collections import Counter

from pandora_memory.secrets.jwt_claims import is_public_jwt
from pandora_memory.secrets.lexicon import (
    ENGLISH_NON_VALUES,
    HEAD_FAMILIES,
    OTHER_LANGUAGE_NON_VALUES,
    PLACEHOLDER_COMPONENTS,
    PLACEHOLDER_SIGNAL_COMPONENTS,
    PLACEHOLDER_SUBSTRINGS,
    PLACEHOLDER_WORDS,
    TECHNICAL_NAMES,
    VAULT_WORDS,
)

_COMPONENT_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")
_PLACEHOLDER_NAMES = PLACEHOLDER_COMPONENTS | frozenset(HEAD_FAMILIES)

_REFERENCE = re.compile(
    r"""
    # $VAR $var ${VAR} $(cmd); not a mixed-case value such as $TdR9DyK8 or one going on in symbols
    # ($c*0q0skm8UbOm), which is a password
    ^\$(?:[{(]|[A-Z_][A-Z0-9_]*(?![A-Za-z0-9!@#%^&*~?+])|[a-z_][a-z0-9_]*(?![A-Za-z0-9!@#%^&*~?+]))
    | ^%[A-Za-z_]\w*%$                               # %VAR% (Windows)
    | %\(\w+\)[sd] | ^\{\w*\}$ | <%                     # %(name)s, {name}, <%= erb %>
    | \$\{\{ | \{\{ | \{%                            # ${{ secrets.X }} {{ var }} {% tag %}
    | ^!(?:[a-z][a-z_]*|(?:[A-Z][a-z]*){1,4})$         # YAML tags: !Ref, !GetAZs, !secret (not !ZoBBMMoazK)
    | ^\$(?:2[abxy]?|argon2(?:id|i|d)|scrypt|pbkdf2[\w\-]*|[156])\$  # password hashes, not passwords
    | \b(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|System\.getenv|ENV\[|env\(|
           Deno\.env|\.environment\[|infoDictionary|secrets\.|vars\.|config\.|settings\.|self\.|this\.|args\.|opts\.|options\.|
           params\.|props\.|context\.|ctx\.)
    | ^(?:resolve:)?(?:ssm|secretsmanager|vault|op|awssm|gcpsm|azkv|sops|keyring)[:/]
    | ^arn:aws
    | ^[A-Za-z_][\w.]*\(                             # a function call: get_secret("name")
    """,
    re.VERBOSE,
)
_CODE_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_URL = re.compile(r"^[a-z][a-z0-9+.\-]{1,15}://", re.IGNORECASE)
_URL_WITH_USERINFO = re.compile(r"^[a-z][a-z0-9+.\-]{1,15}://[^/\s@]*:[^/\s@]+@", re.IGNORECASE)
# Kubernetes pod / replica-set names: deployment-<hash>-<hash>.
_POD_NAME = re.compile(r"^[a-z][a-z0-9\-]*-[a-z0-9]{6,10}(?:-[a-z0-9]{5})?$")
_HOSTNAME = re.compile(r"^(?:[a-z0-9\-]{1,63}\.)+[a-z]{2,12}(?::\d{1,5})?/?$")
_EMAIL = re.compile(r"^[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+$")
_PATH_PREFIX = re.compile(r"^(?:~?/|\.{1,2}/|[A-Za-z]:\\|\\\\)")
_FILE_SUFFIX = re.compile(r"(?:^|[/\\])[\w.\-]+\.[A-Za-z][A-Za-z0-9]{0,5}$")
_WORD_PART = re.compile(r"^[A-Za-z][a-z]*$|^\d+$")
_LOWER_WORD = re.compile(r"[a-z][a-z'\-]*")
_UNSPACED_SCRIPT_WORDS = re.compile("[\u0e00-\u0e4f\u0e5a-\u0eff\u1000-\u103f\u104a-\u109f\u1780-\u17df]+")
# A mask repeats one character ("ghp_xxxxxxxx", "****abcd"); a random key may hold "xXX*" by chance.
_MASK_RUN = re.compile(r"x{4,}|X{4,}|\*{4,}|•{4,}|●{4,}|#{4,}")
_ZERO_RUN = "0" * 8
# "<your-key>", "<token": an angle bracket opening a value, or a pair around a
# name, marks a template; one inside a value ("Tq>w8pLx2") is just a character of a password.
_ANGLE_TEMPLATE = re.compile(r"^<|<[^<>]*>")
# "cache key app:v3:11460f82857eee05": a namespaced key path names an entry, it opens nothing.
_KEY_PATH = re.compile(r"[a-z][a-z0-9_\-]*(?::[\w\-.]+){2,}")
# "cache key: menu-v3-8779f4f415faf7c9": the same with dashes, trusted only after a lookup qualifier
# (a bare "the key: live-api-9f8e…" may well be a credential).
_DASHED_KEY_PATH = re.compile(r"[a-z]{3,}(?:[-.][a-z0-9_]+){2,}")
_PATH_SPLIT = re.compile(r"[/\\]")
_CHAIN_SPLIT = re.compile(r"[-_.@/]")
_HEX = re.compile(r"^(?:0x)?[0-9a-fA-F]+$")
# Microsoft sign-in errors ("AADSTS50126: invalid username or password"), quoted beside the word.
_SIGN_IN_ERROR = re.compile(r"AADSTS\d{4,6}")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_ULID = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+.][\w.\-]+)?$")
_DIGEST_PREFIX = re.compile(r"^(?:sha(?:1|224|256|384|512)|md5|blake2b?|xxh\d*)[-:=]", re.IGNORECASE)
_OBJECT_ID = re.compile(
    r"^(?:msg|toolu|chatcmpl|cmpl|run|thread|asst|file|batch|step|call|resp|req|evt|ch|pi|pm|seti|"
    r"prod|price|sub|si|in|ii|txn|acct|cus|card|src|tok|re|po|tr|py|cs|ba|btok|plink|inv|il|dp|"
    r"ord|order|inv|tkt|ticket|trace|span|job|build|pr|cl|cmd|task|org|usr|user|team|proj|ws|"
    r"pay|rfnd|cust|plan|pout|setl|item)"
    r"[_\-][A-Za-z0-9]{6,40}$"
)
# Keys made to be published: Stripe and Mapbox publishable keys, Toss Payments client keys, Langfuse
# and PostHog project keys, Supabase publishable keys, nostr and age public keys, Omise and Mercado Pago
# public keys.
_PUBLIC_PREFIX = re.compile(
    r"^(?:pk_(?:live|test)_|pk\.eyJ|pk-lf-|phc_|sb_publishable_|npub1|age1|(?:live|test)_g?ck_|pkey_(?:live|test)_"
    r"|(?:APP_USR|TEST)-[0-9a-f]{8}-[0-9a-f]{4}-)"
)
_IMAGE_DATA = re.compile(r"^data:[\w.+\-]+/[\w.+\-]+;base64,", re.IGNORECASE)
# Sentence punctuation after a value; "!" stays part of it (Winter2025! is a typical password).
_TRAILING = ".,;:?)]}>'\"`»」』。，、"
_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}


def components(value: str) -> list[str]:
    """Lower-cased parts of an identifier or template: YOUR_API_KEY -> [your, api, key]."""
    return [part.lower() for part in _COMPONENT_SPLIT.split(value) if part]


# A year is not a password ("password 2024 rotation is due")...
YEAR = re.compile(r"(?:19|20)\d\d")
# ...unless it closes the clause right after the noun ("카드 비번 1987"): birth years are common PINs.
CLAUSE_END = re.compile(r"[ \t]*(?:$|[\r\n.,;!?)])")


def value_span(match: re.Match[str]) -> tuple[int, int, str]:
    """Start, end and text of a match's `value` group once quotes and trailing punctuation are off."""
    raw = match.group("value")
    start, end = strip_value(raw)
    offset = match.start("value")
    return offset + start, offset + end, raw[start:end]


def strip_value(raw: str) -> tuple[int, int]:
    """Offsets (relative to `raw`) of the value once quotes and trailing punctuation are removed."""
    start, end = 0, len(raw)
    if end >= 2 and raw[0] in _QUOTES and raw[end - 1] == _QUOTES[raw[0]]:
        return 1, end - 1
    while end > start and raw[end - 1] in _TRAILING:
        end -= 1
    while start < end and raw[start] in "\"'`“‘«([":
        start += 1
    return start, end


def shannon_entropy(value: str) -> float:
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def is_placeholder(value: str) -> bool:
    """Templates and masks: <your-key>, YOUR_API_KEY, sk-..., ********, changeme, xxxx."""
    lowered = value.lower()
    if lowered in PLACEHOLDER_WORDS or not value.strip():
        return True
    if any(map(lowered.__contains__, PLACEHOLDER_SUBSTRINGS)):
        return True
    if ("<" in value or ">" in value) and _ANGLE_TEMPLATE.search(value):
        return True
    mask = max(map(len, _MASK_RUN.findall(value)), default=0)
    if mask >= 4 and (mask >= 8 or mask * 4 >= len(value)):
        return True  # ghp_xxxxxxxx..., ********, abc****: a random key holds no long run of x
    if _ZERO_RUN in value.replace("-", "").replace(" ", ""):
        return True  # KW-DEMO-0000-0000-0000: zeroed groups mask a key as x's do
    if len(value) >= 6:
        # The distinct characters and the commonest one's count, as Counter would give them,
        # counted with str methods in C.
        distinct = set(lowered)
        if value.isdigit():
            # "834333" is a PIN someone chose; only "111111" masks one.
            if len(distinct) == 1:
                return True
        elif len(distinct) <= 2 or max(map(lowered.count, distinct)) > 0.6 * len(value):
            return True
    parts = components(value)
    if any(part in PLACEHOLDER_SIGNAL_COMPONENTS for part in parts):
        return True
    return bool(parts) and not has_digit(value) and set(parts) <= _PLACEHOLDER_NAMES


def is_reference(value: str) -> bool:
    """A pointer to where the secret lives ($ENV, ${{ secrets.X }}, os.environ[...]), not the secret."""
    if _REFERENCE.search(value):
        return True
    return bool(_CODE_PATH.match(value)) and not has_digit(value)


def is_path(value: str) -> bool:
    if _PATH_PREFIX.match(value):
        # "/TmoUfvlk8+pLdrIBL53UX…", "/aamnmkRUIkDgXLEh…": one leading slash before thirty or more random
        # characters is a key that happens to open with "/", not a path (a path has more than one
        # segment or a plain name).
        one_segment = value.count("/") == 1 and len(value) >= 30 and value[0] == "/"
        return not (one_segment and ("+" in value or looks_random(value[1:])))
    if "+" in value or "=" in value:
        return False
    if _FILE_SUFFIX.search(value) and ("/" in value or "\\" in value):
        return True
    parts = _PATH_SPLIT.split(value)
    return len(parts) >= 3 and all(_WORD_PART.match(part) or not part for part in parts)


def is_url_without_credentials(value: str) -> bool:
    return bool(_URL.match(value)) and not _URL_WITH_USERINFO.match(value)


def is_plain_language(value: str) -> bool:
    """Ordinary words that follow a credential noun in talk about credentials ("is expired")."""
    lowered = value.lower()
    if lowered in ENGLISH_NON_VALUES or lowered in OTHER_LANGUAGE_NON_VALUES:
        return True
    if lowered in VAULT_WORDS or lowered in HEAD_FAMILIES:
        return True
    if _UNSPACED_SCRIPT_WORDS.fullmatch(value):
        return True  # Thai words run together with no space: the rest of the sentence, not a value
    if not _LOWER_WORD.fullmatch(lowered):
        return False
    return lowered.endswith(("ed", "ing", "ly", "able", "ible", "tion", "ment", "ness"))


def is_hostname(token: str) -> bool:
    """db-prod.cluster-xyz.us-east-1.rds.amazonaws.com, cluster0.abcde.mongodb.net/ ..."""
    return bool(_HOSTNAME.match(token))


def is_published_key(value: str) -> bool:
    """A key made to ship in client code (pk_live_..., phc_...): never a credential, whatever names it."""
    return _PUBLIC_PREFIX.match(value) is not None


def is_object_id(value: str) -> bool:
    """An API object's id by its prefix ("order_NzX3vW1pQa9cYe", "cus_Q2x..."): named, not secret."""
    return _OBJECT_ID.match(value) is not None


def is_public_identifier(token: str) -> bool:
    """Random-looking strings that are not secrets: hashes, ids, versions, paths, public keys."""
    bare = token[2:] if token[:2] in ("0x", "0X") else token
    return bool(
        (_HEX.match(bare) and len(bare) >= 7)
        or _UUID.match(token)
        or _ULID.match(token)
        or _VERSION.match(token)
        or _DIGEST_PREFIX.match(token)
        or _OBJECT_ID.match(token)
        or _PUBLIC_PREFIX.match(token)
        or _IMAGE_DATA.match(token)
        or _EMAIL.match(token)
        or token.startswith(("arn:", "AAAA"))
        or is_url_without_credentials(token)
        or is_path(token)
        or is_hostname(token)
        or _POD_NAME.match(token)
    )


def _is_word_chain(token: str) -> bool:
    """kebab/snake/dotted chains of words and numbers: my-app-2024, react-dom.production.min, and a
    technical name joined to one real word: ed25519-signed, sha256-digest (not ab12-cd34-ef56, nor a
    made-up secret such as my-hs256-signing-Secret-9)."""
    parts = [part for part in _CHAIN_SPLIT.split(token) if part]
    if len(parts) < 2:
        return False
    if all(_WORD_PART.match(part) for part in parts):
        return True
    if len(parts) != 2:
        return False
    tech, word = sorted(parts, key=lambda part: part.isalpha())
    return tech.lower() in TECHNICAL_NAMES and word.isalpha() and word.islower() and len(word) >= 4


_HAS_DIGIT = re.compile(r"\d").search
_HAS_ALPHA = re.compile(r"[^\W\d_]").search
_HAS_SYMBOL = re.compile(r"[\W_]").search
_CAMEL_HUMP = re.compile(r"[a-z][A-Z]")


def has_digit(value: str) -> bool:
    return _HAS_DIGIT(value) is not None


def has_lower(value: str) -> bool:
    return value.upper() != value


def has_upper(value: str) -> bool:
    return value.lower() != value


def looks_random(token: str) -> bool:
    """High-entropy, mixed-class strings the way generated keys look, unlike words or identifiers."""
    if len(token) < 16 or _is_word_chain(token):
        return False
    lower, upper = has_lower(token), has_upper(token)
    if not (lower or upper):
        return False
    if has_digit(token):
        if not (lower and upper) and len(token) < 20:
            return False
    elif len(token) < 24 or len(_CAMEL_HUMP.findall(token)) < len(token) / 6:
        return False
    threshold = 0.72 * math.log2(min(len(token), 64))
    return shannon_entropy(token) >= threshold


def looks_like_credential(value: str) -> bool:
    """A token-ish value stated as a key/token/secret: long enough and not a plain word or number."""
    if len(value) < 8 or is_plain_language(value) or value.isdigit():
        return False
    if _is_word_chain(value) and not looks_random(value):
        return False
    alpha = _HAS_ALPHA(value) is not None
    if alpha and has_digit(value):
        return True
    mixed_case = has_lower(value) and has_upper(value)
    return (alpha and mixed_case and _HAS_SYMBOL(value) is not None) or looks_random(value)


def looks_like_password(value: str) -> bool:
    """Any stated password that is not a placeholder, a reference or a plain word."""
    if len(value) < 4 or is_plain_language(value):
        return False
    return not (is_url_without_credentials(value) or _EMAIL.match(value))


# Digits with a symbol no number, time, date or price carries ("793@67", "4821#9", "446%63"); "#1234"
# is an issue or a room number, and "12.5%" a percentage.
_SYMBOL_DIGITS = re.compile(r"(?!#\d+$)(?![\d.]+%$)(?=[^!#*@^&~%]*[!#*@^&~%])(?=\D*\d\D*\d)[\d!#*@^&~%]{5,}")


def without_marks(value: str) -> str:
    """Tone marks and vowel signs (Thai, Devanagari, Bengali) are parts of letters, not the symbols of a
    password."""
    if value.isascii():
        return value
    return "".join(ch for ch in value if not unicodedata.category(ch).startswith("M"))


def has_password_shape(value: str) -> bool:
    """For a password given without "is"/":" ("password hunter2"): needs a digit, symbol or case mix."""
    value = without_marks(value)
    if _SYMBOL_DIGITS.fullmatch(value):
        return True
    if len(value) < 4 or value.isdigit() or _HAS_ALPHA(value) is None or is_plain_language(value):
        return False
    return has_digit(value) or _HAS_SYMBOL(value) is not None or (has_lower(value) and has_upper(value[1:]))


def is_dismissed(value: str) -> bool:
    """The common exclusions of every context rule."""
    return (
        is_placeholder(value)
        or is_reference(value)
        or is_path(value)
        or is_public_jwt(value)
        or _SIGN_IN_ERROR.fullmatch(value) is not None
    )


def is_key_path(value: str, *, lookup_qualified: bool) -> bool:
    """For a value after a noun that may be a credential or a lookup key: `lookup_qualified` when a
    word such as "cache" or "page" said which (heads.names_an_entry)."""
    if _KEY_PATH.fullmatch(value) is not None:
        return True
    return lookup_qualified and _DASHED_KEY_PATH.fullmatch(value) is not None
