"""The CloudWatch dashboard of template.yaml, read as data: its widgets and the metrics each draws.

The local dashboard draws these widgets and the dashboard test checks their metrics against the
catalog, so both read the body CloudFormation would deploy (resolved with the template's Resolver).
Only the metric syntax the template uses is understood - explicit metric lines and
`[SUM(]SEARCH('{Namespace,dim,...} MetricName="X" dim="value"', 'stat', period)[)]` - and anything
else raises, so a new construct cannot be silently drawn wrong.
"""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pandora_devstack.template import Resolver

DASHBOARD_TYPE = "AWS::CloudWatch::Dashboard"
DEFAULT_STAT = "Average"
DEFAULT_PERIOD = 300

_SEARCH = re.compile(
    r"(?:(?P<aggregate>SUM|AVG|MIN|MAX)\()?\s*SEARCH\(\s*'(?P<query>[^']*)'\s*,\s*'(?P<stat>[^']+)'\s*,"
    r"\s*(?P<period>\d+)\s*\)\s*(?(aggregate)\))"
)
_SCHEMA = re.compile(r"\{(?P<names>[^}]*)\}")
_TERM = re.compile(r'(?P<key>[A-Za-z0-9_.:/-]+)="(?P<value>[^"]*)"')
_PROP = re.compile(r"\$\{PROP\('(?P<property>[^']+)'\)\}")


class UnsupportedDashboardError(ValueError):
    """The dashboard uses a construct the local dashboard and the metric check do not read."""


@dataclass(frozen=True)
class SearchQuery:
    namespace: str
    schema: frozenset[str]  # the exact dimension names a matching metric has
    metric: str
    filters: tuple[tuple[str, str], ...]  # dimension = value terms


@dataclass(frozen=True)
class SearchLine:
    id: str
    label: str | None
    query: SearchQuery
    stat: str
    period: int
    aggregate: str | None  # SUM, AVG, MIN, MAX over every matching series, or None for one line each

    @property
    def namespace(self) -> str:
        return self.query.namespace

    @property
    def metric(self) -> str:
        return self.query.metric

    def label_properties(self) -> list[str]:
        """The `${PROP('...')}` names of the dynamic label (`Dim.reason`, `MetricName`...)."""
        return [match.group("property") for match in _PROP.finditer(self.label or "")]


@dataclass(frozen=True)
class MetricLine:
    id: str | None
    label: str | None
    namespace: str
    metric: str
    dimensions: tuple[tuple[str, str], ...]
    stat: str
    period: int


Line = SearchLine | MetricLine


@dataclass(frozen=True)
class Widget:
    kind: str
    title: str
    view: str
    x: int
    y: int
    width: int
    height: int
    lines: tuple[Line, ...]
    text: str = ""


def _search_line(options: Mapping[str, Any]) -> SearchLine:
    expression = str(options["expression"])
    match = _SEARCH.fullmatch(expression.strip())
    if match is None:
        raise UnsupportedDashboardError(f"expression not understood: {expression}")
    query = match.group("query")
    schema = _SCHEMA.match(query.strip())
    if schema is None:
        raise UnsupportedDashboardError(f"SEARCH without a {{namespace,dimensions}} schema: {query}")
    namespace, *dimensions = [name.strip() for name in schema.group("names").split(",")]
    rest = query.strip()[schema.end() :]
    terms = [(term.group("key"), term.group("value")) for term in _TERM.finditer(rest)]
    if _TERM.sub("", rest).strip():
        raise UnsupportedDashboardError(f'SEARCH terms other than Name="value": {query}')
    metric_names = [value for key, value in terms if key == "MetricName"]
    if len(metric_names) != 1:
        raise UnsupportedDashboardError(f"SEARCH must name exactly one MetricName: {query}")
    return SearchLine(
        id=str(options.get("id", "")),
        label=options.get("label"),
        query=SearchQuery(
            namespace=namespace,
            schema=frozenset(dimensions),
            metric=metric_names[0],
            filters=tuple((key, value) for key, value in terms if key != "MetricName"),
        ),
        stat=match.group("stat"),
        period=int(match.group("period")),
        aggregate=match.group("aggregate"),
    )


def _metric_line(entry: Sequence[Any], previous: MetricLine | None, stat: str, period: int) -> MetricLine:
    options: Mapping[str, Any] = entry[-1] if entry and isinstance(entry[-1], Mapping) else {}
    parts = [str(part) for part in (entry[:-1] if options else entry)]
    # CloudWatch's shorthand: "." repeats the part at the same position of the line above.
    if previous is not None:
        earlier = [previous.namespace, previous.metric, *(v for pair in previous.dimensions for v in pair)]
        parts = [earlier[i] if part == "." and i < len(earlier) else part for i, part in enumerate(parts)]
    if len(parts) < 2 or len(parts) % 2:
        raise UnsupportedDashboardError(f"metric line not understood: {entry}")
    namespace, metric, *pairs = parts
    return MetricLine(
        id=options.get("id"),
        label=options.get("label"),
        namespace=namespace,
        metric=metric,
        dimensions=tuple(zip(pairs[::2], pairs[1::2], strict=True)),
        stat=str(options.get("stat", stat)),
        period=int(options.get("period", period)),
    )


def _lines(properties: Mapping[str, Any]) -> tuple[Line, ...]:
    stat = str(properties.get("stat", DEFAULT_STAT))
    period = int(properties.get("period", DEFAULT_PERIOD))
    lines: list[Line] = []
    previous: MetricLine | None = None
    for entry in properties.get("metrics", []):
        if len(entry) == 1 and isinstance(entry[0], Mapping) and "expression" in entry[0]:
            lines.append(_search_line(entry[0]))
            continue
        previous = _metric_line(entry, previous, stat, period)
        lines.append(previous)
    return tuple(lines)


def _widget(raw: Mapping[str, Any]) -> Widget:
    properties = raw.get("properties", {})
    kind = str(raw.get("type", ""))
    return Widget(
        kind=kind,
        title=str(properties.get("title", "")),
        view=str(properties.get("view", "timeSeries")),
        x=int(raw.get("x", 0)),
        y=int(raw.get("y", 0)),
        width=int(raw.get("width", 6)),
        height=int(raw.get("height", 6)),
        lines=_lines(properties) if kind == "metric" else (),
        text=str(properties.get("markdown", "")),
    )


def parse_dashboard_body(body: str) -> list[Widget]:
    document = json.loads(body)
    widgets = [_widget(raw) for raw in document.get("widgets", [])]
    return sorted(widgets, key=lambda widget: (widget.y, widget.x))


def dashboard_bodies(template: Mapping[str, Any], resolver: Resolver) -> dict[str, str]:
    """Every dashboard of the template, logical id → the body CloudFormation would deploy."""
    return {
        logical_id: str(resolver.resolve(resource["Properties"]["DashboardBody"]))
        for logical_id, resource in template["Resources"].items()
        if resource.get("Type") == DASHBOARD_TYPE
    }


def template_widgets(template: Mapping[str, Any], resolver: Resolver) -> list[Widget]:
    widgets: list[Widget] = []
    for body in dashboard_bodies(template, resolver).values():
        widgets += parse_dashboard_body(body)
    return widgets
