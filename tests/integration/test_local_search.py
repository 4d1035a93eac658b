"""The GPT Action's search over the embedded local stack, end to end through HTTP: a Markdown file put in
the local bucket is ingested by its S3 event, then found by POST /api/memory/search with a bearer token
and quoted in a pre_answer turn's context. Namespaces stay apart on the wire too."""

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from pandora_devstack.s3_events import S3EventBridge
from pandora_devstack.stack import LocalStack
from pandora_memory.settings import get_settings

pytestmark = pytest.mark.integration

SEARCH = "/api/memory/search"
TURN = "/api/memory/adaptive/turn"
TIMEOUT_SECONDS = 10
INGEST_TIMEOUT_SECONDS = 20
NOTE_KEY = "memory/real_life/projects/lighthouse-launch.md"
NOTE = """# Lighthouse launch

## Budget

The lighthouse launch budget is capped at 40k; Dana signs off on anything above it.

## Venue

The harbour hall is booked for the first Saturday of June.
"""
AU_NOTE_KEY = "memory/au/canon/lighthouse.md"
AU_NOTE = (
    "# Lighthouse\n\n## Budget\n\nThe lighthouse keeper's budget is paid in sea glass by the tide court.\n"
)


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    get_settings.cache_clear()  # a fresh stack is a fresh container: no settings from earlier tests
    stack = LocalStack(
        api_port=0,
        state_dir=tmp_path_factory.mktemp("workdir") / ".pandora",
        access_log=False,
        background_tasks=[S3EventBridge()],
    )
    stack.start()
    yield stack
    stack.stop()
    get_settings.cache_clear()


def call(local: LocalStack, path: str, token: str, **body: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"}
    return requests.post(local.api_url + path, json=body, headers=headers, timeout=TIMEOUT_SECONDS)


def search_until_found(local: LocalStack, namespace: str, query: str) -> list[dict[str, Any]]:
    """Searches until the ingest (driven by the S3 event) has made the note searchable."""
    token = local.info.tokens[namespace]
    deadline = time.monotonic() + INGEST_TIMEOUT_SECONDS
    while True:
        response = call(local, SEARCH, token, namespace=namespace, query=query, limit=5)
        assert response.status_code == 200, response.text
        found: list[dict[str, Any]] = response.json()["results"]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture(scope="module")
def uploaded(local: LocalStack) -> dict[str, list[dict[str, Any]]]:
    s3 = local.session().client("s3", endpoint_url=local.aws_endpoint)
    s3.put_object(Bucket=local.info.bucket, Key=NOTE_KEY, Body=NOTE.encode())
    s3.put_object(Bucket=local.info.bucket, Key=AU_NOTE_KEY, Body=AU_NOTE.encode())
    return {
        "real_life": search_until_found(local, "real_life", "lighthouse launch budget"),
        "au": search_until_found(local, "au", "lighthouse budget"),
    }


def test_an_uploaded_note_is_found_by_search_with_its_path_and_headings(
    uploaded: dict[str, list[dict[str, Any]]],
) -> None:
    best = uploaded["real_life"][0]
    assert best["logical_path"] == "projects/lighthouse-launch"
    assert best["heading_path"] == ["Lighthouse launch"]  # a small note stays one chunk
    assert "capped at 40k" in best["text"] and best["kind"] == "chunk"
    assert best["revision_id"].startswith("projects/lighthouse-launch#") and best["score"] > 0
    assert {result["namespace"] for result in uploaded["real_life"]} == {"real_life"}
    assert not any("sea glass" in result["text"] for result in uploaded["real_life"])
    assert {result["namespace"] for result in uploaded["au"]} == {"au"}
    assert not any("40k" in result["text"] for result in uploaded["au"])


def test_the_pre_answer_context_quotes_the_note(
    local: LocalStack, uploaded: dict[str, list[dict[str, Any]]]
) -> None:
    assert uploaded["real_life"]
    response = call(
        local,
        TURN,
        local.info.tokens["real_life"],
        namespace="real_life",
        user_message="what did we decide about the lighthouse launch budget?",
        mode="pre_answer",
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["should_retrieve"] is True and body["retrieval"]["mode"] == "hybrid"
    assert (
        "From your notes:\n- projects/lighthouse-launch § Lighthouse launch: # Lighthouse" in body["context"]
    )
    assert "capped at 40k" in body["context"]
    assert body["retrieval"]["sources"][0] == "projects/lighthouse-launch"
    assert "sea glass" not in body["context"]


def test_an_au_token_cannot_search_real_life(
    local: LocalStack, uploaded: dict[str, list[dict[str, Any]]]
) -> None:
    response = call(local, SEARCH, local.info.tokens["au"], namespace="real_life", query="lighthouse budget")
    assert response.status_code == 403
    assert response.json()["error"] == "namespace_not_allowed" and "40k" not in response.text


@pytest.mark.parametrize(
    "body",
    [
        {"namespace": "real_life", "query": "x" * 2001},
        {"namespace": "real_life", "query": "budget", "limit": 50},
        {"namespace": "real_life", "query": "budget", "path_prefix": "../"},
        {"namespace": "real_life", "query": "budget", "unexpected": True},
    ],
)
def test_invalid_searches_are_422(local: LocalStack, body: dict[str, Any]) -> None:
    response = call(local, SEARCH, local.info.tokens["real_life"], **body)
    assert response.status_code == 422 and response.json()["error"] == "invalid_request"


def test_search_without_a_token_is_refused_by_the_gateway(local: LocalStack) -> None:
    response = requests.post(
        local.api_url + SEARCH, json={"namespace": "au", "query": "budget"}, timeout=TIMEOUT_SECONDS
    )
    assert response.status_code == 401 and response.json() == {"message": "Unauthorized"}
