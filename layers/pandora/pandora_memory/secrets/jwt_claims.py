"""JWTs: read the payload (base64url, never verified) to tell a grant of access from a public key.

A Supabase anon key and a service_role key differ only in the ``role`` claim, so the shape alone
cannot decide. Recall comes first: a token whose payload cannot be read is treated as a secret.
"""

import base64
import binascii
import json
import re
from collections.abc import Iterator

from pandora_memory.secrets.findings import Candidate

JWT_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_\-.])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*(?![A-Za-z0-9_\-])"
)
# A JWT header, then a payload that is no JSON (encrypted, cut or mangled in the paste) and a
# signature: its claims cannot say it is public, so it is judged by its header alone.
_OPAQUE_JWT = re.compile(
    r"(?<![A-Za-z0-9_\-.])(?P<header>eyJ[A-Za-z0-9_\-]{8,})\.(?!eyJ)[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"
    r"(?![A-Za-z0-9_\-.])"
)
JWT_NEEDLES = ("eyJ",)

# Roles handed to browsers on purpose: the key is public and grants only what row policies allow.
PUBLIC_ROLES = frozenset({"anon", "anonymous", "public", "publishable"})
PRIVILEGED_ROLES = frozenset({"service_role", "supabase_admin", "admin", "postgres", "dashboard_user"})


def decode_segment(segment: str) -> dict[str, object] | None:
    """The JSON object of one base64url segment, or None when it is not one."""
    padded = segment + "=" * (-len(segment) % 4)
    try:
        decoded = json.loads(base64.urlsafe_b64decode(padded))
    except (binascii.Error, ValueError):
        return None
    return decoded if isinstance(decoded, dict) else None


def classify_jwt(token: str) -> str | None:
    """The finding kind for a JWT, or None when its claims say it is public."""
    parts = token.split(".")
    payload = decode_segment(parts[1]) if len(parts) >= 2 else None
    if payload is None:
        return "jwt"
    role = str(payload.get("role", "")).lower()
    if role in PUBLIC_ROLES:
        return None
    if role in PRIVILEGED_ROLES:
        return "supabase_service_role_key" if "supabase" in str(payload.get("iss", "")) else "jwt_privileged"
    return "jwt"


def jwt_candidates(text: str) -> Iterator[Candidate]:
    for match in JWT_PATTERN.finditer(text):
        kind = classify_jwt(match.group())
        if kind is not None:
            yield Candidate(kind, match.start(), match.end(), "jwt-claims", 1)
    for match in _OPAQUE_JWT.finditer(text):
        header = decode_segment(match.group("header"))
        if header is not None and "alg" in header:
            yield Candidate("jwt", match.start(), match.end(), "jwt-opaque-payload", 1)


def is_public_jwt(value: str) -> bool:
    """True for a JWT whose claims make it a public key (Supabase anon), so no rule flags it."""
    return bool(JWT_PATTERN.fullmatch(value)) and classify_jwt(value) is None
