"""Redaction: every secret span replaced by ``[REDACTED:<kind>]``; all other text unchanged."""

from pandora_memory.secrets.detector import find_secrets
from pandora_memory.secrets.findings import Redaction


def redact(text: str) -> Redaction:
    findings = find_secrets(text)
    if not findings:
        return Redaction(text, ())
    pieces: list[str] = []
    cursor = 0
    for finding in findings:
        pieces.append(text[cursor : finding.start])
        pieces.append(f"[REDACTED:{finding.kind}]")
        cursor = finding.end
    pieces.append(text[cursor:])
    return Redaction("".join(pieces), tuple(findings))


def contains_secret(text: str) -> bool:
    return bool(find_secrets(text))
