"""The pieces behind /_local/dashboard: EMF parsing, stdout capture, statistics, SEARCH reading,
widget evaluation and HTML drawing."""

import json
import sys
import threading

import pytest
from pandora_devstack.observability.dashboard_definition import (
    MetricLine,
    SearchLine,
    UnsupportedDashboardError,
    parse_dashboard_body,
)
from pandora_devstack.observability.emf import Datapoint, dimensions_of, parse_emf_line
from pandora_devstack.observability.evaluate import evaluate, window_between
from pandora_devstack.observability.render import render_page
from pandora_devstack.observability.statistics import UnsupportedStatisticError, statistic
from pandora_devstack.observability.stdout_capture import captured_stdout
from pandora_devstack.observability.store import MetricStore
from pandora_devstack.observability.telemetry import LocalTelemetry

SCHEMA = "{Pandora,decision,reason,service}"


def _emf(metric: str, value: object, dimension_sets: list[list[str]], **dimensions: str) -> str:
    document = {
        "_aws": {
            "Timestamp": 1_700_000_000_000,
            "CloudWatchMetrics": [
                {
                    "Namespace": "Pandora",
                    "Dimensions": dimension_sets,
                    "Metrics": [{"Name": metric, "Unit": "Count"}],
                }
            ],
        },
        metric: value,
        **dimensions,
    }
    return json.dumps(document)


def test_an_emf_line_counts_once_per_dimension_set_and_value() -> None:
    line = _emf("Hits", [1, 2], [["service", "reason"], ["service"]], service="svc", reason="r1")
    points = parse_emf_line(line)
    assert sorted((p.dimensions, p.value) for p in points) == [
        ((("reason", "r1"), ("service", "svc")), 1.0),
        ((("reason", "r1"), ("service", "svc")), 2.0),
        ((("service", "svc"),), 1.0),
        ((("service", "svc"),), 2.0),
    ]
    assert {p.timestamp for p in points} == {1_700_000_000.0}


@pytest.mark.parametrize(
    "line",
    [
        '{"level": "INFO", "message": "turn decided"}',
        "plain text",
        '{"_aws": broken json',
        _emf("Hits", 1, [["service", "reason"]], service="svc"),  # a declared dimension has no value
        _emf("Hits", "many", [["service"]], service="svc"),
    ],
)
def test_lines_that_are_not_well_formed_emf_are_no_metrics(line: str) -> None:
    assert parse_emf_line(line) == []


def test_statistics_follow_cloudwatch() -> None:
    values = [float(v) for v in range(1, 101)]
    assert statistic(values, "Sum") == 5050
    assert statistic(values, "Average") == 50.5
    assert statistic(values, "SampleCount") == 100
    assert statistic(values, "p50") == 50
    assert statistic(values, "p99") == 99
    assert statistic([], "Sum") is None
    with pytest.raises(UnsupportedStatisticError):
        statistic(values, "TrimmedMean")


def _body(*metrics: list[object]) -> str:
    widget = {"type": "metric", "x": 0, "y": 0, "width": 12, "height": 6}
    widget["properties"] = {"title": "T", "stat": "Sum", "period": 60, "metrics": list(metrics)}
    return json.dumps({"widgets": [widget]})


def test_search_expressions_and_metric_lines_are_read() -> None:
    search = f"SUM(SEARCH('{SCHEMA} MetricName=\"Decision\" decision=\"skip\"', 'Sum', 300))"
    (widget,) = parse_dashboard_body(
        _body(
            [{"id": "a", "label": "skips", "expression": search}],
            ["AWS/Lambda", "Errors", "FunctionName", "f1", {"label": "one"}],
            [".", ".", ".", "f2", {"stat": "p99"}],
        )
    )
    first, second, third = widget.lines
    assert isinstance(first, SearchLine)
    assert first.aggregate == "SUM"
    assert first.query.schema == {"decision", "reason", "service"}
    assert first.query.filters == (("decision", "skip"),)
    assert (first.stat, first.period) == ("Sum", 300)
    assert isinstance(second, MetricLine) and isinstance(third, MetricLine)
    assert second.dimensions == (("FunctionName", "f1"),) and second.stat == "Sum"
    assert (third.namespace, third.metric, third.dimensions, third.stat) == (
        "AWS/Lambda",
        "Errors",
        (("FunctionName", "f2"),),
        "p99",
    )


@pytest.mark.parametrize(
    "expression",
    [
        "METRICS()",
        "SEARCH('{Pandora,service} Hits', 'Sum', 300)",  # a bare word term
        "SEARCH('MetricName=\"Hits\"', 'Sum', 300)",  # no schema
        "SEARCH('{Pandora,service}', 'Sum', 300)",  # no metric name
    ],
)
def test_unknown_expressions_fail_loudly(expression: str) -> None:
    with pytest.raises(UnsupportedDashboardError):
        parse_dashboard_body(_body([{"id": "x", "expression": expression}]))


def _store(*points: tuple[str, dict[str, str], float]) -> MetricStore:
    store = MetricStore(clock=lambda: 1000.0)
    store.add(
        Datapoint("Pandora", metric, dimensions_of(dims), value, 990.0) for metric, dims, value in points
    )
    return store


def test_a_search_draws_one_labelled_series_per_dimension_value_with_the_exact_schema() -> None:
    store = _store(
        ("Decision", {"decision": "skip", "reason": "r.a", "service": "s"}, 1),
        ("Decision", {"decision": "skip", "reason": "r.a", "service": "s"}, 1),
        ("Decision", {"decision": "retrieve", "reason": "r.b", "service": "s"}, 1),
        ("Decision", {"decision": "skip", "service": "s"}, 5),  # another dimension set: not matched
    )
    search = "SEARCH('{Pandora,decision,reason,service} MetricName=\"Decision\"', 'Sum', 300)"
    label = "${PROP('Dim.decision')} / ${PROP('Dim.reason')}"
    (widget,) = parse_dashboard_body(_body([{"id": "a", "label": label, "expression": search}]))
    result = evaluate(widget, store.snapshot(), window_between(900.0, 1000.0))
    assert [(s.label, s.total) for s in result.series] == [("retrieve / r.b", 1.0), ("skip / r.a", 2.0)]

    summed = f"SUM(SEARCH('{SCHEMA} MetricName=\"Decision\" decision=\"skip\"', 'Sum', 300))"
    (widget,) = parse_dashboard_body(_body([{"id": "b", "label": "skip", "expression": summed}]))
    (series,) = evaluate(widget, store.snapshot(), window_between(900.0, 1000.0)).series
    assert (series.label, series.total, series.samples) == ("skip", 2.0, 2)
    assert sum(value or 0 for value in series.points) == 2.0


def test_each_thread_captures_only_its_own_output() -> None:
    original = sys.stdout
    captured: dict[str, str] = {}
    ready = threading.Barrier(2)

    def work(name: str) -> None:
        with captured_stdout() as chunks:
            ready.wait()
            for _ in range(50):
                print(name)
        captured[name] = "".join(chunks)

    threads = [threading.Thread(target=work, args=(name,)) for name in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert captured == {"left": "left\n" * 50, "right": "right\n" * 50}
    assert sys.stdout is original


def test_an_invocation_records_its_emf_and_lambda_figures() -> None:
    store = MetricStore()
    telemetry = LocalTelemetry(store, api_name="api", stage="dev")
    with pytest.raises(RuntimeError), telemetry.invocation("fn"):
        print(_emf("Hits", 1, [["service"]], service="svc"))
        raise RuntimeError("handler failed")
    sums = {(s.key.namespace, s.key.metric): sum(x.value for x in s.samples) for s in store.snapshot()}
    assert sums[("Pandora", "Hits")] == 1
    assert sums[("AWS/Lambda", "Errors")] == 1
    assert sums[("AWS/Lambda", "Invocations")] == 1
    assert sums[("AWS/Lambda", "Throttles")] == 0


def test_labels_are_escaped_in_the_page() -> None:
    store = _store(("Decision", {"reason": "<script>alert(1)</script>", "service": "s"}, 1))
    search = "SEARCH('{Pandora,reason,service} MetricName=\"Decision\"', 'Sum', 300)"
    body = json.loads(_body([{"id": "a", "label": "${PROP('Dim.reason')}", "expression": search}]))
    body["widgets"][0]["properties"]["view"] = "bar"
    (widget,) = parse_dashboard_body(json.dumps(body))
    window = window_between(900.0, 1000.0)
    page = render_page([evaluate(widget, store.snapshot(), window)], window, "Dash", 900.0)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
