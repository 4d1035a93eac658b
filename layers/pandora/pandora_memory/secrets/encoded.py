"""Credentials inside base64: a long base64 word that decodes to readable text is scanned again.

Kubernetes data values, `.dockerconfigjson`, CI variables and `echo ... | base64` carry a database URL
or a token that no rule recognises in its encoded form. Random bytes (an image, a digest, a key)
almost never decode to readable UTF-8, so only encoded text is read again.
"""

import base64
import binascii
import re
from collections.abc import Callable, Iterator

from pandora_memory.secrets.findings import Candidate

PRIORITY = 1
# Standard or URL-safe alphabet; 20 characters hold 15 bytes, the shortest "user:password@host".
_ENCODED = re.compile(r"(?<![\w+/\-])(?:[A-Za-z0-9+/]{20,}|[A-Za-z0-9_\-]{20,})={0,2}(?![\w+/\-=])")
_READABLE_CONTROLS = str.maketrans("", "", "\n\r\t")

_KIND_PREFIX = "base64_"

Scan = Callable[[str], list[Candidate]]


def decoded_text(word: str) -> str | None:
    """The text a base64 word encodes, or None when it encodes bytes that are not readable text."""
    padded = word.rstrip("=") + "=" * (-len(word.rstrip("=")) % 4)
    try:
        if "-" in word or "_" in word:
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    return decoded if decoded.translate(_READABLE_CONTROLS).isprintable() else None


def encoded_candidates(text: str, long_words: str, scan: Scan) -> Iterator[Candidate]:
    """`long_words` are the message's long words; `scan` finds candidates in a decoded text."""
    if _ENCODED.search(long_words) is None:
        return
    for match in _ENCODED.finditer(text):
        decoded = decoded_text(match.group())
        if decoded is None:
            continue
        inner = scan(decoded)
        if inner:
            kind = min(inner, key=lambda candidate: candidate.priority).kind.removeprefix(_KIND_PREFIX)
            yield Candidate(_KIND_PREFIX + kind, match.start(), match.end(), "base64-decoded", PRIORITY)
