"""Re-drives ingest events that exhausted their retries and landed in the dead-letter queue.

Lambda's on-failure destination wraps the original S3 event as `requestPayload`; replaying hands that
event to the ingest again. A message is deleted only after its event was handed over without error,
so a cause that is still broken leaves the dead letter where it was.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pandora_memory.ingest.events import parse_event

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient

    from pandora_memory.ingest.pipeline import IngestPipeline

# The template names the queue "${AWS::StackName}-ingest-dead-letters" (a test holds them equal).
DEAD_LETTER_QUEUE_SUFFIX = "-ingest-dead-letters"

Redeliver = Callable[[dict[str, Any]], None]


def in_process_redelivery(pipeline: "IngestPipeline") -> Redeliver:
    """Runs the ingest pipeline itself on each record (the local stack has no Lambda service)."""

    def redeliver(event: dict[str, Any]) -> None:
        for record in parse_event(event):
            pipeline.process(record)

    return redeliver


@dataclass
class ReplaySummary:
    replayed: int = 0
    failed: int = 0
    unreadable: int = 0

    def line(self) -> str:
        return f"replayed {self.replayed}, still failing {self.failed}, unreadable {self.unreadable}"


def original_event(body: str) -> dict[str, Any] | None:
    """The S3 event inside a dead letter, or None when the message is not one."""
    try:
        document = json.loads(body)
    except json.JSONDecodeError:
        return None
    payload = document.get("requestPayload") if isinstance(document, dict) else None
    if isinstance(payload, dict) and isinstance(payload.get("Records"), list):
        return payload
    return None


class DeadLetterReplayer:
    def __init__(self, sqs: "SQSClient", queue_url: str, redeliver: Redeliver) -> None:
        self._sqs = sqs
        self._queue_url = queue_url
        self._redeliver = redeliver

    def replay(self, max_messages: int = 100, dry_run: bool = False) -> ReplaySummary:
        """Messages kept back stay invisible until the run ends, so none is handled twice."""
        summary = ReplaySummary()
        kept: list[str] = []
        while summary.replayed + summary.failed + summary.unreadable < max_messages:
            batch = self._sqs.receive_message(
                QueueUrl=self._queue_url,
                MaxNumberOfMessages=min(10, max_messages),
                WaitTimeSeconds=1,
                VisibilityTimeout=300,
            ).get("Messages", [])
            if not batch:
                break
            for message in batch:
                if not self._handle(message, summary, dry_run):
                    kept.append(message["ReceiptHandle"])
        for receipt in kept:
            self._sqs.change_message_visibility(
                QueueUrl=self._queue_url, ReceiptHandle=receipt, VisibilityTimeout=0
            )
        return summary

    def _handle(self, message: Any, summary: ReplaySummary, dry_run: bool) -> bool:
        """True when the dead letter is done with and may be deleted."""
        event = original_event(message.get("Body", ""))
        if event is None:
            summary.unreadable += 1
            return False
        if dry_run:
            summary.replayed += 1
            return False
        try:
            self._redeliver(event)
        except Exception:
            summary.failed += 1
            return False
        summary.replayed += 1
        self._sqs.delete_message(QueueUrl=self._queue_url, ReceiptHandle=message["ReceiptHandle"])
        return True
