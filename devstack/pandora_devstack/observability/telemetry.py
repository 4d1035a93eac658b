"""What the local stack measures itself, recorded as the AWS metrics the dashboard reads in AWS:
AWS/Lambda per function (around every handler call), AWS/ApiGateway per API stage (around every
request) and AWS/SQS queue depth (sampled from the emulator). The handlers' own EMF lines are copied
from their stdout on the way. These are local figures: nothing is ever throttled here.
"""

import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pandora_devstack.observability.emf import Datapoint, dimensions_of, parse_emf_output
from pandora_devstack.observability.stdout_capture import captured_stdout
from pandora_devstack.observability.store import MetricStore

LAMBDA = "AWS/Lambda"
API_GATEWAY = "AWS/ApiGateway"
SQS = "AWS/SQS"


class LocalTelemetry:
    def __init__(self, store: MetricStore, api_name: str, stage: str) -> None:
        self.store = store
        self._api = dimensions_of({"ApiName": api_name, "Stage": stage})

    @contextmanager
    def invocation(self, function_name: str) -> Iterator[None]:
        """Wraps one handler call: its EMF output, duration and whether it raised."""
        started = time.monotonic()
        failed = True
        with captured_stdout() as printed:
            try:
                yield
                failed = False
            finally:
                elapsed_ms = (time.monotonic() - started) * 1000
                now = self.store.now()
                points = parse_emf_output("".join(printed).splitlines())
                function = dimensions_of({"FunctionName": function_name})
                figures = {
                    "Invocations": 1.0,
                    "Errors": float(failed),
                    "Throttles": 0.0,
                    "Duration": elapsed_ms,
                }
                points += [Datapoint(LAMBDA, name, function, value, now) for name, value in figures.items()]
                self.store.add(points)

    def api_response(self, status: int, latency_ms: float) -> None:
        now = self.store.now()
        figures = {
            "Count": 1.0,
            "4XXError": float(400 <= status < 500),
            "5XXError": float(status >= 500),
            "Latency": latency_ms,
        }
        self.store.add(Datapoint(API_GATEWAY, name, self._api, value, now) for name, value in figures.items())


class QueueDepthSampler:
    """Reads the emulator's queue depths when the dashboard is drawn (SQS reports them every minute)."""

    def __init__(self, sqs: Any, queue_urls: Mapping[str, str], store: MetricStore) -> None:
        self._sqs = sqs
        self._queue_urls = dict(queue_urls)
        self._store = store

    def sample(self) -> None:
        now = self._store.now()
        points = []
        for name, url in self._queue_urls.items():
            try:
                attributes = self._sqs.get_queue_attributes(
                    QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
                )["Attributes"]
            except Exception as error:  # the dashboard still draws without this one figure
                print(f"[pandora-local] queue depth of {name} unavailable: {error!r}", file=sys.stderr)
                continue
            depth = float(attributes.get("ApproximateNumberOfMessages", 0))
            dimensions = dimensions_of({"QueueName": name})
            points.append(Datapoint(SQS, "ApproximateNumberOfMessagesVisible", dimensions, depth, now))
        self._store.add(points)
