"""The CLI's review client: every call SigV4-signed for execute-api, every failure one clear line."""

import json
from typing import Any

import pytest
import requests
from pandora_memory.cli.review_api import (
    EXIT_REFUSED,
    EXIT_UNREACHABLE,
    ApiTarget,
    ReviewApi,
    ReviewApiError,
    SigningKeys,
    resolve_target,
)

TARGET = ApiTarget(
    "https://abc123.execute-api.eu-west-1.amazonaws.com/dev",
    "eu-west-1",
    SigningKeys("AKIDEXAMPLEREVIEW001", "fake-secret-key-for-signing-tests-000000"),
)


class FakeSession(requests.Session):
    def __init__(self, status: int = 200, body: Any = None, error: Exception | None = None) -> None:
        super().__init__()
        self.status, self.body, self.error = status, body, error
        self.sent: list[dict[str, Any]] = []

    def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:
        self.sent.append({"method": method, "url": url, **kwargs})
        if self.error is not None:
            raise self.error
        response = requests.Response()
        response.status_code = self.status
        response._content = json.dumps(self.body).encode() if self.body is not None else b""
        return response


def test_calls_are_signed_for_execute_api_in_the_target_region() -> None:
    session = FakeSession(body={"candidate": {"id": "x"}, "memory": {"id": "y"}})
    ReviewApi(TARGET, session).approve("real_life." + "a" * 64, summary="edited", sensitivity=None)
    (sent,) = session.sent
    authorization = sent["headers"]["Authorization"]
    assert authorization.startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLEREVIEW001/")
    assert "/eu-west-1/execute-api/aws4_request" in authorization
    assert "X-Amz-Date" in sent["headers"]
    assert json.loads(sent["data"]) == {"summary": "edited"}
    assert sent["url"].endswith("/approve")


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (
            403,
            {"message": "The security token included in the request is expired"},
            "AWS credentials expired",
        ),
        (403, {"message": "Missing Authentication Token"}, "access denied (403)"),
        (
            409,
            {"error": "status_conflict", "reason": "the candidate is approved", "current_status": "approved"},
            "current status approved",
        ),
        (422, {"error": "secret_in_summary", "reason": "the summary holds a secret (github_pat)"}, "secret"),
        (502, None, "HTTP 502"),
    ],
)
def test_refusals_become_one_line(status: int, body: Any, expected: str) -> None:
    with pytest.raises(ReviewApiError) as raised:
        ReviewApi(TARGET, FakeSession(status, body)).list_candidates("real_life")
    assert expected in str(raised.value)
    assert "\n" not in str(raised.value)
    assert raised.value.exit_code == EXIT_REFUSED
    assert raised.value.status == status


def test_network_failures_are_unreachable() -> None:
    for error in (requests.ConnectionError("refused"), requests.Timeout("slow")):
        with pytest.raises(ReviewApiError) as raised:
            ReviewApi(TARGET, FakeSession(error=error)).get("real_life." + "a" * 64)
        assert raised.value.exit_code == EXIT_UNREACHABLE


def test_the_region_is_read_from_an_api_gateway_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLEREVIEW002")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "fake-secret-key-for-signing-tests-000001")
    target = resolve_target("https://abc.execute-api.ap-south-1.amazonaws.com/prod/", None, local=False)
    assert target.region == "ap-south-1"
    assert target.api_url == "https://abc.execute-api.ap-south-1.amazonaws.com/prod"


def test_no_url_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PANDORA_API_URL", raising=False)
    with pytest.raises(ReviewApiError, match="no API URL"):
        resolve_target(None, None, local=False)
