"""Credentials inside Kubernetes Secret manifests: every data value is one, whatever its key."""

from pandora_memory.secrets import find_secrets, redact

_SECRET = """apiVersion: v1
kind: Secret
metadata:
  name: ledger-db
type: Opaque
data:
  DATABASE_URL: cG9zdGdyZXM6Ly9sZWRnZXI6VHF3OHBMeDJAZGI6NTQzMi9sZWRnZXI=
  .dockerconfigjson: eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJkWE5sY2pwd1lYTnpJVEV5TXc9PSJ9fX0=
"""


def test_every_value_of_a_secret_manifest_is_redacted_and_the_keys_kept() -> None:
    redacted = redact(_SECRET)

    assert "cG9zdGdyZXM6" not in redacted.text
    assert "eyJhdXRocyI6" not in redacted.text
    assert "DATABASE_URL: [REDACTED:kubernetes_secret]" in redacted.text
    assert "name: ledger-db" in redacted.text


def test_a_config_map_beside_a_secret_keeps_its_settings() -> None:
    text = "kind: ConfigMap\ndata:\n  LOG_LEVEL: info\n---\n" + _SECRET

    assert "LOG_LEVEL: info" in redact(text).text


def test_a_secret_manifest_with_placeholders_holds_no_secret() -> None:
    template = "kind: Secret\nstringData:\n  API_TOKEN: <your-token-here>\n  DB_PASSWORD: ${DB_PASSWORD}\n"

    assert find_secrets(template) == []
