"""Every CloudWatch metric the code emits, with its one dimension set: the single list that the
dashboard check and the local dashboard read.

The names come from each emitter's own constants module, so a metric added there appears here at
once. The token authorizer ships as function code outside this package; its names are restated here
and a test holds them equal to the function's constants and to what it actually prints.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pandora_memory.env_config import DEFAULT_METRICS_NAMESPACE
from pandora_memory.ingest import metrics as ingest_names
from pandora_memory.ingest.outcomes import ChangeKind, RejectReason
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType
from pandora_memory.review import metric_names as review_names
from pandora_memory.turn import metric_names as turn_names

NAMESPACE = DEFAULT_METRICS_NAMESPACE

TURN_EMITTER = "pandora_memory.turn.metrics"
REVIEW_EMITTER = "pandora_memory.review.metrics"
INGEST_EMITTER = "pandora_memory.ingest.metrics"
AUTHORIZER_EMITTER = "functions/token_authorizer/app.py"

# Restated from functions/token_authorizer/app.py (held equal by tests/infra/test_dashboard_metrics.py).
AUTHORIZER_DECISION = "AuthorizerDecision"
AUTHORIZER_OUTCOME = "outcome"
AUTHORIZER_OUTCOMES = ("allow", "deny")
# Powertools adds the service dimension to a single metric from POWERTOOLS_SERVICE_NAME.
SERVICE_DIMENSION = "service"


@dataclass(frozen=True)
class MetricSpec:
    name: str
    dimensions: frozenset[str]
    unit: str
    emitter: str
    # Closed dimensions and the values the code can give them; a dimension absent here is open.
    known_values: Mapping[str, frozenset[str]] = field(default_factory=dict)


def _specs(
    dimension_sets: Mapping[str, Iterable[str]],
    units: Mapping[str, str],
    emitter: str,
    known_values: Mapping[str, Iterable[str]],
) -> list[MetricSpec]:
    specs = []
    for name, dimensions in dimension_sets.items():
        dims = frozenset(dimensions)
        specs.append(
            MetricSpec(
                name=name,
                dimensions=dims,
                unit=units.get(name, "Count"),
                emitter=emitter,
                known_values={dim: frozenset(values) for dim, values in known_values.items() if dim in dims},
            )
        )
    return specs


def _catalog() -> tuple[MetricSpec, ...]:
    # Emitters share dimension names with different value sets (`outcome`, `reason`), so known
    # values are given per emitter.
    memory_types = [memory_type.value for memory_type in MemoryType]
    turn = _specs(
        turn_names.DIMENSION_SETS,
        turn_names.UNITS,
        TURN_EMITTER,
        {
            turn_names.DIM_DECISION: turn_names.DECISION_VALUES,
            turn_names.DIM_OUTCOME: turn_names.OUTCOME_VALUES,
            turn_names.DIM_MEMORY_TYPE: memory_types,
            turn_names.DIM_NAMESPACE: [namespace.value for namespace in Namespace],
            turn_names.DIM_RESULTS: turn_names.RESULTS_VALUES,
        },
    )
    review = _specs(
        review_names.DIMENSION_SETS,
        review_names.UNITS,
        REVIEW_EMITTER,
        {review_names.DIM_ACTION: review_names.ACTION_VALUES, review_names.DIM_MEMORY_TYPE: memory_types},
    )
    ingest = _specs(
        ingest_names.DIMENSION_SETS,
        {},
        INGEST_EMITTER,
        {
            ingest_names.DIM_CHANGE: [*(kind.value for kind in ChangeKind), ingest_names.CHANGE_UNCHANGED],
            ingest_names.DIM_REASON: [reason.value for reason in RejectReason],
        },
    )
    authorizer = MetricSpec(
        name=AUTHORIZER_DECISION,
        dimensions=frozenset({AUTHORIZER_OUTCOME, SERVICE_DIMENSION}),
        unit="Count",
        emitter=AUTHORIZER_EMITTER,
        known_values={AUTHORIZER_OUTCOME: frozenset(AUTHORIZER_OUTCOMES)},
    )
    specs = (*turn, *review, *ingest, authorizer)
    names = [spec.name for spec in specs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"metric names emitted by two modules: {duplicates}")
    return specs


CATALOG: tuple[MetricSpec, ...] = _catalog()
EMITTERS: frozenset[str] = frozenset(spec.emitter for spec in CATALOG)


def metric_spec(name: str) -> MetricSpec:
    for spec in CATALOG:
        if spec.name == name:
            return spec
    raise KeyError(f"no metric named {name!r} is emitted under {NAMESPACE}")
