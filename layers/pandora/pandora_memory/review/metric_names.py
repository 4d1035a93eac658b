"""Every CloudWatch metric and dimension name the review function emits. Dashboards must use these."""

from pandora_memory.env_config import DEFAULT_METRICS_NAMESPACE

METRICS_NAMESPACE = DEFAULT_METRICS_NAMESPACE

REVIEW_ACTIONS = "ReviewActions"

DIM_SERVICE = "service"  # the Powertools service name, named explicitly so the set never varies
DIM_ACTION = "action"
DIM_MEMORY_TYPE = "memory_type"

ACTION_APPROVED = "approved"
ACTION_REJECTED = "rejected"
ACTION_MANUAL_ADD = "manual_add"
ACTION_NAMESPACE_CORRECTED = "namespace_corrected"
ACTION_SENSITIVITY_CORRECTED = "sensitivity_corrected"
ACTION_EDITED = "edited"  # summary or memory type changed on approval

ACTION_VALUES = (
    ACTION_APPROVED,
    ACTION_REJECTED,
    ACTION_MANUAL_ADD,
    ACTION_NAMESPACE_CORRECTED,
    ACTION_SENSITIVITY_CORRECTED,
    ACTION_EDITED,
)

DIMENSION_SETS: dict[str, tuple[str, ...]] = {REVIEW_ACTIONS: (DIM_ACTION, DIM_MEMORY_TYPE, DIM_SERVICE)}
UNITS: dict[str, str] = {REVIEW_ACTIONS: "Count"}
