"""Regions of a message that look random but are public by construction.

SSH public keys, public-key and certificate blocks, inline base64 images and plain URLs: the
generic entropy layer never flags a token inside one of them.
"""

import re

Span = tuple[int, int]

# An OpenSSH public key line: type, base64 body and the optional one-word comment (deploy@ci).
_SSH_PUBLIC_KEY = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r"\s+AAAA[A-Za-z0-9+/]+={0,3}(?:[ \t]+[^\s\"'`]{1,80}(?=[\s\"'`]|$))?"
)
_SSH_KEY_TYPES = ("ssh-", "ecdsa-")

_PUBLIC_REGIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aaaa", _SSH_PUBLIC_KEY),
    (
        "-----begin",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*(?:PUBLIC KEY|CERTIFICATE|CERTIFICATE REQUEST|PUBLIC KEY BLOCK|"
            r"X509 CRL|PARAMETERS|SIGNATURE|PGP SIGNATURE|PGP MESSAGE)-----"
            r"[\s\S]{0,20000}?(?:-----END[^-\n]*-----|$)"
        ),
    ),
    ("base64,", re.compile(r"data:[\w.+\-]+/[\w.+\-]+;base64,[A-Za-z0-9+/=]+")),
    ("://", re.compile(r"\b[a-z][a-z0-9+.\-]{1,15}://[^\s\"'<>`]+", re.IGNORECASE)),
)


def public_regions(lowered: str, text: str) -> list[Span]:
    """Sorted spans of public material; `lowered` is `text.lower()`, used for the cheap triggers."""
    spans: list[Span] = []
    for needle, pattern in _PUBLIC_REGIONS:
        if needle in lowered:
            spans.extend(match.span() for match in pattern.finditer(text))
    return sorted(spans)


def inside(spans: list[Span], start: int, end: int) -> bool:
    return any(span_start <= start and end <= span_end for span_start, span_end in spans)


def ssh_public_keys(lowered: str, text: str) -> list[Span]:
    """Spans of OpenSSH public key lines: nothing in them is a secret, whatever words they hold."""
    if not any(map(lowered.__contains__, _SSH_KEY_TYPES)):
        return []
    return [match.span() for match in _SSH_PUBLIC_KEY.finditer(text)]
