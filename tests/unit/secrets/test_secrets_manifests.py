"""Credentials inside Kubernetes Secret manifests: every data value is one, whatever its key."""

import pytest
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
    assert "DATABASE_URL: [REDACTED:" in redacted.text
    assert "name: ledger-db" in redacted.text


def test_a_config_map_beside_a_secret_keeps_its_settings() -> None:
    text = "kind: ConfigMap\ndata:\n  LOG_LEVEL: info\n---\n" + _SECRET

    assert "LOG_LEVEL: info" in redact(text).text


def test_a_secret_manifest_with_placeholders_holds_no_secret() -> None:
    template = "kind: Secret\nstringData:\n  API_TOKEN: <your-token-here>\n  DB_PASSWORD: ${DB_PASSWORD}\n"

    assert find_secrets(template) == []


@pytest.mark.parametrize("kind_line", ["kind:Secret", "kind:   Secret", 'kind: "Secret"', "kind:\tSecret"])
def test_a_secret_manifest_is_read_however_its_kind_line_is_spaced(kind_line: str) -> None:
    manifest = f"apiVersion: v1\n{kind_line}\nstringData:\n  SIGNUP_SALT: quietmango-river7\n"

    assert "quietmango-river7" not in redact(manifest).text


def test_a_secret_printed_as_json_has_every_value_redacted() -> None:
    printed = '{"apiVersion": "v1", "kind": "Secret", "stringData": {"SIGNUP_SALT": "quietmango-river7"}}'

    assert redact(printed).text == printed.replace("quietmango-river7", "[REDACTED:kubernetes_secret]")


def test_a_config_map_printed_as_json_keeps_its_settings() -> None:
    assert find_secrets('{"kind": "ConfigMap", "data": {"LOG_LEVEL": "verbose-mode"}}') == []


@pytest.mark.parametrize(
    "command",
    [
        "kubectl create secret generic app --from-literal=SIGNUP_SALT=quietmango-river7",
        "kubectl -n web create secret generic app --from-literal 'SIGNUP_SALT=quietmango-river7'",
    ],
)
def test_every_literal_of_kubectl_create_secret_is_redacted(command: str) -> None:
    assert "quietmango-river7" not in redact(command).text
