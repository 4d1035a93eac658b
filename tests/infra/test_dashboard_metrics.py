"""The CloudWatch dashboard and alarms of template.yaml draw exactly the metrics the code emits.

Fails when the dashboard or an alarm names a Pandora metric, dimension or dimension value that no
code emits, when the code emits a metric the dashboard does not show, when a module starts emitting
metrics without being listed in the metric catalog, or when the catalog disagrees with what the
emitters actually print.
"""

import importlib
import importlib.util
import inspect
import re
import types
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from pandora_devstack.observability.dashboard_definition import (
    MetricLine,
    SearchLine,
    Widget,
    template_widgets,
)
from pandora_devstack.observability.emf import parse_emf_output
from pandora_devstack.template import Resolver, load_template
from pandora_memory.observability import metric_catalog
from pandora_memory.observability.metric_catalog import CATALOG, NAMESPACE, MetricSpec

REPO = Path(__file__).resolve().parents[2]
LAYER = REPO / "layers" / "pandora"
FUNCTIONS = REPO / "functions"
AUTHORIZER_APP = REPO / metric_catalog.AUTHORIZER_EMITTER
STACK_NAME = "pandora-check"

TEMPLATE = load_template()
RESOLVER = Resolver(TEMPLATE, stack_name=STACK_NAME, region="us-east-1", parameters={"Stage": "dev"})
WIDGETS = template_widgets(TEMPLATE, RESOLVER)
SPECS = {spec.name: spec for spec in CATALOG}

# Any of these in a module means it emits metrics.
_EMITTING_CALL = re.compile(r"\b(single_metric|add_metric|EphemeralMetrics|Metrics)\s*\(")
_INSIGHTS = re.compile(
    r"SELECT\s+\w+\((?P<metric>\w+)\)\s+FROM\s+SCHEMA\(\s*\"(?P<namespace>[^\"]+)\"\s*,(?P<dims>[^)]*)\)"
    r"(?:\s+WHERE\s+(?P<where>.+))?$"
)
_CONDITION = re.compile(r"(?P<dim>\w+)\s*=\s*'(?P<value>[^']*)'")
_PROP_DIM = re.compile(r"^Dim\.(?P<dim>.+)$")


def _resources(kind: str) -> dict[str, dict[str, Any]]:
    return {name: res for name, res in TEMPLATE["Resources"].items() if res.get("Type") == kind}


def _value_findings(where: str, spec: MetricSpec, pairs: Iterable[tuple[str, str]]) -> list[str]:
    findings = []
    for dimension, value in pairs:
        if dimension not in spec.dimensions:
            findings.append(f"{where}: {spec.name} has no dimension {dimension!r}")
        elif dimension in spec.known_values and value not in spec.known_values[dimension]:
            findings.append(f"{where}: {spec.name} never has {dimension}={value!r}")
    return findings


def _search_findings(widget: Widget, line: SearchLine) -> list[str]:
    where = f"widget {widget.title!r}"
    spec = SPECS.get(line.metric)
    if spec is None:
        return [f"{where}: no code emits {NAMESPACE}/{line.metric}"]
    findings = []
    if line.query.schema != spec.dimensions:
        findings.append(
            f"{where}: {line.metric} is emitted with dimensions {sorted(spec.dimensions)}, "
            f"the search asks for {sorted(line.query.schema)}"
        )
    findings += _value_findings(where, spec, line.query.filters)
    for prop in line.label_properties():
        match = _PROP_DIM.match(prop)
        if match and match.group("dim") not in spec.dimensions:
            findings.append(f"{where}: label names dimension {match.group('dim')!r} that {line.metric} lacks")
    return findings


def _line_findings(widget: Widget, line: MetricLine) -> list[str]:
    where = f"widget {widget.title!r}"
    spec = SPECS.get(line.metric)
    if spec is None:
        return [f"{where}: no code emits {NAMESPACE}/{line.metric}"]
    findings = []
    if {name for name, _ in line.dimensions} != spec.dimensions:
        findings.append(f"{where}: {line.metric} needs all of its dimensions {sorted(spec.dimensions)}")
    return findings + _value_findings(where, spec, line.dimensions)


def _pandora_lines() -> Iterator[tuple[Widget, SearchLine | MetricLine]]:
    for widget in WIDGETS:
        for line in widget.lines:
            if line.namespace == NAMESPACE:
                yield widget, line


def test_the_template_has_one_dashboard_with_widgets() -> None:
    assert len(_resources("AWS::CloudWatch::Dashboard")) == 1
    assert len(WIDGETS) >= 10
    assert all(widget.title for widget in WIDGETS)


def test_the_dashboard_names_only_metrics_and_dimensions_the_code_emits() -> None:
    findings: list[str] = []
    for widget, line in _pandora_lines():
        if isinstance(line, SearchLine):
            findings += _search_findings(widget, line)
        else:
            findings += _line_findings(widget, line)
    assert findings == []


def test_every_emitted_metric_is_on_the_dashboard() -> None:
    shown = {line.metric for _, line in _pandora_lines()}
    assert sorted(set(SPECS) - shown) == []


def test_every_function_has_errors_throttles_and_latency_widgets() -> None:
    lambda_lines = [
        line
        for widget in WIDGETS
        for line in widget.lines
        if isinstance(line, MetricLine) and line.namespace == "AWS/Lambda"
    ]
    drawn = {(line.metric, line.stat, dict(line.dimensions).get("FunctionName")) for line in lambda_lines}
    for logical_id in _resources("AWS::Serverless::Function"):
        name = RESOLVER.resolve({"Ref": logical_id})
        for metric, stat in (
            ("Errors", "Sum"),
            ("Throttles", "Sum"),
            ("Duration", "p50"),
            ("Duration", "p99"),
        ):
            assert (metric, stat, name) in drawn, f"{logical_id}: no {metric} {stat} line"


# -- the catalog against the code -------------------------------------------------------------------


def _module_id(path: Path) -> str:
    if path.is_relative_to(LAYER):
        return ".".join(path.relative_to(LAYER).with_suffix("").parts)
    return path.relative_to(REPO).as_posix()


def test_every_module_that_emits_metrics_is_in_the_catalog() -> None:
    sources = [*(LAYER / "pandora_memory").rglob("*.py"), *FUNCTIONS.rglob("*.py")]
    emitting = {
        _module_id(path) for path in sources if _EMITTING_CALL.search(path.read_text(encoding="utf-8"))
    }
    assert emitting, "the scan found no emitter at all"
    assert sorted(emitting - metric_catalog.EMITTERS) == []


def _argument(parameter: inspect.Parameter) -> object:
    annotation = parameter.annotation
    if annotation is bool:
        return True
    if annotation is int:
        return 3
    if annotation is float:
        return 12.5
    return "sample"


def _emitter_classes(module: types.ModuleType) -> list[type]:
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and not getattr(cls, "_is_protocol", False)
    ]


def _emit_everything(instance: object) -> None:
    for name, method in inspect.getmembers(instance, inspect.ismethod):
        if name.startswith("_"):
            continue
        signature = inspect.signature(method, eval_str=True)
        positional = [
            _argument(p) for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD
        ]
        keywords = {p.name: _argument(p) for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY}
        method(*positional, **keywords)


def _load_authorizer() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("dashboard_check_token_authorizer", AUTHORIZER_APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _printed(out: str) -> dict[str, set[frozenset[str]]]:
    seen: dict[str, set[frozenset[str]]] = {}
    for point in parse_emf_output(out.splitlines()):
        assert point.namespace == NAMESPACE, point
        seen.setdefault(point.metric, set()).add(frozenset(name for name, _ in point.dimensions))
    return seen


def test_the_catalog_is_what_the_emitters_print(capsys: pytest.CaptureFixture[str]) -> None:
    for emitter in sorted(metric_catalog.EMITTERS - {metric_catalog.AUTHORIZER_EMITTER}):
        classes = _emitter_classes(importlib.import_module(emitter))
        assert classes, f"{emitter} defines no emitter class"
        for cls in classes:
            _emit_everything(cls(NAMESPACE, "pandora-memory"))
    authorizer = _load_authorizer()
    for outcome in metric_catalog.AUTHORIZER_OUTCOMES:
        authorizer._count(outcome)

    printed = _printed(capsys.readouterr().out)
    catalog = {name: {spec.dimensions} for name, spec in SPECS.items()}
    assert printed == catalog


def test_the_catalog_restates_the_authorizer_names() -> None:
    authorizer = _load_authorizer()
    assert authorizer.AUTHORIZER_DECISION_METRIC == metric_catalog.AUTHORIZER_DECISION
    assert authorizer.OUTCOME_DIMENSION == metric_catalog.AUTHORIZER_OUTCOME
    assert {authorizer.ALLOW, authorizer.DENY} == set(metric_catalog.AUTHORIZER_OUTCOMES)


# -- alarms -----------------------------------------------------------------------------------------


def _insights_findings(alarm: str, expression: str) -> list[str]:
    match = _INSIGHTS.match(expression.strip())
    if match is None:
        return [f"{alarm}: query not understood: {expression}"]
    if match.group("namespace") != NAMESPACE:
        return []
    spec = SPECS.get(match.group("metric"))
    if spec is None:
        return [f"{alarm}: no code emits {NAMESPACE}/{match.group('metric')}"]
    findings = []
    dims = {name.strip() for name in match.group("dims").split(",") if name.strip()}
    if dims != spec.dimensions:
        findings.append(f"{alarm}: {spec.name} is emitted with {sorted(spec.dimensions)}, not {sorted(dims)}")
    conditions = [(m.group("dim"), m.group("value")) for m in _CONDITION.finditer(match.group("where") or "")]
    return findings + _value_findings(alarm, spec, conditions)


def _stat_findings(alarm: str, metric: Mapping[str, Any]) -> list[str]:
    if metric.get("Namespace") != NAMESPACE:
        return []
    spec = SPECS.get(str(metric.get("MetricName")))
    if spec is None:
        return [f"{alarm}: no code emits {NAMESPACE}/{metric.get('MetricName')}"]
    pairs = [(str(d["Name"]), str(d["Value"])) for d in metric.get("Dimensions", [])]
    findings = _value_findings(alarm, spec, pairs)
    if {name for name, _ in pairs} != spec.dimensions:
        findings.append(f"{alarm}: {spec.name} needs all of its dimensions {sorted(spec.dimensions)}")
    return findings


def test_alarms_watch_only_metrics_the_code_emits() -> None:
    findings: list[str] = []
    for name, alarm in _resources("AWS::CloudWatch::Alarm").items():
        props = RESOLVER.resolve(alarm["Properties"])
        findings += _stat_findings(name, props)
        for query in props.get("Metrics", []):
            if "MetricStat" in query:
                findings += _stat_findings(name, query["MetricStat"]["Metric"])
            elif str(query.get("Expression", "")).lstrip().upper().startswith("SELECT"):
                findings += _insights_findings(name, query["Expression"])
    assert findings == []


def _watched(alarm: Mapping[str, Any]) -> set[tuple[str, str]]:
    props = alarm["Properties"]
    watched = {(str(props.get("Namespace")), str(props.get("MetricName")))}
    for query in props.get("Metrics", []):
        if "MetricStat" in query:
            metric = query["MetricStat"]["Metric"]
            watched.add((metric["Namespace"], metric["MetricName"]))
        match = _INSIGHTS.match(str(query.get("Expression", "")).strip())
        if match:
            watched.add((match.group("namespace"), match.group("metric")))
    return watched


def test_the_operational_alarms_exist_and_notify_the_topic() -> None:
    alarms = _resources("AWS::CloudWatch::Alarm")
    watched = set().union(*(_watched(alarm) for alarm in alarms.values()))
    for required in (
        (NAMESPACE, "IngestFailures"),
        (NAMESPACE, metric_catalog.AUTHORIZER_DECISION),
        ("AWS/SQS", "ApproximateNumberOfMessagesVisible"),
        ("AWS/ApiGateway", "5XXError"),
        ("AWS/Lambda", "Errors"),
        ("AWS/Lambda", "Throttles"),
    ):
        assert required in watched, required
    throttled = {
        alarm["Properties"]["Dimensions"][0]["Value"]["Ref"]
        for alarm in alarms.values()
        if alarm["Properties"].get("MetricName") == "Throttles"
    }
    assert throttled == set(_resources("AWS::Serverless::Function"))
    for name, alarm in alarms.items():
        assert {"Ref": "AlertsTopic"} in alarm["Properties"]["AlarmActions"], name


def test_the_alert_email_is_subscribed_only_when_given() -> None:
    (subscription,) = _resources("AWS::SNS::Subscription").values()
    assert subscription["Condition"] == "HasAlertEmail"
    assert subscription["Properties"]["Endpoint"] == {"Ref": "AlertEmail"}
    assert TEMPLATE["Parameters"]["AlertEmail"]["Default"] == ""
