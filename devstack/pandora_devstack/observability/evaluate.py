"""Computes what each widget draws from the local metric store: one result line per drawn series,
its value per time bucket and over the whole window, with the widget's own statistics and labels.
"""

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pandora_devstack.observability.dashboard_definition import Line, MetricLine, SearchLine, Widget
from pandora_devstack.observability.statistics import combine, statistic
from pandora_devstack.observability.store import Sample, Series, SeriesKey

BUCKETS = 30
MIN_BUCKET_SECONDS = 5.0

_PROP = re.compile(r"\$\{PROP\('(?P<property>[^']+)'\)\}")

# What a local figure means, per AWS namespace it stands in for.
LOCAL_NOTES = {
    "AWS/Lambda": "AWS/Lambda: measured around each in-process handler call (nothing throttles locally)",
    "AWS/ApiGateway": "AWS/ApiGateway: counted by the local gateway",
    "AWS/SQS": "AWS/SQS: read from the emulator when this page was drawn",
}


@dataclass(frozen=True)
class Window:
    start: float
    bucket_seconds: float
    buckets: int

    def index(self, timestamp: float) -> int:
        return min(self.buckets - 1, max(0, int((timestamp - self.start) // self.bucket_seconds)))


def window_between(start: float, end: float, buckets: int = BUCKETS) -> Window:
    """Buckets wide enough to hold everything since `start`, the last one ending now (as CloudWatch
    draws "the last N minutes"), never narrower than a few seconds."""
    width = max(MIN_BUCKET_SECONDS, math.ceil(max(end - start, 0.0) / buckets))
    return Window(start=end - width * buckets, bucket_seconds=width, buckets=buckets)


@dataclass(frozen=True)
class SeriesResult:
    label: str
    namespace: str
    metric: str
    stat: str
    total: float | None  # the statistic over every sample of the window
    points: tuple[float | None, ...]  # the statistic per bucket
    samples: int


@dataclass(frozen=True)
class WidgetResult:
    widget: Widget
    series: tuple[SeriesResult, ...]
    local_notes: tuple[str, ...]


def _label(template: str | None, key: SeriesKey) -> str:
    if not template:
        values = " ".join(value for _, value in key.dimensions)
        return f"{key.metric} {values}".strip()

    def prop(match: re.Match[str]) -> str:
        name = match.group("property")
        if name.startswith("Dim."):
            return key.dimension(name[4:]) or ""
        return {"MetricName": key.metric, "Namespace": key.namespace}.get(name, match.group(0))

    return _PROP.sub(prop, template)


def _buckets(samples: Sequence[Sample], window: Window, stat: str) -> tuple[float | None, ...]:
    grouped: list[list[float]] = [[] for _ in range(window.buckets)]
    for sample in samples:
        grouped[window.index(sample.timestamp)].append(sample.value)
    return tuple(statistic(values, stat) for values in grouped)


def _result(label: str, key: SeriesKey, samples: Sequence[Sample], stat: str, window: Window) -> SeriesResult:
    return SeriesResult(
        label=label,
        namespace=key.namespace,
        metric=key.metric,
        stat=stat,
        total=statistic([sample.value for sample in samples], stat),
        points=_buckets(samples, window, stat),
        samples=len(samples),
    )


def _matches(line: SearchLine, key: SeriesKey) -> bool:
    query = line.query
    names = frozenset(name for name, _ in key.dimensions)
    return (
        key.namespace == query.namespace
        and key.metric == query.metric
        and names == query.schema
        and all(key.dimension(name) == value for name, value in query.filters)
    )


def _search(line: SearchLine, store: Sequence[Series], window: Window) -> list[SeriesResult]:
    found = sorted(
        (
            _result(_label(line.label, s.key), s.key, s.samples, line.stat, window)
            for s in store
            if _matches(line, s.key)
        ),
        key=lambda result: result.label,
    )
    if line.aggregate is None:
        return found
    # Metric math over a search applies per bucket, as CloudWatch applies it per timestamp.
    points = tuple(
        combine([value for r in found if (value := r.points[i]) is not None], line.aggregate)
        for i in range(window.buckets)
    )
    totals = [r.total for r in found if r.total is not None]
    return [
        SeriesResult(
            label=line.label or line.metric,
            namespace=line.namespace,
            metric=line.metric,
            stat=line.stat,
            total=combine(totals, line.aggregate),
            points=points,
            samples=sum(r.samples for r in found),
        )
    ]


def _explicit(line: MetricLine, store: Sequence[Series], window: Window) -> SeriesResult:
    key = SeriesKey(line.namespace, line.metric, tuple(sorted(line.dimensions)))
    samples = next((s.samples for s in store if s.key == key), ())
    return _result(_label(line.label, key), key, samples, line.stat, window)


def _line_results(line: Line, store: Sequence[Series], window: Window) -> list[SeriesResult]:
    if isinstance(line, SearchLine):
        return _search(line, store, window)
    return [_explicit(line, store, window)]


def evaluate(widget: Widget, store: Sequence[Series], window: Window) -> WidgetResult:
    results = [result for line in widget.lines for result in _line_results(line, store, window)]
    namespaces = {line.namespace for line in widget.lines}
    notes = tuple(note for namespace, note in LOCAL_NOTES.items() if namespace in namespaces)
    return WidgetResult(widget=widget, series=tuple(results), local_notes=notes)
