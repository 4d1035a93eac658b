"""The fake secrets a full run sends, and the values that must then be found nowhere.

Every secret-bearing line of the test corpora is sent: the labeled secret sets (lines with
`secret: true`), the capture sets' lines with `contains_secret`, and `tests/data/leak_corpus.jsonl`,
whose lines spell their secret out in `secret_value`. The values hunted for come from three sources
that do not depend on each other being right:

- `declared`: the corpus' own `secret_value` (written by hand, independent of any detector);
- `detected`: the spans the project's detector flags in each line;
- `suspected`: an independent rule, every token of 20+ characters mixing upper case, lower case and
  digits, minus a short list of public identifiers, each with its reason.
"""

import base64
import binascii
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pandora_memory.namespaces import Namespace
from pandora_memory.secrets import find_secrets

DATA = Path(__file__).resolve().parents[2] / "data"
LEAK_CORPUS = DATA / "leak_corpus.jsonl"
FIELDS = ("user_message", "assistant_draft", "current_task")

_TOKEN = re.compile(r"[A-Za-z0-9+/_\-.%!]{20,}")
_EDGE_PUNCTUATION = "./-_"
_URL_PATH = re.compile(r"\.[a-z]{2,}/")
# Public identifiers that look random; none of them grants access.
_TWILIO_ACCOUNT_SID = re.compile(r"^AC[0-9a-f]{32}$")  # the account's name, shown in the console
_OAUTH_STATE = re.compile(r"[?&]state=$")  # CSRF nonce echoed back by the provider, not a credential
# The body of an OpenSSH public key: published in authorized_keys files and on code hosts.
_SSH_PUBLIC_KEY_TYPE = re.compile(
    r"(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+$"
)


@dataclass(frozen=True)
class SecretLine:
    source: str
    namespace: Namespace
    fields: dict[str, str]
    declared: tuple[str, ...]
    detected: tuple[str, ...]
    suspected: tuple[str, ...]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.declared + self.detected + self.suspected))


def _is_public_jwt(token: str) -> bool:
    """A JWT whose role claim is `anon` (a Supabase anon key) is published in every web client."""
    parts = token.split(".")
    if len(parts) != 3:
        return False
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (binascii.Error, ValueError):
        return False
    return isinstance(claims, dict) and claims.get("role") == "anon"


def suspected_values(text: str) -> list[str]:
    found: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0).strip(_EDGE_PUNCTUATION)
        mixed = all(re.search(kind, token) for kind in ("[a-z]", "[A-Z]", "[0-9]"))
        if len(token) < 20 or not mixed or _URL_PATH.search(token):
            continue
        before = text[: match.start()]
        if (
            _TWILIO_ACCOUNT_SID.match(token)
            or _OAUTH_STATE.search(before)
            or _SSH_PUBLIC_KEY_TYPE.search(before)
        ):
            continue
        if _is_public_jwt(token):
            continue
        found.append(token)
    return found


def detected_values(text: str) -> list[str]:
    return [text[finding.start : finding.end] for finding in find_secrets(text)]


def _line(
    source: str, namespace: Namespace, fields: dict[str, str], declared: tuple[str, ...] = ()
) -> SecretLine:
    texts = list(fields.values())
    return SecretLine(
        source=source,
        namespace=namespace,
        fields=fields,
        declared=declared,
        detected=tuple(value for text in texts for value in detected_values(text)),
        suspected=tuple(value for text in texts for value in suspected_values(text)),
    )


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    with path.open(encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield number, json.loads(line)


def labeled_secret_lines(path: Path) -> Iterator[SecretLine]:
    """The labeled sets carry no namespace: lines alternate between the two."""
    namespaces = list(Namespace)
    for number, row in _jsonl(path):
        if row["secret"] is True:
            namespace = namespaces[number % len(namespaces)]
            yield _line(f"{path.name}:{number}", namespace, {"user_message": str(row["text"])})


def capture_secret_lines(path: Path) -> Iterator[SecretLine]:
    for number, row in _jsonl(path):
        if row.get("contains_secret") is True:
            fields = {"user_message": str(row["user_message"])}
            if row.get("assistant_response"):
                fields["assistant_draft"] = str(row["assistant_response"])
            yield _line(f"{path.name}:{number}", Namespace(str(row["namespace"])), fields)


def leak_corpus_lines(path: Path = LEAK_CORPUS) -> Iterator[SecretLine]:
    for _, row in _jsonl(path):
        field = str(row["field"])
        assert field in FIELDS, row["id"]
        value = str(row["secret_value"])
        assert value in str(row["text"]), f"{row['id']}: secret_value is not in its text"
        yield _line(str(row["id"]), Namespace(str(row["namespace"])), {field: str(row["text"])}, (value,))


def all_secret_lines(shared_eval: Path) -> list[SecretLine]:
    lines = [*labeled_secret_lines(DATA / "labeled_secrets.jsonl")]
    lines += capture_secret_lines(DATA / "labeled_capture.jsonl")
    # The public calibration sets sit beside the repository (in CI too); absent in a bare checkout.
    if (shared_eval / "secrets.jsonl").is_file():
        lines += labeled_secret_lines(shared_eval / "secrets.jsonl")
    if (shared_eval / "capture.jsonl").is_file():
        lines += capture_secret_lines(shared_eval / "capture.jsonl")
    lines += leak_corpus_lines()
    return lines
