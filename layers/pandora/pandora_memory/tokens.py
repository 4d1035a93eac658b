"""Bearer tokens for the ChatGPT Action: `pm_<token_id>_<secret>`, shown once, stored as a hash only.

The token id is public (it names the SSM parameter and appears in logs); the secret never leaves the
caller except as its SHA-256 digest, and is compared in constant time.
"""

import hashlib
import hmac
import json
import re
import secrets
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pandora_memory.namespaces import Namespace, parse_namespace

TOKEN_PREFIX = "pm"  # noqa: S105 - a public marker that makes leaked tokens easy to spot
TOKEN_ID_LENGTH = 12
# 32 random bytes: secrets.token_urlsafe(32) gives exactly 43 URL-safe characters.
SECRET_BYTES = 32
SECRET_LENGTH = 43
BEARER_SCHEME = "bearer"
MAX_LABEL_LENGTH = 200

_TOKEN_ID_ALPHABET = string.ascii_lowercase + string.digits
_TOKEN_ID = re.compile(rf"[a-z0-9]{{{TOKEN_ID_LENGTH}}}")
_SECRET = re.compile(rf"[A-Za-z0-9_-]{{{SECRET_LENGTH}}}")

_SHA256_HEX = re.compile(r"[0-9a-f]{64}")
_REQUIRED_FIELDS = ("token_id", "sha256", "namespaces", "created_at")


class MalformedTokenError(ValueError):
    """The text is not a Pandora bearer token. The message never repeats the text."""


class InvalidTokenRecordError(ValueError):
    """A token record (as stored in SSM) without the documented shape. The message names the field."""


# A frozen dataclass checked on construction, not a pydantic model: the authorizer reads one record per
# cold start and needs pydantic for nothing else.
@dataclass(frozen=True)
class TokenRecord:
    """What is stored for one token: its hash and its namespace scope, never the secret."""

    token_id: str
    sha256: str
    namespaces: tuple[Namespace, ...]
    created_at: datetime
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.token_id, str) or not _TOKEN_ID.fullmatch(self.token_id):
            raise InvalidTokenRecordError(f"token_id must be {TOKEN_ID_LENGTH} lower-case letters or digits")
        if not isinstance(self.sha256, str) or not _SHA256_HEX.fullmatch(self.sha256):
            raise InvalidTokenRecordError("sha256 must be 64 lower-case hex digits")
        object.__setattr__(self, "namespaces", _stored_scope(self.namespaces))
        object.__setattr__(self, "created_at", _stored_time(self.created_at))
        if not isinstance(self.label, str) or len(self.label) > MAX_LABEL_LENGTH:
            raise InvalidTokenRecordError(f"label must be text of at most {MAX_LABEL_LENGTH} characters")

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> "TokenRecord":
        """A record from its JSON document (`stored_value` plus the token id); other keys are ignored.
        Every field is checked by `__post_init__`, whatever type the document gave it."""
        missing = [name for name in _REQUIRED_FIELDS if name not in document]
        if missing:
            raise InvalidTokenRecordError(f"missing {', '.join(missing)}")
        return cls(
            token_id=document["token_id"],
            sha256=document["sha256"],
            namespaces=document["namespaces"],
            created_at=document["created_at"],
            label=document.get("label", ""),
        )

    def allows(self, namespace: Namespace) -> bool:
        return namespace in self.namespaces

    def stored_value(self) -> str:
        """The JSON kept in SSM: the token id is the parameter's name, so it is left out."""
        document = {
            "sha256": self.sha256,
            "namespaces": [namespace.value for namespace in self.namespaces],
            "created_at": _iso_time(self.created_at),
            "label": self.label,
        }
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _stored_scope(value: object) -> tuple[Namespace, ...]:
    if not isinstance(value, list | tuple | set | frozenset):
        raise InvalidTokenRecordError("namespaces must be a list")
    try:
        scope = canonical_scope(parse_namespace(item) for item in value)
    except ValueError as unknown:
        raise InvalidTokenRecordError(str(unknown)) from None
    if not scope:
        raise InvalidTokenRecordError("namespaces must name at least one namespace")
    return scope


def _stored_time(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise InvalidTokenRecordError("created_at must be an ISO 8601 date and time")


def _iso_time(moment: datetime) -> str:
    """ISO 8601 with "Z" for UTC, as the records written so far spell it."""
    text = moment.isoformat()
    return text[: -len("+00:00")] + "Z" if text.endswith("+00:00") else text


def canonical_scope(namespaces: Iterable[Namespace]) -> tuple[Namespace, ...]:
    """Unique namespaces in the enum's order, so equal scopes always serialise the same way."""
    wanted = set(namespaces)
    return tuple(namespace for namespace in Namespace if namespace in wanted)


def scope_claim(record: TokenRecord) -> str:
    """The authorizer context value: API Gateway context values must be flat strings."""
    return ",".join(namespace.value for namespace in record.namespaces)


def namespaces_from_claim(claim: str | None) -> frozenset[Namespace]:
    """Reads `scope_claim` back; unknown or empty entries grant nothing."""
    granted: set[Namespace] = set()
    for item in (claim or "").split(","):
        try:
            granted.add(Namespace(item.strip()))
        except ValueError:
            continue
    return frozenset(granted)


@dataclass(frozen=True)
class TokenParts:
    token_id: str
    secret: str = field(repr=False)


@dataclass(frozen=True)
class MintedToken:
    token: str = field(repr=False)
    record: TokenRecord


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def mint_token(
    namespaces: Iterable[Namespace], label: str = "", now: Callable[[], datetime] | None = None
) -> MintedToken:
    token_id = "".join(secrets.choice(_TOKEN_ID_ALPHABET) for _ in range(TOKEN_ID_LENGTH))
    secret = secrets.token_urlsafe(SECRET_BYTES)
    created_at = (now or (lambda: datetime.now(UTC)))()
    record = TokenRecord(
        token_id=token_id,
        sha256=hash_secret(secret),
        namespaces=canonical_scope(namespaces),
        created_at=created_at,
        label=label,
    )
    return MintedToken(token=f"{TOKEN_PREFIX}_{token_id}_{secret}", record=record)


def parse_token(token: str) -> TokenParts:
    # The secret's alphabet contains "_", so only the first two separators are structural.
    prefix, _, rest = token.partition("_")
    token_id, _, secret = rest.partition("_")
    if prefix != TOKEN_PREFIX or not _TOKEN_ID.fullmatch(token_id) or not _SECRET.fullmatch(secret):
        raise MalformedTokenError("not a Pandora bearer token")
    return TokenParts(token_id=token_id, secret=secret)


def parse_bearer_header(header: str | None) -> TokenParts:
    """Reads `Authorization: Bearer pm_...` (scheme case-insensitive, as RFC 6750 allows)."""
    if not header:
        raise MalformedTokenError("no bearer token")
    scheme, _, credentials = header.strip().partition(" ")
    if scheme.lower() != BEARER_SCHEME:
        raise MalformedTokenError("authorization scheme is not Bearer")
    return parse_token(credentials.strip())


def verify_secret(secret: str, record: TokenRecord) -> bool:
    return hmac.compare_digest(hash_secret(secret), record.sha256)


class AuthenticationError(Exception):
    """Why a header was refused: `malformed`, `unknown` or `mismatch`. Carries no token material."""

    def __init__(self, reason: str, token_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.token_id = token_id


def authenticate(header: str | None, find: Callable[[str], TokenRecord | None]) -> TokenRecord:
    """The record of the token in `header`, or AuthenticationError."""
    try:
        parts = parse_bearer_header(header)
    except MalformedTokenError:
        raise AuthenticationError("malformed") from None
    record = find(parts.token_id)
    if record is None:
        raise AuthenticationError("unknown", parts.token_id)
    if not verify_secret(parts.secret, record):
        raise AuthenticationError("mismatch", parts.token_id)
    return record
