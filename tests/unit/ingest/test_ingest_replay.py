"""Dead letters are re-driven once the cause is fixed; a still-failing one stays in the queue."""

import json
from typing import Any

import boto3
import pytest
from pandora_devstack.template import load_template
from pandora_memory.ingest.replay import (
    DEAD_LETTER_QUEUE_SUFFIX,
    DeadLetterReplayer,
    in_process_redelivery,
    original_event,
)
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture  # noqa: F401 - the `ingest` fixture


def _dead_letter(event: dict[str, Any]) -> str:
    """The message Lambda's on-failure destination sends after the retries are spent."""
    return json.dumps(
        {
            "version": "1.0",
            "requestContext": {"condition": "RetriesExhausted", "approximateInvokeCount": 3},
            "requestPayload": event,
            "responseContext": {"statusCode": 200, "functionError": "Unhandled"},
        }
    )


@pytest.fixture
def dead_letters(ingest: IngestHarness) -> str:
    return ingest.stack.queue_urls[f"{ingest.stack.stack_name}{DEAD_LETTER_QUEUE_SUFFIX}"]


def _queued(queue_url: str) -> int:
    attributes = boto3.client("sqs").get_queue_attributes(
        QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages"]
    )
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])


def test_template_names_the_queue_with_the_suffix_replay_looks_for() -> None:
    queue = load_template()["Resources"]["IngestDeadLetterQueue"]
    assert queue["Properties"]["QueueName"] == {"Fn::Sub": f"${{AWS::StackName}}{DEAD_LETTER_QUEUE_SUFFIX}"}


def test_original_event_unwraps_only_real_dead_letters() -> None:
    event = {"Records": [{"eventName": "ObjectCreated:Put"}]}
    assert original_event(_dead_letter(event)) == event
    assert original_event("not json") is None
    assert original_event(json.dumps({"requestPayload": {"no": "records"}})) is None


def test_replay_ingests_the_document_and_empties_the_queue(ingest: IngestHarness, dead_letters: str) -> None:
    record = ingest.put("projects/replayed", "# Replayed\n\nThe queue refactor ships on Friday.\n")
    boto3.client("sqs").send_message(QueueUrl=dead_letters, MessageBody=_dead_letter({"Records": [record]}))
    replayer = DeadLetterReplayer(boto3.client("sqs"), dead_letters, in_process_redelivery(ingest.pipeline))

    summary = replayer.replay()

    assert (summary.replayed, summary.failed, summary.unreadable) == (1, 0, 0)
    assert ingest.document("projects/replayed") is not None
    assert any("Friday" in entry.text for entry in ingest.searchable())
    assert _queued(dead_letters) == 0


def test_a_still_failing_cause_keeps_the_dead_letter(ingest: IngestHarness, dead_letters: str) -> None:
    sqs = boto3.client("sqs")
    sqs.send_message(QueueUrl=dead_letters, MessageBody=_dead_letter({"Records": [{"eventName": "x"}]}))
    sqs.send_message(QueueUrl=dead_letters, MessageBody="garbage")

    def still_broken(_: dict[str, Any]) -> None:
        raise RuntimeError("table still throttled")

    summary = DeadLetterReplayer(sqs, dead_letters, still_broken).replay()

    assert (summary.replayed, summary.failed, summary.unreadable) == (0, 1, 1)
    assert _queued(dead_letters) == 2


def test_dry_run_counts_and_changes_nothing(ingest: IngestHarness, dead_letters: str) -> None:
    record = ingest.put("projects/dry", "# Dry\n\nnothing happens\n")
    boto3.client("sqs").send_message(QueueUrl=dead_letters, MessageBody=_dead_letter({"Records": [record]}))
    summary = DeadLetterReplayer(
        boto3.client("sqs"), dead_letters, in_process_redelivery(ingest.pipeline)
    ).replay(dry_run=True)
    assert summary.replayed == 1
    assert ingest.document("projects/dry") is None
    assert _queued(dead_letters) == 1
