"""`/_local/dashboard` (HTML) and `/_local/metrics` (JSON) beside the local API, plus the hooks that
feed them: the function monitor (EMF, duration, errors) and the API counter around the gateway.

Local only: the server listens on loopback, and these paths refuse any other caller anyway.
"""

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Protocol

from pandora_devstack.lambda_runtime import InvocationMonitor
from pandora_devstack.messages import HttpRequest, HttpResponse, json_response
from pandora_devstack.observability.dashboard_definition import Widget, dashboard_bodies, parse_dashboard_body
from pandora_devstack.observability.evaluate import WidgetResult, Window, evaluate, window_between
from pandora_devstack.observability.render import render_page
from pandora_devstack.observability.store import MetricStore
from pandora_devstack.observability.telemetry import LocalTelemetry, QueueDepthSampler
from pandora_devstack.template import Resolver

PREFIX = "/_local/"
DASHBOARD_PATH = "/_local/dashboard"
METRICS_PATH = "/_local/metrics"
_LOOPBACK = ("127.", "::1", "::ffff:127.")

Dispatch = Callable[[HttpRequest], HttpResponse]


class Sampler(Protocol):
    def sample(self) -> None: ...


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


class LocalObservability:
    def __init__(
        self,
        widgets: Sequence[Widget],
        source: str,
        telemetry: LocalTelemetry,
        samplers: Sequence[Sampler] = (),
    ) -> None:
        self.widgets = list(widgets)
        self.source = source
        self.telemetry = telemetry
        self._samplers = list(samplers)

    @classmethod
    def from_template(
        cls,
        template: Mapping[str, Any],
        resolver: Resolver,
        *,
        api_name: str,
        stage: str,
        sqs: Any,
        queue_urls: Mapping[str, str],
    ) -> "LocalObservability":
        bodies = dashboard_bodies(template, resolver)
        widgets = [widget for body in bodies.values() for widget in parse_dashboard_body(body)]
        store = MetricStore()
        return cls(
            widgets,
            source=", ".join(bodies) or "no dashboard",
            telemetry=LocalTelemetry(store, api_name=api_name, stage=stage),
            samplers=[QueueDepthSampler(sqs, queue_urls, store)],
        )

    @property
    def monitor(self) -> InvocationMonitor:
        return self.telemetry.invocation

    # -- HTTP ----------------------------------------------------------------------------------------
    def handle(self, request: HttpRequest, gateway: Dispatch) -> HttpResponse:
        """Serves the /_local/ pages itself and counts every other request on its way to the gateway."""
        if request.path.startswith(PREFIX):
            return self._serve(request)
        started = time.monotonic()
        response = gateway(request)
        self.telemetry.api_response(response.status, (time.monotonic() - started) * 1000)
        return response

    def _serve(self, request: HttpRequest) -> HttpResponse:
        if not request.source_ip.startswith(_LOOPBACK):
            return json_response(403, {"message": "the local dashboard answers loopback callers only"})
        if request.method not in ("GET", "HEAD"):
            return json_response(405, {"message": "GET only"}, headers=[("Allow", "GET, HEAD")])
        if request.path == DASHBOARD_PATH:
            results, window = self.evaluate()
            page = render_page(results, window, self.source, self.telemetry.store.started_at)
            headers = (("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"))
            return HttpResponse(200, headers, page.encode("utf-8"))
        if request.path == METRICS_PATH:
            return json_response(200, self.metrics_document(), headers=[("Cache-Control", "no-store")])
        return json_response(404, {"message": f"try {DASHBOARD_PATH} or {METRICS_PATH}"})

    # -- figures -------------------------------------------------------------------------------------
    def evaluate(self) -> tuple[list[WidgetResult], Window]:
        for sampler in self._samplers:
            sampler.sample()
        store = self.telemetry.store
        series = store.snapshot()
        window = window_between(store.started_at, store.now())
        return [evaluate(widget, series, window) for widget in self.widgets], window

    def metrics_document(self) -> dict[str, Any]:
        results, window = self.evaluate()
        return {
            "dashboard": self.source,
            "window": {
                "start": _iso(window.start),
                "bucket_seconds": window.bucket_seconds,
                "buckets": window.buckets,
            },
            "widgets": [
                {
                    "title": result.widget.title,
                    "view": result.widget.view,
                    "local_notes": list(result.local_notes),
                    "series": [asdict(series) for series in result.series],
                }
                for result in results
            ],
            "metrics": list(self._raw_series()),
        }

    def _raw_series(self) -> Iterator[dict[str, Any]]:
        for series in sorted(self.telemetry.store.snapshot(), key=lambda s: (s.key.namespace, s.key.metric)):
            yield {
                "namespace": series.key.namespace,
                "metric": series.key.metric,
                "dimensions": dict(series.key.dimensions),
                "samples": len(series.samples),
                "sum": sum(sample.value for sample in series.samples),
            }
