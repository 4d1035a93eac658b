"""Layered secret detection and redaction for chat text: deterministic rules, no copies of values.

find_secrets(text)   -> sorted, non-overlapping SecretFinding spans
redact(text)         -> Redaction(text with "[REDACTED:<kind>]", findings)
contains_secret(text)
"""

from pandora_memory.secrets.detector import find_secrets
from pandora_memory.secrets.findings import Redaction, SecretFinding
from pandora_memory.secrets.redact import contains_secret, redact

__all__ = ["Redaction", "SecretFinding", "contains_secret", "find_secrets", "redact"]
