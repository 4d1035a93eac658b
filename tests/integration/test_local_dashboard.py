"""`make dev`'s /_local/dashboard draws the template's CloudWatch widgets from what the local handlers
emitted: turns, a review approval and Markdown ingests go through the stack, then the page is read
as HTML and as JSON and screenshotted in headless Chromium.
"""

import json
import re
import struct
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import boto3
import pytest
import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from integration.chromium import screenshot
from pandora_devstack.background import RunningStack
from pandora_devstack.messages import HttpRequest
from pandora_devstack.observability.dashboard_definition import template_widgets
from pandora_devstack.stack import LocalStack
from pandora_devstack.template import Resolver, load_template
from pandora_memory.observability.metric_catalog import CATALOG, NAMESPACE
from pandora_memory.settings import get_settings

pytestmark = pytest.mark.integration

TURN = "/api/memory/adaptive/turn"
DASHBOARD = "/_local/dashboard"
METRICS = "/_local/metrics"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NOTES = "# Garden\n\n## Roses\n\nPrune in late winter.\n\n## Tomatoes\n\nStake them early.\n"
_DATA_ROW = re.compile(
    r'data-namespace="(?P<ns>[^"]*)" data-metric="(?P<metric>[^"]*)" [^>]*data-total="(?P<total>[^"]*)"'
)


@dataclass
class _Capture:
    """A background task that only keeps the running stack, to call the ingest function as S3 would."""

    name: str = "capture"
    running: RunningStack | None = None

    def start(self, stack: RunningStack) -> None:
        self.running = stack

    def stop(self) -> None:
        self.running = None


@dataclass(frozen=True)
class Dashboard:
    stack: LocalStack
    html: str
    metrics: dict[str, Any]
    screenshot: Path


def _turn(stack: LocalStack, token: str, namespace: str, message: str, mode: str) -> requests.Response:
    return requests.post(
        stack.api_url + TURN,
        json={"namespace": namespace, "user_message": message, "mode": mode},
        headers={"Authorization": f"Bearer {token}"},
        timeout=15,
    )


def _signed_post(stack: LocalStack, path: str, body: dict[str, Any]) -> requests.Response:
    url = stack.api_url + path
    data = json.dumps(body).encode()
    request = AWSRequest(method="POST", url=url, data=data, headers={"Content-Type": "application/json"})
    SigV4Auth(
        Credentials(stack.access_key_id, stack.secret_access_key), "execute-api", stack.region
    ).add_auth(request)
    return requests.post(url, data=data, headers=dict(request.headers.items()), timeout=15)


def _s3_event(bucket: str, key: str, size: int, etag: str, version_id: str, sequencer: str) -> dict[str, Any]:
    return {
        "Records": [
            {
                "eventVersion": "2.1",
                "eventSource": "aws:s3",
                "awsRegion": "us-east-1",
                "eventTime": "2025-03-01T12:00:00.000Z",
                "eventName": "ObjectCreated:Put",
                "s3": {
                    "s3SchemaVersion": "1.0",
                    "bucket": {"name": bucket, "arn": f"arn:aws:s3:::{bucket}"},
                    "object": {
                        "key": urllib.parse.quote_plus(key, safe="/"),
                        "size": size,
                        "eTag": etag,
                        "versionId": version_id,
                        "sequencer": sequencer,
                    },
                },
            }
        ]
    }


def _ingest(running: RunningStack, key: str, text: str, sequencer: str) -> None:
    s3 = boto3.client("s3")
    body = text.encode()
    put = s3.put_object(Bucket=running.provisioned.bucket, Key=key, Body=body)
    event = _s3_event(
        running.provisioned.bucket, key, len(body), put["ETag"].strip('"'), put["VersionId"], sequencer
    )
    running.functions["MarkdownIngestFunction"].invoke(event)


def _exercise(stack: LocalStack, running: RunningStack) -> None:
    real, au = stack.info.tokens["real_life"], stack.info.tokens["au"]
    assert _turn(stack, real, "real_life", "What did I decide about the Berlin move?", "pre_answer").ok
    assert _turn(stack, real, "real_life", "Thanks, that's all for now.", "pre_answer").ok
    queued = _turn(stack, real, "real_life", "From now on, always answer me in French.", "post_answer")
    assert queued.ok, queued.text
    fiction = "Remember that in my story Captain Vale always carries a silver compass."
    assert _turn(stack, au, "au", fiction, "post_answer").ok
    refused = _turn(stack, "pm_abcdefghij12_" + "x" * 43, "au", "hello there", "pre_answer")
    assert refused.status_code == 401

    candidate_id = queued.json()["candidate_preview"]["id"]
    approved = _signed_post(stack, f"/api/memory/candidates/{candidate_id}/approve", {})
    assert approved.ok, approved.text

    _ingest(running, "memory/real_life/garden.md", NOTES, "0065E1C8A7B3D2F101")
    _ingest(running, "memory/real_life/garden.txt", "not markdown", "0065E1C8A7B3D2F102")


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    get_settings.cache_clear()
    capture = _Capture()
    stack = LocalStack(api_port=0, access_log=False, background_tasks=[capture])
    stack.start()
    try:
        assert capture.running is not None
        _exercise(stack, capture.running)
        html = requests.get(stack.api_url + DASHBOARD, timeout=15)
        assert html.status_code == 200
        assert html.headers["Content-Type"].startswith("text/html")
        metrics = requests.get(stack.api_url + METRICS, timeout=15).json()
        shots = tmp_path_factory.mktemp("dashboard")
        png = shots / "local-dashboard.png"
        screenshot(stack.api_url + DASHBOARD, png, shots / "profile")
        yield Dashboard(stack, html.text, metrics, png)
    finally:
        stack.stop()
        get_settings.cache_clear()


def _totals(html: str) -> dict[tuple[str, str], float]:
    """The largest drawn total per (namespace, metric), read from the page's data attributes."""
    totals: dict[tuple[str, str], float] = {}
    for match in _DATA_ROW.finditer(html):
        key = (unescape(match.group("ns")), unescape(match.group("metric")))
        value = float(match.group("total")) if match.group("total") else 0.0
        totals[key] = max(totals.get(key, 0.0), value)
    return totals


def test_the_page_shows_every_widget_of_the_template(dashboard: Dashboard) -> None:
    template = load_template()
    resolver = Resolver(template, stack_name=dashboard.stack.stack_name, region=dashboard.stack.region)
    titles = [widget.title for widget in template_widgets(template, resolver)]
    assert len(titles) >= 10
    page = unescape(dashboard.html)
    for title in titles:
        assert f"<h2>{title}</h2>" in page, title
    assert [widget["title"] for widget in dashboard.metrics["widgets"]] == titles


@pytest.mark.parametrize(
    "metric",
    [
        "RetrieveDecision",
        "CandidateOutcome",
        "TurnLatency",
        "AuthorizerDecision",
        "ReviewActions",
        "IngestDocuments",
        "IngestChunks",
        "ProjectionSwaps",
        "IngestRejected",
    ],
)
def test_the_page_counts_what_the_handlers_emitted(dashboard: Dashboard, metric: str) -> None:
    assert _totals(dashboard.html).get((NAMESPACE, metric), 0.0) > 0


@pytest.mark.parametrize(
    ("namespace", "metric"),
    [
        ("AWS/Lambda", "Errors"),
        ("AWS/Lambda", "Duration"),
        ("AWS/ApiGateway", "Count"),
        ("AWS/ApiGateway", "4XXError"),
    ],
)
def test_aws_widgets_show_local_figures(dashboard: Dashboard, namespace: str, metric: str) -> None:
    assert _totals(dashboard.html).get((namespace, metric), 0.0) > 0
    assert "Local figure" in dashboard.html


def test_the_json_lists_only_cataloged_pandora_metrics(dashboard: Dashboard) -> None:
    catalog = {spec.name: spec.dimensions for spec in CATALOG}
    captured = [series for series in dashboard.metrics["metrics"] if series["namespace"] == NAMESPACE]
    assert captured
    for series in captured:
        assert frozenset(series["dimensions"]) == catalog[series["metric"]], series
    lambda_names = {
        series["dimensions"]["FunctionName"]
        for series in dashboard.metrics["metrics"]
        if series["namespace"] == "AWS/Lambda"
    }
    stack = dashboard.stack.stack_name
    assert {f"{stack}-AdaptiveTurnFunction", f"{stack}-TokenAuthorizerFunction"} <= lambda_names


def test_candidate_outcomes_keep_memory_type_and_namespace(dashboard: Dashboard) -> None:
    (widget,) = [w for w in dashboard.metrics["widgets"] if w["title"].startswith("Candidate outcomes")]
    labels = {series["label"]: series["total"] for series in widget["series"]}
    assert any(label.endswith("· real_life") for label in labels), labels
    assert any(label.endswith("· au") for label in labels), labels


def test_the_screenshot_is_a_full_page(dashboard: Dashboard) -> None:
    data = dashboard.screenshot.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 2000)
    # A blank or error page compresses to a few kilobytes; charts and text do not.
    assert len(data) > 60_000


def test_only_loopback_callers_may_read_it(dashboard: Dashboard) -> None:
    remote = dashboard.stack.handle(HttpRequest("GET", DASHBOARD, source_ip="192.0.2.7"))
    assert remote.status == 403
    post = dashboard.stack.handle(HttpRequest("POST", METRICS))
    assert post.status == 405
