"""Feedback as labeled examples in the format of the policy's own labeled set (one JSON object a line).

A rejection becomes a negative example, an approval or a manual add a positive one with the
reviewer's final type, sensitivity and namespace: corrections turn into regression tests. The text is
the stored, redacted message preview (or the summary when no preview was kept), so an exported line
never holds a secret and `contains_secret` is always false.
"""

import json
from collections.abc import Iterable, Iterator
from typing import Any

from pandora_memory.feedback.events import FeedbackAction, FeedbackEvent
from pandora_memory.policy.models import MemoryType, Sensitivity

GUARDED = frozenset({Sensitivity.HIGH, Sensitivity.PRIVATE})
LABEL_FIELDS = (
    "id",
    "user_message",
    "assistant_response",
    "namespace",
    "should_create_candidate",
    "memory_type",
    "sensitivity",
    "requires_review",
    "contains_secret",
)


def labeled_example(event: FeedbackEvent) -> dict[str, Any] | None:
    """The event as a labeled example, or None when it carries no text to test on."""
    text = event.user_message_preview.strip() or event.summary.strip()
    if not text:
        return None
    positive = event.action is not FeedbackAction.REJECTED
    sensitivity = (event.final_sensitivity or event.sensitivity) if positive else event.sensitivity
    memory_type = (event.final_memory_type or event.memory_type) if positive else MemoryType.NONE
    namespace = event.corrected_namespace or event.namespace
    example: dict[str, Any] = {
        "id": f"feedback-{event.event_id}",
        "user_message": text,
        "assistant_response": None,
        "namespace": namespace.value,
        "should_create_candidate": positive,
        "memory_type": memory_type.value,
        "sensitivity": sensitivity.value,
        "requires_review": sensitivity in GUARDED,
        "contains_secret": False,
    }
    return example


def labeled_lines(events: Iterable[FeedbackEvent]) -> Iterator[str]:
    for event in events:
        example = labeled_example(event)
        if example is not None:
            yield json.dumps(example, ensure_ascii=False)
