"""Every CloudWatch metric and dimension the ingest emits. Dashboards and alarms must use these names.

Dimension values are closed sets (change kinds, reject reasons, step names), never paths or text.
"""

from typing import Protocol

from aws_lambda_powertools.metrics import MetricUnit, single_metric

from pandora_memory.env_config import DEFAULT_METRICS_NAMESPACE, DEFAULT_SERVICE_NAME

METRICS_NAMESPACE = DEFAULT_METRICS_NAMESPACE

INGEST_DOCUMENTS = "IngestDocuments"
INGEST_CHUNKS = "IngestChunks"
INGEST_REJECTED = "IngestRejected"
PROJECTION_SWAPS = "ProjectionSwaps"
INGEST_FAILURES = "IngestFailures"

DIM_SERVICE = "service"
DIM_CHANGE = "change"
DIM_REASON = "reason"
DIM_STEP = "step"

# One dimension set per metric, in emission order.
DIMENSION_SETS: dict[str, tuple[str, ...]] = {
    INGEST_DOCUMENTS: (DIM_SERVICE, DIM_CHANGE),
    INGEST_CHUNKS: (DIM_SERVICE,),
    INGEST_REJECTED: (DIM_SERVICE, DIM_REASON),
    PROJECTION_SWAPS: (DIM_SERVICE,),
    INGEST_FAILURES: (DIM_SERVICE, DIM_STEP),
}

# IngestDocuments' `change` for a re-upload of the active text (no revision written).
CHANGE_UNCHANGED = "unchanged"


class IngestMetrics(Protocol):
    def document(self, change: str) -> None: ...

    def chunks(self, count: int) -> None: ...

    def rejected(self, reason: str) -> None: ...

    def projection_swap(self) -> None: ...

    def failure(self, step: str) -> None: ...


class EmfIngestMetrics:
    def __init__(self, namespace: str = METRICS_NAMESPACE, service: str = DEFAULT_SERVICE_NAME) -> None:
        self._namespace = namespace
        self._service = service

    def _emit(self, metric: str, value: float, **dimensions: str) -> None:
        values = {DIM_SERVICE: self._service, **dimensions}
        ordered = {name: values[name] for name in DIMENSION_SETS[metric]}
        with single_metric(
            name=metric,
            unit=MetricUnit.Count,
            value=value,
            namespace=self._namespace,
            default_dimensions=ordered,
        ):
            pass

    def document(self, change: str) -> None:
        self._emit(INGEST_DOCUMENTS, 1, **{DIM_CHANGE: change})

    def chunks(self, count: int) -> None:
        self._emit(INGEST_CHUNKS, count)

    def rejected(self, reason: str) -> None:
        self._emit(INGEST_REJECTED, 1, **{DIM_REASON: reason})

    def projection_swap(self) -> None:
        self._emit(PROJECTION_SWAPS, 1)

    def failure(self, step: str) -> None:
        self._emit(INGEST_FAILURES, 1, **{DIM_STEP: step})
