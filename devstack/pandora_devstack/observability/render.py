"""Draws the evaluated widgets as one self-contained HTML page: inline CSS and SVG, no script, no
external resource, refreshed by the browser every few seconds.
"""

import time
from collections.abc import Sequence
from html import escape

from pandora_devstack.observability.evaluate import SeriesResult, WidgetResult, Window

REFRESH_SECONDS = 15
MAX_BARS = 24
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
)  # fmt: skip
CHART_WIDTH = 560
CHART_HEIGHT = 130
MARGIN_LEFT = 48
MARGIN_RIGHT = 12
MARGIN_TOP = 10
MARGIN_BOTTOM = 24

STYLE = """
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f2f3f3;
  color: #16191f; }
header { background: #232f3e; color: #fff; padding: 12px 24px; }
header h1 { margin: 0; font-size: 20px; font-weight: 600; }
header p { margin: 4px 0 0; color: #d5dbdb; font-size: 13px; }
main { display: grid; grid-template-columns: repeat(24, 1fr); gap: 12px; padding: 12px 24px; }
.widget { background: #fff; border: 1px solid #d5dbdb; border-radius: 4px; padding: 10px 14px;
  min-width: 0; }
.widget h2 { font-size: 15px; margin: 0 0 8px; font-weight: 600; }
svg { display: block; width: 100%; height: auto; }
svg text { font-size: 11px; fill: #545b64; }
table { border-collapse: collapse; width: 100%; margin-top: 6px; font-size: 12px; }
td { padding: 1px 6px; border-top: 1px solid #eaeded; vertical-align: top; }
td.value { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.stat { color: #687078; white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
.bars { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr) auto; gap: 4px 8px;
  align-items: center; font-size: 12px; }
.bar-label { overflow-wrap: anywhere; }
.bar-track { background: #eaeded; height: 14px; border-radius: 2px; }
.bar { display: block; height: 14px; border-radius: 2px; }
.bar-value { text-align: right; font-variant-numeric: tabular-nums; }
.empty { color: #687078; font-style: italic; margin: 24px 0; text-align: center; }
.note { color: #687078; font-size: 11px; margin: 6px 0 0; }
footer { padding: 0 24px 24px; color: #687078; font-size: 12px; }
"""


def format_value(value: float | None) -> str:
    if value is None:
        return "no data"
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def _axis_value(value: float) -> str:
    """Short enough for the left margin of a chart."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _clock(timestamp: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(timestamp))


def _color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _data_attributes(series: SeriesResult) -> str:
    total = "" if series.total is None else repr(series.total)
    return (
        f'data-namespace="{escape(series.namespace)}" data-metric="{escape(series.metric)}" '
        f'data-stat="{escape(series.stat)}" data-total="{escape(total)}"'
    )


def _line(run: Sequence[str], color: str) -> str:
    if len(run) < 2:
        return ""
    return f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{" ".join(run)}"/>'


def _polyline(points: Sequence[float | None], y_max: float, color: str) -> str:
    """A line through each run of consecutive buckets with data, and a dot on every such bucket."""
    plot_width = CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_height = CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    step = plot_width / max(len(points) - 1, 1)
    shapes: list[str] = []
    run: list[str] = []
    for index, value in enumerate(points):
        if value is None:
            shapes.append(_line(run, color))
            run = []
            continue
        x = MARGIN_LEFT + index * step
        y = MARGIN_TOP + plot_height * (1 - value / y_max)
        run.append(f"{x:.1f},{y:.1f}")
        shapes.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{color}"/>')
    shapes.append(_line(run, color))
    return "".join(shapes)


def _time_series_chart(series: Sequence[SeriesResult], window: Window) -> str:
    values = [value for s in series for value in s.points if value is not None]
    y_max = max(values, default=0.0) or 1.0
    bottom = CHART_HEIGHT - MARGIN_BOTTOM
    grid = []
    for fraction in (0.0, 0.5, 1.0):
        y = MARGIN_TOP + (bottom - MARGIN_TOP) * (1 - fraction)
        grid.append(
            f'<line x1="{MARGIN_LEFT}" x2="{CHART_WIDTH - MARGIN_RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#eaeded"/><text x="{MARGIN_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(_axis_value(y_max * fraction))}</text>"
        )
    end = window.start + window.bucket_seconds * window.buckets
    baseline = CHART_HEIGHT - 6
    axis = (
        f'<text x="{MARGIN_LEFT}" y="{baseline}">{_clock(window.start)}</text>'
        f'<text x="{CHART_WIDTH - MARGIN_RIGHT}" y="{baseline}" text-anchor="end">{_clock(end)}</text>'
    )
    lines = "".join(_polyline(s.points, y_max, _color(i)) for i, s in enumerate(series))
    return f'<svg viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img">{"".join(grid)}{axis}{lines}</svg>'


def _legend(series: Sequence[SeriesResult]) -> str:
    rows = "".join(
        f'<tr {_data_attributes(s)}><td><span class="swatch" style="background:{_color(i)}"></span>'
        f'{escape(s.label)}</td><td class="stat">{escape(s.stat)}</td>'
        f'<td class="value">{escape(format_value(s.total))}</td></tr>'
        for i, s in enumerate(series)
    )
    return f"<table>{rows}</table>"


def _bar_chart(series: Sequence[SeriesResult]) -> str:
    ranked = sorted(series, key=lambda s: (-(s.total or 0.0), s.label))
    largest = max((s.total or 0.0 for s in ranked), default=0.0) or 1.0
    rows = []
    for index, s in enumerate(ranked[:MAX_BARS]):
        width = 100 * max(s.total or 0.0, 0.0) / largest
        rows.append(
            f'<span class="bar-label">{escape(s.label)}</span><span class="bar-track">'
            f'<span class="bar" style="width:{width:.1f}%;background:{_color(index)}"></span></span>'
            f'<span class="bar-value" {_data_attributes(s)}>{escape(format_value(s.total))}</span>'
        )
    hidden = len(ranked) - MAX_BARS
    more = f'<p class="note">and {hidden} smaller series (all in /_local/metrics)</p>' if hidden > 0 else ""
    return f'<div class="bars">{"".join(rows)}</div>{more}'


def _body(result: WidgetResult, window: Window) -> str:
    widget = result.widget
    if widget.kind == "text":
        return f"<p>{escape(widget.text)}</p>"
    if widget.kind != "metric":
        return f'<p class="empty">{escape(widget.kind)} widgets are drawn by CloudWatch only</p>'
    if not result.series:
        return '<p class="empty">no data yet</p>'
    if widget.view == "bar":
        return _bar_chart(result.series)
    return _time_series_chart(result.series, window) + _legend(result.series)


def _card(result: WidgetResult, row: int, window: Window) -> str:
    widget = result.widget
    notes = "".join(f'<p class="note">Local figure · {escape(note)}</p>' for note in result.local_notes)
    placement = f"grid-column:{widget.x + 1} / span {widget.width};grid-row:{row}"
    return (
        f'<section class="widget" style="{placement}" data-view="{escape(widget.view)}">'
        f"<h2>{escape(widget.title)}</h2>{_body(result, window)}{notes}</section>"
    )


def render_page(results: Sequence[WidgetResult], window: Window, source: str, started_at: float) -> str:
    rows = {y: index + 1 for index, y in enumerate(sorted({r.widget.y for r in results}))}
    cards = "".join(_card(result, rows[result.widget.y], window) for result in results)
    span = window.bucket_seconds * window.buckets
    subtitle = (
        f"Widgets of {escape(source)} in template.yaml, drawn from what this local stack measured since "
        f"{_clock(started_at)}: the last {span:.0f} s in buckets of {window.bucket_seconds:.0f} s. Pandora "
        "metrics are the EMF lines the handlers printed; AWS metrics are local figures."
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">'
        "<title>Pandora Memory · local dashboard</title>"
        f"<style>{STYLE}</style></head><body><header><h1>Pandora Memory · local dashboard</h1>"
        f"<p>{subtitle}</p></header><main>{cards}</main>"
        '<footer>The same figures as JSON: <a href="/_local/metrics">/_local/metrics</a></footer>'
        "</body></html>"
    )
