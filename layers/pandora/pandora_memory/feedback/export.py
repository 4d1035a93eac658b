"""Feedback as labeled examples in the format of the policy's own labeled set (one JSON object a line).

A rejection becomes a negative example, an approval or a manual add a positive one with the
reviewer's final type, sensitivity and namespace: corrections turn into regression tests.

The text is the event's stored, redacted message preview. Events hold no preview when none was kept:
a manual add (the text is the memory itself) and a candidate blocked for a secret (the turn's
message is deliberately never stored, not even redacted). Those lines carry the redacted summary
instead, without the policy's "Blocked (<kinds>): " lead, and are labelled by their id
(`feedback-<event id>-summary`). `contains_secret` is true for a candidate blocked for a secret: the
turn held one, though the exported text, being redacted, never does.
"""

import json
import re
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Any

from pandora_memory.feedback.events import FeedbackAction, FeedbackEvent
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.storage.records import InboxStatus

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
SUMMARY_ID_SUFFIX = "-summary"
# The lead `pandora_memory.policy.candidate` puts before the summary of a turn blocked for a secret.
_BLOCKED_LEAD = re.compile(r"^Blocked \([^)]*\):\s*")


class TextSource(StrEnum):
    MESSAGE = "message"  # the redacted preview of the user's message
    SUMMARY = "summary"  # no preview was kept: the candidate's (or manual memory's) redacted summary


def example_text(event: FeedbackEvent) -> tuple[str, TextSource]:
    preview = event.user_message_preview.strip()
    if preview:
        return preview, TextSource.MESSAGE
    return _BLOCKED_LEAD.sub("", event.summary.strip()), TextSource.SUMMARY


def blocked_for_secret(event: FeedbackEvent) -> bool:
    return event.candidate_status == InboxStatus.BLOCKED_SECRET.value


def labeled_example(event: FeedbackEvent) -> dict[str, Any] | None:
    """The event as a labeled example, or None when it carries no text to test on."""
    text, source = example_text(event)
    if not text:
        return None
    positive = event.action is not FeedbackAction.REJECTED
    sensitivity = (event.final_sensitivity or event.sensitivity) if positive else event.sensitivity
    memory_type = (event.final_memory_type or event.memory_type) if positive else MemoryType.NONE
    namespace = event.corrected_namespace or event.namespace
    example: dict[str, Any] = {
        "id": f"feedback-{event.event_id}{SUMMARY_ID_SUFFIX if source is TextSource.SUMMARY else ''}",
        "user_message": text,
        "assistant_response": None,
        "namespace": namespace.value,
        "should_create_candidate": positive,
        "memory_type": memory_type.value,
        "sensitivity": sensitivity.value,
        "requires_review": sensitivity in GUARDED,
        "contains_secret": blocked_for_secret(event),
    }
    return example


def labeled_lines(events: Iterable[FeedbackEvent]) -> Iterator[str]:
    for event in events:
        example = labeled_example(event)
        if example is not None:
            yield json.dumps(example, ensure_ascii=False)
