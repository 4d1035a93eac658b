"""Review actions as CloudWatch EMF metrics: one `ReviewActions` count per action and memory type.

A feedback event maps to one or more actions: the outcome itself, plus one per kind of correction.
"""

from typing import Protocol

from aws_lambda_powertools.metrics import MetricUnit, single_metric

from pandora_memory.env_config import DEFAULT_SERVICE_NAME
from pandora_memory.feedback.events import Correction, FeedbackAction, FeedbackEvent
from pandora_memory.review import metric_names as names

_OUTCOMES = {
    FeedbackAction.APPROVED: names.ACTION_APPROVED,
    FeedbackAction.REJECTED: names.ACTION_REJECTED,
    FeedbackAction.MANUAL_ADD: names.ACTION_MANUAL_ADD,
}
_CORRECTIONS = {
    Correction.NAMESPACE: names.ACTION_NAMESPACE_CORRECTED,
    Correction.SENSITIVITY: names.ACTION_SENSITIVITY_CORRECTED,
    Correction.SUMMARY: names.ACTION_EDITED,
    Correction.MEMORY_TYPE: names.ACTION_EDITED,
}


def actions_of(event: FeedbackEvent) -> list[str]:
    actions = [_OUTCOMES[event.action]]
    actions += [_CORRECTIONS[correction] for correction in event.corrections]
    return list(dict.fromkeys(actions))


class ReviewMetrics(Protocol):
    def review_action(self, *, action: str, memory_type: str) -> None: ...


class EmfReviewMetrics:
    def __init__(self, namespace: str = names.METRICS_NAMESPACE, service: str = DEFAULT_SERVICE_NAME) -> None:
        self._namespace = namespace
        self._service = service

    def review_action(self, *, action: str, memory_type: str) -> None:
        dimensions = {
            names.DIM_ACTION: action,
            names.DIM_MEMORY_TYPE: memory_type,
            names.DIM_SERVICE: self._service,
        }
        with single_metric(
            name=names.REVIEW_ACTIONS,
            unit=MetricUnit.Count,
            value=1,
            namespace=self._namespace,
            default_dimensions=dimensions,
        ):
            pass


def record_actions(metrics: ReviewMetrics, event: FeedbackEvent) -> None:
    memory_type = (event.final_memory_type or event.memory_type).value
    for action in actions_of(event):
        metrics.review_action(action=action, memory_type=memory_type)
