"""The rules version changes whenever the rules do: decisions and feedback events carry it, so two
different rule sets must never share one version."""

import hashlib
from importlib import resources

from pandora_memory.policy.rules import RULES_FILE, policy_version

# The fingerprint of rules.toml (its version line and whole-line comments left out) recorded for the
# current version. A rule change without a new version fails here: bump `version`, then record the new
# fingerprint.
RECORDED = {"2026.12.01-183": "9e5b907d23bedec9"}


def _fingerprint() -> str:
    text = resources.files("pandora_memory.policy").joinpath(RULES_FILE).read_text(encoding="utf-8")
    lines = (line for line in text.splitlines() if not line.startswith(("version = ", "#")))
    body = "\n".join(lines)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def test_the_rules_carry_a_new_version_whenever_they_change() -> None:
    version = policy_version()
    assert version in RECORDED, f"record the fingerprint of rules {version}: {_fingerprint()}"
    assert RECORDED[version] == _fingerprint(), (
        f"rules.toml changed under version {version}: bump it and record {_fingerprint()}"
    )
