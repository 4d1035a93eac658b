"""The generic layer: a random-looking token close to a credential noun, whoever issued it.

It catches keys of providers no rule knows ("here's the mistral key yqbN..."). Public random
strings (hashes, UUIDs, ULIDs, versions, paths, public keys, URLs) are allowed by `values` and
`allowlist`, so "commit 1f25b5a..." next to the word "token" stays untouched.
"""

import bisect
import re
from collections.abc import Iterator

from pandora_memory.secrets.allowlist import Span, inside
from pandora_memory.secrets.findings import Candidate, Coverage
from pandora_memory.secrets.heads import Head, find_heads, names_an_entry
from pandora_memory.secrets.values import is_dismissed, is_public_identifier, looks_random

PRIORITY = 3
# A token before the noun must end close to it ("yqbN... is the mistral key"); after, it may be
# further ("key for the staging cluster: yqbN...").
LOOK_BEHIND = 24
LOOK_AHEAD = 96

# Password symbols ("mfcFxORKMS1NlB*7") belong to the token: cut at them, its halves look too short.
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-.~!#$%&*?^])[A-Za-z0-9+/_\-.~!#$%&*?^]{16,}={0,2}")
_KINDS = {"password": "password", "pin": "pin", "code": "access_code"}
_HEX_SECRET_FAMILIES = frozenset({"token", "secret", "auth"})
# Twilio, Datadog... (32), and a signing secret (64: "jwt secret: 9793..."); 40 is a git commit's.
_HEX_SECRET = re.compile(r"[0-9a-f]{32}|[0-9a-f]{64}")
_HASH_WORDS = re.compile(r"sha|md5|hash|checksum|digest|commit|etag|fingerprint|sum\b|build|version|\bid\b")
# `request_id=...`, `"trace": "...`: the value of a named field right before the token.
_FIELD_NAME = re.compile(r"([A-Za-z_][\w.\-]{0,60})[\"']?[ \t]*[:=][ \t]*[\"']?$")
# "the network name is Studio_Guest_5G", "ssid: ...", "a bot called ...": the token names something.
_STATED_NAME = re.compile(
    r"\b(?:name|ssid|username|user name|hostname|handle|called|named|nama|tên|nimi|namn|nom|nombre|nome)"
    r"(?:[ \t]+(?:is|was))?[ \t]*[:=)]?[ \t]*[\"'`]?$",
    re.IGNORECASE,
)


def _named_as_something_else(text: str, start: int, head: Head) -> bool:
    """The token is the value of a field whose name holds no credential noun (request_id, trace).

    A plain word closing a phrase that began with the noun is no field: in "fernet key we copied
    from the staging box: X" the colon hands X to the key, not to "box".
    """
    field = _FIELD_NAME.search(text, max(0, start - 64), start)
    if field is None:
        return False
    name = field.group(1)
    if find_heads(name, name.lower()):
        return False
    in_prose = name.isalpha() and name.islower() and field.group().rstrip().endswith(":")
    return not (in_prose and head.end <= field.start() and "\n" not in text[head.end : field.start()])


def _hex_secret_after(text: str, head: Head, start: int, end: int) -> bool:
    """ "twilio auth token. current one 1868c1bc...": 32 or 64 hex digits after a token or secret noun
    are the secret, unless a word around them says hash, digest or commit."""
    if (
        head.family not in _HEX_SECRET_FAMILIES
        or head.end > start
        or _HEX_SECRET.fullmatch(text, start, end) is None
    ):
        return False
    around = text[max(0, head.start - LOOK_BEHIND) : end + LOOK_BEHIND].lower()
    return _HASH_WORDS.search(around) is None


def _enclosing_word(text: str, start: int, end: int) -> str:
    """The whitespace-delimited word holding a token (bounded, so a huge blob stays cheap)."""
    floor, ceiling = max(0, start - 200), min(len(text), end + 200)
    while start > floor and not text[start - 1].isspace():
        start -= 1
    while end < ceiling and not text[end].isspace():
        end += 1
    return text[start:end].strip("\"'`,;()[]{}")


def entropy_candidates(
    text: str, heads: list[Head], public: list[Span], covered: Coverage
) -> Iterator[Candidate]:
    tokens = [match.span() for match in _TOKEN.finditer(text)]  # one pass, then windows by bisect
    ends = [end for _, end in tokens]
    starts = [start for start, _ in tokens]
    seen: set[int] = set()
    for head in heads:
        first = bisect.bisect_left(ends, head.start - LOOK_BEHIND)
        last = bisect.bisect_right(starts, head.end + LOOK_AHEAD)
        for start, end in tokens[first:last]:
            # A sentence's end is no part of the token ("order_Mp4Kd9Ws2Ne7Cq?"); "!" may be a password's.
            while end > start and text[end - 1] in ".-_~?":
                end -= 1
            if start in seen or start == head.start:
                continue
            if names_an_entry(text, head, text[start:end]):
                continue  # "cache key: menu-v3-…" names an entry; a stronger noun nearby may still claim it
            seen.add(start)
            if covered.covers(start, end) or inside(public, start, end):
                continue
            token = text[start:end]
            if "#" in token and is_public_identifier(token.rsplit("#", 1)[-1]):
                continue  # "SLOT#01M8RP5SP4R05E5X2EH43CGAAQ": a key-design prefix, then a ULID or UUID
            # Hex digits look less random than they are; after a token noun they are judged on context.
            if not _hex_secret_after(text, head, start, end) and (
                not looks_random(token) or is_dismissed(token) or is_public_identifier(token)
            ):
                continue
            if _named_as_something_else(text, start, head) or _STATED_NAME.search(
                text, max(0, start - 40), start
            ):
                continue
            word = _enclosing_word(text, start, end)
            if word != token and (is_dismissed(word) or is_public_identifier(word)):
                continue  # part of $2b$12$..., ${VAR:-...}, a path or a URL: judged as a whole
            kind = _KINDS.get(head.family, "generic_secret")
            yield Candidate(kind, start, end, "entropy-near-credential-word", PRIORITY)
