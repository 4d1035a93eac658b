"""Every CloudWatch metric and dimension name the turn emits. Dashboards and alarms must use these.

Each metric has exactly one dimension set (listed in DIMENSION_SETS, in emission order), so a
dashboard can group by any of its dimensions. `service` is the Powertools service name.
"""

from pandora_memory.env_config import DEFAULT_METRICS_NAMESPACE
from pandora_memory.turn.models import CandidateOutcome

METRICS_NAMESPACE = DEFAULT_METRICS_NAMESPACE

RETRIEVE_DECISION = "RetrieveDecision"
CANDIDATE_OUTCOME = "CandidateOutcome"
TURN_LATENCY = "TurnLatency"
SEARCH_REQUESTS = "SearchRequests"
SEARCH_LATENCY = "SearchLatency"

DIM_SERVICE = "service"
DIM_DECISION = "decision"
DIM_REASON = "reason"
DIM_OUTCOME = "outcome"
DIM_MEMORY_TYPE = "memory_type"
DIM_NAMESPACE = "namespace"
DIM_MODE = "mode"
DIM_RESULTS = "results"

DIMENSION_SETS: dict[str, tuple[str, ...]] = {
    RETRIEVE_DECISION: (DIM_SERVICE, DIM_DECISION, DIM_REASON),
    CANDIDATE_OUTCOME: (DIM_SERVICE, DIM_OUTCOME, DIM_MEMORY_TYPE, DIM_NAMESPACE),
    TURN_LATENCY: (DIM_SERVICE, DIM_MODE),
    SEARCH_REQUESTS: (DIM_SERVICE, DIM_NAMESPACE, DIM_RESULTS),
    SEARCH_LATENCY: (DIM_SERVICE,),
}

UNITS: dict[str, str] = {
    RETRIEVE_DECISION: "Count",
    CANDIDATE_OUTCOME: "Count",
    TURN_LATENCY: "Milliseconds",
    SEARCH_REQUESTS: "Count",
    SEARCH_LATENCY: "Milliseconds",
}

DECISION_RETRIEVE = "retrieve"
DECISION_SKIP = "skip"
DECISION_VALUES = (DECISION_RETRIEVE, DECISION_SKIP)
OUTCOME_VALUES = tuple(outcome.value for outcome in CandidateOutcome)
# Whether a search of POST /api/memory/search returned anything.
RESULTS_FOUND = "found"
RESULTS_EMPTY = "empty"
RESULTS_VALUES = (RESULTS_FOUND, RESULTS_EMPTY)

# Reasons that come from a closed gate rather than from a policy rule.
REASON_AUTOPILOT_OFF = "gate.autopilot_off"
REASON_AUTO_RETRIEVE_OFF = "gate.auto_retrieve_off"
REASON_NO_RULE = "none"
REASON_OTHER = "other"
