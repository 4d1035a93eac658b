"""Emits the turn's decisions as CloudWatch EMF metrics (one metric block per dimension set).

Only rule ids, enum values and durations go into a metric: never message text.
"""

import re
from typing import Protocol

from aws_lambda_powertools.metrics import MetricUnit, single_metric

from pandora_memory.env_config import DEFAULT_SERVICE_NAME
from pandora_memory.turn import metric_names as names

_SAFE_RULE_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def reason_dimension(rule_id: str | None) -> str:
    """A rule id is a bounded, safe dimension value; anything else is folded into `other`."""
    if not rule_id:
        return names.REASON_NO_RULE
    return rule_id if _SAFE_RULE_ID.match(rule_id) else names.REASON_OTHER


class TurnMetrics(Protocol):
    def retrieve_decision(self, *, retrieve: bool, rule_id: str | None) -> None: ...

    def candidate_outcome(self, *, outcome: str, memory_type: str, namespace: str) -> None: ...

    def turn_latency(self, *, mode: str, milliseconds: float) -> None: ...

    def search_request(self, *, namespace: str, found: bool) -> None: ...

    def search_latency(self, *, milliseconds: float) -> None: ...


class EmfTurnMetrics:
    def __init__(self, namespace: str = names.METRICS_NAMESPACE, service: str = DEFAULT_SERVICE_NAME) -> None:
        self._namespace = namespace
        self._service = service

    def _emit(self, metric: str, unit: MetricUnit, value: float, dimensions: dict[str, str]) -> None:
        ordered = {name: dimensions[name] for name in names.DIMENSION_SETS[metric]}
        with single_metric(
            name=metric, unit=unit, value=value, namespace=self._namespace, default_dimensions=ordered
        ):
            pass

    def retrieve_decision(self, *, retrieve: bool, rule_id: str | None) -> None:
        decision = names.DECISION_RETRIEVE if retrieve else names.DECISION_SKIP
        self._emit(
            names.RETRIEVE_DECISION,
            MetricUnit.Count,
            1,
            {
                names.DIM_SERVICE: self._service,
                names.DIM_DECISION: decision,
                names.DIM_REASON: reason_dimension(rule_id),
            },
        )

    def candidate_outcome(self, *, outcome: str, memory_type: str, namespace: str) -> None:
        self._emit(
            names.CANDIDATE_OUTCOME,
            MetricUnit.Count,
            1,
            {
                names.DIM_SERVICE: self._service,
                names.DIM_OUTCOME: outcome,
                names.DIM_MEMORY_TYPE: memory_type,
                names.DIM_NAMESPACE: namespace,
            },
        )

    def turn_latency(self, *, mode: str, milliseconds: float) -> None:
        self._emit(
            names.TURN_LATENCY,
            MetricUnit.Milliseconds,
            round(milliseconds, 3),
            {names.DIM_SERVICE: self._service, names.DIM_MODE: mode},
        )

    def search_request(self, *, namespace: str, found: bool) -> None:
        self._emit(
            names.SEARCH_REQUESTS,
            MetricUnit.Count,
            1,
            {
                names.DIM_SERVICE: self._service,
                names.DIM_NAMESPACE: namespace,
                names.DIM_RESULTS: names.RESULTS_FOUND if found else names.RESULTS_EMPTY,
            },
        )

    def search_latency(self, *, milliseconds: float) -> None:
        self._emit(
            names.SEARCH_LATENCY,
            MetricUnit.Milliseconds,
            round(milliseconds, 3),
            {names.DIM_SERVICE: self._service},
        )
