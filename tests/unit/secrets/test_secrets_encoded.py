"""Credentials inside base64: what the encoded text holds decides, not how random it looks."""

import base64

import pytest
from pandora_memory.secrets import find_secrets, redact
from pandora_memory.secrets.encoded import decoded_text


def _encoded(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_a_base64_database_url_with_a_password_is_a_secret() -> None:
    value = _encoded("postgres://ledger:Tqw8pLx2@db:5432/ledger")

    redacted = redact(f"DATABASE_URL: {value}")

    assert value not in redacted.text
    assert redacted.text == "DATABASE_URL: [REDACTED:base64_postgres_url]"


def test_a_docker_config_with_an_encoded_auth_inside_is_found_two_layers_down() -> None:
    auth = _encoded("octo:ghp_Zq8wT3kLm9Vx2Rb7Yc4Nd1Hf6Js0Pa5Ue8Gi")
    config = _encoded('{"auths": {"ghcr.io": {"auth": "' + auth + '"}}}')

    assert [finding.kind for finding in find_secrets(f".dockerconfigjson: {config}")] == ["base64_github_pat"]


def test_url_safe_base64_is_decoded_too() -> None:
    value = base64.urlsafe_b64encode(b"mysql://app:P4ss~w0rd?x>@db/app").decode().rstrip("=")

    assert "-" in value or "_" in value
    assert find_secrets(f"conn {value}") != []


@pytest.mark.parametrize(
    "text",
    [
        _encoded("postgres://ledger@db:5432/ledger, no password on the local socket"),
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "internationalisation",
    ],
)
def test_encoded_text_without_a_credential_and_random_bytes_are_not_secrets(text: str) -> None:
    assert find_secrets(f"value: {text}") == []


def test_only_readable_text_counts_as_decoded() -> None:
    assert decoded_text(_encoded("hello there, general")) == "hello there, general"
    assert decoded_text("3f786850e387550fdab836ed7e6dc881de23001b") is None
