"""Structural rules: places whose syntax says "credential here" whatever the provider.

Private-key blocks, ``scheme://user:password@host``, OAuth parameters in URLs, Authorization
headers, ``curl -u user:pass`` and password flags of command lines. Each returns candidates whose
span is the secret part only, so the rest of a URL or command stays readable after redaction.
"""

import base64
import binascii
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pandora_memory.secrets.calls import positional_credentials
from pandora_memory.secrets.context_rules import ASSIGNED, acceptable
from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.heads import find_heads
from pandora_memory.secrets.jwt_claims import classify_jwt
from pandora_memory.secrets.kubernetes import KUBERNETES_NEEDLES, kubernetes_secrets
from pandora_memory.secrets.lexicon import NON_SECRET_SUFFIXES
from pandora_memory.secrets.providers import BASE64_40, aws_secret_shaped
from pandora_memory.secrets.user_pairs import (
    ACCOUNT_WORD_NEEDLES,
    EMAIL_NEEDLES,
    account_word_pairs,
    default_user_pairs,
    email_pairs,
)
from pandora_memory.secrets.user_pairs import NEEDLES as USER_PAIR_NEEDLES
from pandora_memory.secrets.values import (
    YEAR,
    components,
    has_digit,
    has_password_shape,
    is_dismissed,
    is_plain_language,
    is_public_identifier,
    looks_like_credential,
    looks_random,
    strip_value,
)

PRIORITY = 1

CandidateFinder = Callable[[str], Iterator[Candidate]]


@dataclass(frozen=True, slots=True)
class StructureRule:
    """`needles` are tested against the lower-cased message before `find` runs."""

    needles: tuple[str, ...]
    find: CandidateFinder


_PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN(?P<label>(?: [A-Z0-9]+)*?) PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[\s\S]{0,20000}?-----END(?: [A-Z0-9]+)*? PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:[A-Za-z0-9+/=\s:,.\-]|\\[nr])*)"
)
_PUTTY_PRIVATE = re.compile(r"Private-Lines:\s*\d+[\s\S]{0,8000}?(?:Private-MAC:\s*[0-9a-fA-F]+|$)")


_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")


def private_key_blocks(text: str) -> Iterator[Candidate]:
    """A whole private-key block. Without an END line (a truncated paste) the span stops after the
    last base64 run, so prose after it survives; a block with no key material is a placeholder."""
    for match in _PRIVATE_KEY_BLOCK.finditer(text):
        runs = list(_BASE64_RUN.finditer(text, match.end("label"), match.end()))
        if not runs:
            continue
        label = match.group("label")
        kind = (
            "private_key_openssh"
            if "OPENSSH" in label
            else "pgp_private_key"
            if "PGP" in label
            else "private_key_pem"
        )
        end = match.end() if "-----END" in match.group() else runs[-1].end()
        yield Candidate(kind, match.start(), end, "private-key-block", 0)
    for match in _PUTTY_PRIVATE.finditer(text):
        yield Candidate("private_key_putty", match.start(), match.end(), "putty-private-key", 0)


# The password runs to the "@" before the host: people paste passwords unescaped, with "@", "#", "?"
# "/", "<" or ">" in them ("postgres://app:p@ss#1@db"), and a password cut short leaks its rest; a
# placeholder ("<password>") is dismissed as a whole.
_URL_USERINFO = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]{1,24})://(?P<user>[^\s:@/?#\"'<>]{0,128}):"
    r"(?P<secret>[^\s\"']{1,256}?)@(?=(?:[\w.\-]+|\[[0-9A-Fa-f:.]+\])(?:[:/?#\s\"'<>),;]|$))"
)
# "http://localhost:3000/@user": a port and a path, with an "@" further on, holds no password.
_PORT_AND_PATH = re.compile(r"\d{1,5}[/?#].*", re.DOTALL)
_URL_TOKEN_USER = re.compile(
    r"\bhttps?://(?P<secret>[A-Za-z0-9_\-]{20,})@(?:[\w\-]+\.)*(?:github|gitlab|bitbucket|dev\.azure|huggingface)"
)
_SCHEME_KINDS = {
    "postgres": "postgres_url",
    "postgresql": "postgres_url",
    "mysql": "mysql_url",
    "mariadb": "mysql_url",
    "mongodb": "mongodb_url",
    "mongodb+srv": "mongodb_url",
    "redis": "redis_url",
    "rediss": "redis_url",
    "amqp": "amqp_url",
    "amqps": "amqp_url",
}


def url_credentials(text: str) -> Iterator[Candidate]:
    if "@" not in text:  # both forms hold one: most URLs carry no userinfo, and the scan is slow
        return
    for match in _URL_USERINFO.finditer(text):
        password = match.group("secret")
        if (password.isdigit() and not match.group("user")) or _PORT_AND_PATH.fullmatch(password):
            continue
        if is_dismissed(password):
            continue
        kind = _SCHEME_KINDS.get(match.group("scheme").lower().removeprefix("jdbc:"), "url_credentials")
        start, end = match.span("secret")
        yield Candidate(kind, start, end, "url-userinfo", PRIORITY)
    for match in _URL_TOKEN_USER.finditer(text) if "http" in text else ():
        if looks_random(match.group("secret")):
            start, end = match.span("secret")
            yield Candidate("url_credentials", start, end, "url-token-user", PRIORITY)


_URL_PARAMETER_NAME = (
    r"code|access_token|refresh_token|id_token|token|auth_token|oauth_token|oauth_verifier|"
    r"session_token|private_token|api_key|apikey|api-key|key|client_secret|secret|password|passwd|pwd|pass|"
    r"sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature|x-goog-credential|auth|s|k|t"
)
_URL_PARAMETER_NAMES = re.compile(_URL_PARAMETER_NAME)
_URL_PARAMETER = re.compile(
    rf"[?&#;](?P<name>{_URL_PARAMETER_NAME})=(?P<secret>[^&;\s#\"'<>]{{6,}})",
    re.IGNORECASE,
)


# Where an authorization server sends its one-time code back: a callback, a redirect, an OAuth path, or
# a URL that also carries the flow's `state`.
_AUTHORIZATION_RETURN = re.compile(r"callback|redirect|oauth|/auth|[?&;]state=", re.IGNORECASE)


def _authorization_code(text: str, at: int, value: str) -> bool:
    """ "…/auth/naver/callback?code=MNmIZVuGDiQSZvWnXT&state=…": a short code in such a URL grants a
    login even when it is too short to look random; a plain word or number does not."""
    url_start = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at)) + 1
    url_end = len(text) if (space := text.find(" ", at)) < 0 else space
    if _AUTHORIZATION_RETURN.search(text, url_start, url_end) is None:
        return False
    return (len(value) >= 10 and not value.isalpha()) or (len(value) >= 12 and not value.islower())


# A hook URL is its own credential: whoever has "…/hooks/e5180ed3ffef…" can fire it. The path segment
# after hooks/webhooks/triggers that is long and random is the secret.
_HOOK_PATH = re.compile(
    r"https?://[^\s/]{1,253}/(?:[^\s/?#]{1,64}/){0,6}(?:hooks?|webhooks?|triggers?)/"
    r"(?:[^\s/?#]{1,64}/){0,4}?(?P<secret>[A-Za-z0-9_\-]{24,256})(?![A-Za-z0-9_\-])",
    re.IGNORECASE,
)


def hook_urls(text: str) -> Iterator[Candidate]:
    for match in _HOOK_PATH.finditer(text):
        value = match.group("secret")
        if looks_like_credential(value) or (len(value) >= 32 and has_digit(value)):
            yield Candidate("webhook_url", *match.span("secret"), "hook-url", PRIORITY)


# A calendar's secret address ("…/calendar/ical/me%40gmail.com/private-209b5978…/basic.ics"): whoever
# has the link reads every event.
_PRIVATE_FEED = re.compile(
    r"https?://[^\s/]{1,253}/\S{0,300}?/(?P<secret>private-[0-9a-f]{20,64})(?![0-9a-f])"
)


def private_feed_urls(text: str) -> Iterator[Candidate]:
    for match in _PRIVATE_FEED.finditer(text):
        yield Candidate("private_feed_url", *match.span("secret"), "private-feed-url", PRIORITY)


# "steamcmd +login build_user Xq7!runway88": a login command given the user and then the password.
_PLUS_LOGIN = re.compile(r"\+login[ \t]+[^\s+]{1,64}[ \t]+(?P<secret>[^\s+]{4,128})")
# A software licence or product key, named as one: "serial number E3-UEIW-VLFY-6SX9-W9AR-VZNM".
_LICENCE_KEY = re.compile(
    r"(?i:licen[cs]e|product key|activation|serial(?: number)?|serial key|cd key)[^\n]{0,40}?"
    r"(?<![A-Z0-9-])(?P<secret>[A-Z0-9]{2,5}(?:-[A-Z0-9]{4,5}){3,7})(?![A-Z0-9-])"
)


# Keys that are their own shape: a BitLocker recovery key (eight groups of six digits) and a product
# or recovery key of five groups of five letters and digits ("CVVYL-PD9K7-MJSH4-KEFHJ-X8VFC").
_GROUPED_KEY = re.compile(r"(?<![\w-])(?P<secret>\d{6}(?:-\d{6}){7}|[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4})(?![\w-])")


def grouped_keys(text: str) -> Iterator[Candidate]:
    for match in _GROUPED_KEY.finditer(text):
        value = match.group("secret")
        if value[0].isdigit() or (
            sum(ch.isalpha() for ch in value) >= 8 and sum(ch.isdigit() for ch in value) >= 2
        ):
            yield Candidate("recovery_key", *match.span("secret"), "grouped-key", PRIORITY)


def plus_login(text: str) -> Iterator[Candidate]:
    for match in _PLUS_LOGIN.finditer(text):
        value = match.group("secret")
        if has_password_shape(value) and not is_dismissed(value):
            yield Candidate("password", *match.span("secret"), "plus-login", PRIORITY)


# An AWS secret key's shape (forty base64 characters with a / or +) in a message about AWS, wherever it
# stands: "Q8v6aNC0NI7qFJpj/pkIlMPoM+Ci1VbclldmxpP7 <- in khat e dovom e note, avali AKIA shoroo mishe".
_AWS_SECRET_SHAPE = re.compile(BASE64_40)


def aws_secret_shapes(text: str) -> Iterator[Candidate]:
    for match in _AWS_SECRET_SHAPE.finditer(text):
        value = match.group("secret")
        if ("/" in value or "+" in value) and aws_secret_shaped(value) and not is_dismissed(value):
            yield Candidate("aws_secret_key", *match.span("secret"), "aws-secret-key-shape", PRIORITY)


# Vercel's tokens without a prefix: twenty-four letters and digits, upper and lower case mixed, in a
# message about Vercel ("dre sent me this for vercel, what do i even do w it?? xO7ejnXd...").
_VERCEL_TOKEN_SHAPE = re.compile(r"(?<![\w\-./])[A-Za-z0-9]{24}(?![\w\-./])")


def vercel_token_shapes(text: str) -> Iterator[Candidate]:
    for match in _VERCEL_TOKEN_SHAPE.finditer(text):
        value = match.group()
        mixed = not value.islower() and not value.isupper() and sum(ch.isdigit() for ch in value) >= 2
        if mixed and looks_random(value) and not is_dismissed(value):
            yield Candidate("vercel_token", *match.span(), "vercel-token-shape", PRIORITY)


# A one-time code someone sent or asks to be sent ("WhatsApp sent me a code 960235", "send me the
# code 4471 they texted you"): whoever has it takes the account over.
_SENT_CODE = re.compile(
    r"(?i:\b(?:sent|texted|send|text|gave|give|forward|read)\s+(?:me|you|him|her|them|us)\s+"
    r"(?:a|the|this|that|my|your)\s+(?:\w+\s+)?code)[ \t:]*(?:is|was|of)?[ \t:]*"
    r"(?P<secret>\d{4,8})(?![\w.,]\d)"
)


def sent_codes(text: str) -> Iterator[Candidate]:
    for match in _SENT_CODE.finditer(text):
        # "sent you the code 2024 version": a year that goes on to name something.
        if (
            YEAR.fullmatch(match.group("secret"))
            and text[match.end() : match.end() + 2].strip()[:1].isalpha()
        ):
            continue
        yield Candidate("access_code", *match.span("secret"), "sent-code", PRIORITY)


# An authenticator's setup key as apps show it: base32 in groups of four ("svbx fa4l kb7x sn6k o2t3"),
# or in one run, after a word that names where it goes.
_SETUP_KEY = re.compile(
    r"(?i:authenticator|setup key|totp|2fa|mfa|otp|two-factor)[^\n]{0,60}?"
    r"(?P<secret>(?<![A-Za-z0-9])(?:[A-Za-z2-7]{4}[ -]){3,15}[A-Za-z2-7]{2,4}(?![A-Za-z0-9]))"
)


def authenticator_keys(text: str) -> Iterator[Candidate]:
    for match in _SETUP_KEY.finditer(text):
        value = match.group("secret")
        if sum(ch in "234567" for ch in value) >= 2 and not is_plain_language(value):
            yield Candidate("totp_secret", *match.span("secret"), "authenticator-setup-key", PRIORITY)


def licence_keys(text: str) -> Iterator[Candidate]:
    for match in _LICENCE_KEY.finditer(text):
        value = match.group("secret")
        if sum(ch.isalpha() for ch in value) >= 6 and sum(ch.isdigit() for ch in value) >= 2:
            yield Candidate("license_key", *match.span("secret"), "licence-key", PRIORITY)


def url_parameters(text: str) -> Iterator[Candidate]:
    for match in _URL_PARAMETER.finditer(text):
        name = match.group("name").lower()
        value = match.group("secret")
        if is_dismissed(value):
            continue
        credential_like = looks_like_credential(value) or len(value) >= 24
        if name == "code" and not credential_like:
            credential_like = _authorization_code(text, match.start(), value)
        if name in {"password", "passwd", "pwd", "pass"}:
            credential_like = len(value) >= 4
        if not credential_like:
            continue
        kind = {"code": "oauth_code", "refresh_token": "oauth_refresh_token"}.get(name, "url_token")
        start, end = match.span("secret")
        yield Candidate(kind, start, end, "url-parameter", PRIORITY)
    if "://" in text:
        yield from _random_parameters(text)


# Any other parameter of a URL whose value is long and random, whatever language names it
# ("?acces=pFKM-ImyCi…", "?zugang=…"): a link that opens something. Not the names that carry ids of
# public things or of tracking, which are random too (a playlist, a drive file, a click id).
_ANY_URL_PARAMETER = re.compile(
    r"://[^\s]*?[?&;](?P<name>[A-Za-z][\w.\-]{0,30})=(?P<secret>[A-Za-z0-9_\-.~%]{20,})(?=$|[&;#\s\"'<>)\]])"
)
_PUBLIC_PARAMETERS = frozenset(
    {
        *("id", "ids", "v", "vid", "video", "list", "playlist", "file", "fileid", "doc", "folder", "page"),
        *("p", "q", "query", "search", "ref", "fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid"),
        *("mc_eid", "si", "feature", "usp", "ved", "ei", "sca_esv", "rlz", "cid", "gid", "tab", "lang"),
        *("hl", "gl", "continue", "next", "return", "returnurl", "redirect_uri", "url", "state", "nonce"),
    }
)


def _random_parameters(text: str) -> Iterator[Candidate]:
    for match in _ANY_URL_PARAMETER.finditer(text):
        name = match.group("name").lower()
        if name in _PUBLIC_PARAMETERS or name.startswith("utm_") or _URL_PARAMETER_NAMES.fullmatch(name):
            continue
        value = match.group("secret")
        if looks_random(value) and not is_dismissed(value) and not is_public_identifier(value):
            yield Candidate("url_token", *match.span("secret"), "url-random-parameter", PRIORITY)


_BEARER = re.compile(r"\b(?i:bearer)\s+(?P<secret>[A-Za-z0-9\-._~+/]{8,}=*)(?![A-Za-z0-9\-._~+/=])")
_BASIC = re.compile(r"\b(?i:basic)\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_AUTHORIZATION = re.compile(
    r"(?i:(?:proxy-)?authorization)[\"']?\s*[:=]\s*[\"']?"
    # Any scheme word may come first ("KakaoAK", "SSWS", "Token"): what follows it is the credential.
    # A short token with words after it also reads as a scheme at first, so both are tried.
    r"(?:(?P<scheme>[A-Za-z][\w-]{1,24})\s+)?"
    r"(?P<secret>[^\s\"',;]{8,})"
)


def _basic_credentials(encoded: str) -> bool:
    try:
        decoded = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return ":" in decoded and decoded.isprintable()


def _may_hold(text: str, word: str) -> bool:
    """Whether a case-insensitive `word` can occur: in ASCII text only as text.lower() shows it (the
    Unicode case rules also match a few letters beyond ASCII, so other text is always scanned)."""
    return not text.isascii() or word in text.lower()


def authorization_headers(text: str) -> Iterator[Candidate]:
    # Each form is scanned only when its word is there: the rule runs when any one of them is.
    bearer, basic = _may_hold(text, "bearer"), _may_hold(text, "basic")
    for match in _BEARER.finditer(text) if bearer else ():
        value = match.group("secret")
        if value.startswith("eyJ") and classify_jwt(value) is None:
            continue
        if is_dismissed(value) or is_plain_language(value) or not looks_like_credential(value):
            continue
        yield Candidate("bearer_token", *match.span("secret"), "bearer-token", PRIORITY)
    for match in _BASIC.finditer(text) if basic else ():
        value = match.group("secret")
        header = "authorization" in text[max(0, match.start() - 40) : match.start()].lower()
        if _basic_credentials(value) or (header and looks_like_credential(value)):
            yield Candidate("basic_auth", *match.span("secret"), "basic-auth-header", PRIORITY)
    for match in _AUTHORIZATION.finditer(text) if _may_hold(text, "authorization") else ():
        for group in ("secret", "scheme"):
            if _header_credential(match.group(group)):
                yield Candidate("authorization_header", *match.span(group), "authorization-header", PRIORITY)
                break


def _header_credential(value: str | None) -> bool:
    if not value or value.lower() in {"bearer", "basic", "digest", "negotiate", "ntlm", "token"}:
        return False
    if is_dismissed(value) or (value.startswith("eyJ") and classify_jwt(value) is None):
        return False
    return looks_like_credential(value)


_USER_FLAG = re.compile(
    r"\b(?:curl|http|https|xh|wget)\b[^\n|;&]{0,300}?\s(?:-u|--user|-a|--auth)(?:\s+|=)?[\"']?"
    r"(?P<user>[^\s:\"']{0,128}):(?P<secret>[^\s\"']{1,256})"
)


_USER_FLAG_COMMANDS = ("curl", "http", "xh", "wget")  # one of them is in every _USER_FLAG match


def command_line_user_password(text: str) -> Iterator[Candidate]:
    if not any(map(text.__contains__, _USER_FLAG_COMMANDS)):
        return
    for match in _USER_FLAG.finditer(text):
        raw = match.group("secret")
        start, end = strip_value(raw)
        value = raw[start:end]
        if value and not is_dismissed(value):
            offset = match.start("secret")
            yield Candidate("basic_auth_curl", offset + start, offset + end, "curl-user", PRIORITY)


_QUOTED_OR_BARE = r"(?P<secret>\"[^\"\n]{1,256}\"|'[^'\n]{1,256}'|[^\s\"'|;&]{1,256})"
# "-" opens the pattern and the lookbehind after it checks the character before that "-": the
# engine then jumps from one "-" to the next instead of trying every position.
_CREDENTIAL_FLAG = re.compile(
    r"-(?<![\w\-]-)-?(?P<name>[A-Za-z][\w\-]{0,40})(?:=|\s+)" + _QUOTED_OR_BARE,
)
_FLAG_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "pwd",
        "token",
        "secret",
        "apikey",
        "credential",
        "credentials",
        "passphrase",
    }
)
_ATTACHED_MYSQL = re.compile(
    r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p"
    r"(?P<secret>\"[^\"\n]{1,256}\"|'[^'\n]{1,256}'|[^\s\"']{1,256})"
)
_SHORT_PASSWORD_FLAG = re.compile(
    r"(?:\btwine\b|\bsshpass\b|\bmcrcon\b|\b(?:docker|podman|nerdctl|buildah|skopeo|oras|crane|helm\s+registry)\s+login\b)"
    r"[^\n|;&]{0,200}?\s-p\s+"
    + _QUOTED_OR_BARE
    + r"|\bredis-cli\b[^\n|;&]{0,200}?\s-a\s+"
    + _QUOTED_OR_BARE.replace("secret", "secret2")
)
_SHORT_PASSWORD_COMMANDS = ("twine", "sshpass", "mcrcon", "login", "redis-cli")  # in every match of the above


def _flag_value(match: re.Match[str], group: str) -> Candidate | None:
    raw = match.group(group)
    start, end = strip_value(raw)
    value = raw[start:end]
    if not value or raw.startswith("-") or is_dismissed(value) or is_plain_language(value):
        return None
    offset = match.start(group)
    return Candidate("cli_password", offset + start, offset + end, "cli-flag", PRIORITY)


def command_line_flags(text: str) -> Iterator[Candidate]:
    for match in _CREDENTIAL_FLAG.finditer(text):
        parts = components(match.group("name"))
        named = [i for i, part in enumerate(parts) if part in _FLAG_WORDS or (part == "key" and i > 0)]
        if not named or parts[-1] in NON_SECRET_SUFFIXES or parts[-1] in {"stdin", "prompt", "env"}:
            continue
        found = _flag_value(match, "secret")
        if found is not None:
            yield found
    if "mysql" in text or "mariadb" in text:  # every _ATTACHED_MYSQL match names one
        for match in _ATTACHED_MYSQL.finditer(text):
            found = _flag_value(match, "secret")
            if found is not None:
                yield found
    if not any(map(text.__contains__, _SHORT_PASSWORD_COMMANDS)):
        return
    for match in _SHORT_PASSWORD_FLAG.finditer(text):
        found = _flag_value(match, "secret" if match.group("secret") else "secret2")
        if found is not None:
            yield found


_COOKIE_LINE = re.compile(r"(?im)^[ \t]*(?:set-)?cookie[ \t]*:[ \t]*(?P<body>[^\n]+)")
_COOKIE_PAIR = re.compile(r"(?P<name>[^\s=;]+)=(?P<secret>[^\s;]+)")


def cookies(text: str) -> Iterator[Candidate]:
    for line in _COOKIE_LINE.finditer(text):
        offset = line.start("body")
        for pair in _COOKIE_PAIR.finditer(line.group("body")):
            value = pair.group("secret")
            session_like = any(w in pair.group("name").lower() for w in ("sess", "sid", "auth", "token"))
            if len(value) >= 16 and (session_like or looks_random(value)) and not is_dismissed(value):
                start, end = pair.span("secret")
                yield Candidate("session_cookie", offset + start, offset + end, "cookie-header", PRIORITY)


_XML_ELEMENT = re.compile(
    r"<(?P<tag>[\w:.\-]{0,30}(?i:password|passwd|secret|token|api[_\-]?key|apikey|credential)[\w:.\-]{0,30})>"
    r"(?P<secret>[^<\n]{1,256})</(?P=tag)>"
)


def xml_elements(text: str) -> Iterator[Candidate]:
    """<password>...</password>, <apiKey>...</apiKey> in XML configs (Maven settings, .NET)."""
    for match in _XML_ELEMENT.finditer(text):
        parts = components(match.group("tag"))
        value = match.group("secret").strip()
        if (parts and parts[-1] in NON_SECRET_SUFFIXES) or is_dismissed(value) or is_plain_language(value):
            continue
        yield Candidate("password", *match.span("secret"), "xml-element", PRIORITY)


_NAMED_VALUE = re.compile(
    r"\b(?:key|name)[ \t]*=[ \t]*[\"'](?P<name>[^\"'\n]{1,60})[\"'][ \t]+value[ \t]*=[ \t]*"
    r"[\"'](?P<secret>[^\"'\n]{1,256})[\"']",
    re.IGNORECASE,
)


def named_values(text: str) -> Iterator[Candidate]:
    """<add key="ApiKey" value="..."/>, <param name="password" value="..."/> (.NET, Java configs)."""
    for match in _NAMED_VALUE.finditer(text):
        name = match.group("name")
        heads = find_heads(name, name.lower())
        if heads and acceptable(heads[-1].family, match.group("secret"), ASSIGNED):
            yield Candidate("secret", *match.span("secret"), "named-value", PRIORITY)


# An app password (Google's, Apple's app-specific one) is four groups of four lower-case letters: after
# the words for one, such a run is the password whatever verb sits between ("앱 비밀번호 만들었어요 abcd
# efgh ijkl mnop", "made an app password abcd efgh ...").
APP_PASSWORD_NEEDLES = (
    "application password",
    "recovery key",
    "recovery code",
    "app password",
    "app-password",
    "app-passwort",
    "app passwort",
    "app-wachtwoord",
    "app-specific password",
    "specific_password",
    "haslo aplikacji",
    "hasło aplikacji",
    "uygulama sifresi",
    "uygulama şifresi",
    "mật khẩu ứng dụng",
    "앱 비밀번호",
    "앱비밀번호",
    "앱 비번",
)
_APP_PASSWORD = re.compile(
    r"(?i:app(?:lication)?[ \-_](?:specific[ \-_])?(?:password|passwort|wachtwoord)|has[lł]o aplikacji"
    r"|uygulama [sş]ifresi|mật khẩu ứng dụng|앱 ?비밀번호|앱 비번)[^\n]{0,60}?"
    r"(?<![a-z])(?P<secret>[a-z]{4}(?:[ \-]?[a-z]{4}){3})(?![a-z])"
)


# WordPress application passwords and Apple recovery keys come in groups of four mixed letters and digits
# ("qTDU JVKK WiXC IpX7 Jgyu 3O5m", "tas7 kwrj 44ep jztq ..."): after their name, the run is the secret.
_GROUPED_AFTER_NAME = re.compile(
    r"(?i:application password|app password|recovery key|recovery code)[^\n]{0,60}?"
    r"(?<![A-Za-z0-9])(?P<secret>[A-Za-z0-9]{4}(?:[ \-][A-Za-z0-9]{4}){3,7})(?![A-Za-z0-9])"
)


def app_passwords(text: str) -> Iterator[Candidate]:
    for match in _APP_PASSWORD.finditer(text):
        yield Candidate("password", *match.span("secret"), "app-password", PRIORITY)
    for match in _GROUPED_AFTER_NAME.finditer(text):
        if any(ch.isdigit() for ch in match.group("secret")):
            yield Candidate("password", *match.span("secret"), "grouped-after-name", PRIORITY)


STRUCTURE_RULES: tuple[StructureRule, ...] = (
    StructureRule(KUBERNETES_NEEDLES, kubernetes_secrets),
    StructureRule(APP_PASSWORD_NEEDLES, app_passwords),
    StructureRule(("private key", "private-lines"), private_key_blocks),
    StructureRule(("://",), url_credentials),
    StructureRule(("=",), url_parameters),
    StructureRule(("hook", "trigger"), hook_urls),
    StructureRule(("/private-",), private_feed_urls),
    StructureRule(("+login",), plus_login),
    StructureRule(("-",), grouped_keys),
    StructureRule(("licen", "product key", "activation", "serial", "cd key"), licence_keys),
    StructureRule(("aws", "akia"), aws_secret_shapes),
    StructureRule(("vercel",), vercel_token_shapes),
    StructureRule(("code",), sent_codes),
    StructureRule(
        ("authenticator", "setup key", "totp", "2fa", "mfa", "otp", "two-factor"), authenticator_keys
    ),
    StructureRule(("bearer", "basic", "authorization"), authorization_headers),
    StructureRule((" -u", "--user", " -a", "--auth"), command_line_user_password),
    StructureRule(("--", " -p", " -a ", "-token", "-secret", "-key", "-cred", "-api"), command_line_flags),
    StructureRule(("cookie",), cookies),
    StructureRule(("</",), xml_elements),
    StructureRule(("value=", "value ="), named_values),
    StructureRule(("('", '("', ", '", ', "'), positional_credentials),
    StructureRule(USER_PAIR_NEEDLES, default_user_pairs),
    StructureRule(EMAIL_NEEDLES, email_pairs),
    StructureRule(ACCOUNT_WORD_NEEDLES, account_word_pairs),
)
