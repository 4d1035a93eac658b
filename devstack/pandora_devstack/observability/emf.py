"""Reads CloudWatch Embedded Metric Format documents, the JSON lines Powertools prints to stdout.

Each metric of a document counts once per dimension set it declares, as CloudWatch counts it.
Anything that is not a well-formed EMF document is not a metric and yields nothing.
"""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Dimensions = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Datapoint:
    namespace: str
    metric: str
    dimensions: Dimensions
    value: float
    timestamp: float  # seconds since the epoch
    unit: str = "None"


def dimensions_of(values: Mapping[str, str]) -> Dimensions:
    """The canonical (sorted) form: CloudWatch does not order a metric's dimensions."""
    return tuple(sorted(values.items()))


def _values(raw: object) -> list[float]:
    items = raw if isinstance(raw, list) else [raw]
    return [float(item) for item in items if isinstance(item, int | float) and not isinstance(item, bool)]


def _directive_points(
    document: Mapping[str, Any], directive: Mapping[str, Any], timestamp: float
) -> list[Datapoint]:
    namespace = directive.get("Namespace")
    if not isinstance(namespace, str):
        return []
    points = []
    for dimension_set in directive.get("Dimensions", []):
        if not isinstance(dimension_set, list) or not all(isinstance(d, str) for d in dimension_set):
            continue
        if not all(isinstance(document.get(name), str) for name in dimension_set):
            continue
        dimensions = dimensions_of({name: document[name] for name in dimension_set})
        for definition in directive.get("Metrics", []):
            name = definition.get("Name") if isinstance(definition, Mapping) else None
            if not isinstance(name, str):
                continue
            unit = str(definition.get("Unit", "None"))
            points += [
                Datapoint(namespace, name, dimensions, value, timestamp, unit)
                for value in _values(document.get(name))
            ]
    return points


def parse_emf_line(line: str) -> list[Datapoint]:
    text = line.strip()
    if not text.startswith("{") or '"_aws"' not in text:
        return []
    try:
        document = json.loads(text)
    except ValueError:
        return []
    metadata = document.get("_aws") if isinstance(document, dict) else None
    if not isinstance(metadata, dict):
        return []
    stamp = metadata.get("Timestamp")
    if not isinstance(stamp, int | float):
        return []
    points: list[Datapoint] = []
    for directive in metadata.get("CloudWatchMetrics", []):
        if isinstance(directive, Mapping):
            points += _directive_points(document, directive, stamp / 1000)
    return points


def parse_emf_output(lines: Iterable[str]) -> list[Datapoint]:
    return [point for line in lines for point in parse_emf_line(line)]
