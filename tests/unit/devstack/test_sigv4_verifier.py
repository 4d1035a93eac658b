import dataclasses
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from pandora_devstack.messages import HttpRequest
from pandora_devstack.sigv4 import SigV4Verifier

REGION = "eu-west-3"
ACCESS_KEY = "LOCAL" + secrets.token_hex(8).upper()
SECRET_KEY = secrets.token_urlsafe(30)
HOST = "127.0.0.1:3000"


def _signed(
    method: str = "POST",
    target: str = "/api/memory/candidates/real_life.abc/approve?a=1&b=x%20y",
    body: bytes = b'{"note":"ok"}',
    key: str = SECRET_KEY,
    access_key: str = ACCESS_KEY,
    region: str = REGION,
    service: str = "execute-api",
    extra_headers: dict[str, str] | None = None,
    token: str | None = None,
) -> HttpRequest:
    """A request as botocore signs it, then as our HTTP server would receive it."""
    request = AWSRequest(method=method, url=f"http://{HOST}{target}", data=body)
    request.headers["Content-Type"] = "application/json"
    for name, value in (extra_headers or {}).items():
        request.headers[name] = value
    SigV4Auth(Credentials(access_key, key, token), service, region).add_auth(request)
    split = urlsplit(str(request.url))
    received = f"{split.path}?{split.query}" if split.query else split.path
    headers = (("Host", HOST), *((name, str(value)) for name, value in request.headers.items()))
    return HttpRequest(method=method, raw_target=received, headers=headers, body=body)


def _verifier(now: datetime | None = None) -> SigV4Verifier:
    return SigV4Verifier(ACCESS_KEY, SECRET_KEY, REGION, clock=lambda: now or datetime.now(UTC))


def _with(request: HttpRequest, **changes: Any) -> HttpRequest:
    return dataclasses.replace(request, **changes)


def test_a_request_signed_with_the_local_key_passes() -> None:
    result = _verifier().verify(_signed())
    assert result.ok and result.access_key_id == ACCESS_KEY


def test_get_without_body_and_with_signed_extra_headers_passes() -> None:
    request = _signed(
        "GET", "/api/memory/candidates?status=pending_review", b"", extra_headers={"X-Trace": "1"}
    )
    assert _verifier().verify(request).ok


def test_unsigned_request_is_missing_authentication() -> None:
    unsigned = HttpRequest("GET", "/api/memory/candidates", (("Host", HOST),))
    result = _verifier().verify(unsigned)
    assert not result.ok and result.message == "Missing Authentication Token"


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda r: _with(r, body=b'{"note":"changed"}'), id="body"),
        pytest.param(lambda r: _with(r, raw_target=r.raw_target.replace("abc", "abd")), id="path"),
        pytest.param(lambda r: _with(r, raw_target=r.raw_target.replace("a=1", "a=2")), id="query"),
        pytest.param(lambda r: _with(r, method="PUT"), id="method"),
        pytest.param(
            lambda r: _with(
                r, headers=tuple((n, "text/plain" if n == "Content-Type" else v) for n, v in r.headers)
            ),
            id="signed-header",
        ),
    ],
)
def test_any_change_after_signing_breaks_the_signature(tamper: object) -> None:
    result = _verifier().verify(tamper(_signed()))  # type: ignore[operator]
    assert not result.ok and result.error_type == "InvalidSignatureException"


def test_wrong_secret_key_is_refused() -> None:
    result = _verifier().verify(_signed(key=secrets.token_urlsafe(30)))
    assert not result.ok and result.error_type == "InvalidSignatureException"


def test_unknown_access_key_or_session_token_is_refused() -> None:
    assert (
        _verifier().verify(_signed(access_key="LOCALSOMEONEELSE")).error_type == "UnrecognizedClientException"
    )
    assert _verifier().verify(_signed(token="session-token")).error_type == "UnrecognizedClientException"


@pytest.mark.parametrize("scope", [{"region": "us-east-1"}, {"service": "s3"}])
def test_credential_scope_must_be_this_region_and_execute_api(scope: dict[str, str]) -> None:
    assert not _verifier().verify(_signed(**scope)).ok  # type: ignore[arg-type]


def test_signature_expires_after_five_minutes() -> None:
    request = _signed()
    assert _verifier(datetime.now(UTC) + timedelta(minutes=4)).verify(request).ok
    late = _verifier(datetime.now(UTC) + timedelta(minutes=6)).verify(request)
    assert not late.ok and "expired" in late.message


def test_declared_payload_hash_must_match_the_body() -> None:
    forged = _signed(extra_headers={"X-Amz-Content-SHA256": "0" * 64})
    assert not _verifier().verify(forged).ok


def test_host_must_be_signed() -> None:
    request = _signed()
    authorization = request.header("Authorization") or ""
    unsigned_host = authorization.replace("SignedHeaders=content-type;host;", "SignedHeaders=content-type;")
    headers = tuple((n, unsigned_host if n == "Authorization" else v) for n, v in request.headers)
    assert not _verifier().verify(_with(request, headers=headers)).ok


def test_compares_signatures_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import hmac

    compared: list[str] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        compared.append(b)
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    request = _signed()
    assert _verifier().verify(request).ok
    assert compared and compared[-1] in (request.header("Authorization") or "")
