"""The local S3 event bridge inside moto: subscriptions read from template.yaml, delivery of real-shaped
events, retries then dead letters for a failing handler, and the delete-marker events moto omits."""

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote_plus

import boto3
import pytest
from pandora_devstack.background import RunningStack
from pandora_devstack.delete_markers import DeleteMarkerWatcher
from pandora_devstack.local_config import LocalStackInfo
from pandora_devstack.s3_events import S3EventBridge
from pandora_devstack.s3_subscriptions import async_invoke_config, read_s3_subscriptions
from pandora_devstack.template import Resolver, load_template
from pandora_memory.ingest.events import EventKind, ObjectEvent, parse_event

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

FUNCTION = "MarkdownIngestFunction"


def resolver(stack_name: str = "pandora-local") -> tuple[dict[str, Any], Resolver]:
    template = load_template()
    return template, Resolver(
        template, stack_name=stack_name, region="us-east-1", parameters={"Stage": "dev"}
    )


def test_subscriptions_are_read_from_the_template() -> None:
    template, resolve = resolver()

    subscriptions = {item.event_id: item for item in read_s3_subscriptions(template, resolve)}

    assert set(subscriptions) == {"MarkdownCreated", "MarkdownRemoved"}
    created, removed = subscriptions["MarkdownCreated"], subscriptions["MarkdownRemoved"]
    assert created.function_id == removed.function_id == FUNCTION
    assert created.bucket == "pandora-local-memory-123456789012"
    assert (created.prefix, created.suffix) == ("memory/", ".md")
    assert created.events == ("s3:ObjectCreated:*",) and removed.events == ("s3:ObjectRemoved:*",)
    assert removed.wants("s3:ObjectRemoved:DeleteMarkerCreated") and not created.wants(
        "s3:ObjectRemoved:Delete"
    )
    assert created.matches_key("memory/au/a.md") and not created.matches_key("memory/au/a.txt")
    config = async_invoke_config(template, resolve, FUNCTION)
    assert config.max_attempts == 3
    assert (
        config.on_failure_queue_arn == "arn:aws:sqs:us-east-1:123456789012:pandora-local-ingest-dead-letters"
    )


class RecordingFunction:
    """Stands in for the loaded handler: records events, fails the first `failures` calls."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.events: list[dict[str, Any]] = []
        self.calls = 0
        self.lock = threading.Lock()

    def invoke(self, event: dict[str, Any]) -> Any:
        with self.lock:
            self.calls += 1
            if self.calls <= self.failures:
                raise RuntimeError("injected failure")
            self.events.append(event)
        return {"records": 1}


def running(stack: "ProvisionedStack", function: RecordingFunction) -> RunningStack:
    info = LocalStackInfo(
        api_url="http://127.0.0.1:1",
        tokens={},
        aws_endpoint="",
        s3_endpoint="",
        bucket=stack.bucket,
        table_names=stack.table_names,
        region=stack.region,
        access_key_id="LOCALTEST",
        secret_access_key="local-only",
        stage="dev",
        stack_name=stack.stack_name,
        tokens_path=stack.tokens_path,
        flags_path=stack.flags_path,
        routes=(),
    )
    return RunningStack(info, stack, {FUNCTION: function}, boto3.Session(region_name=stack.region))  # type: ignore[dict-item]


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


@pytest.fixture
def logs() -> list[str]:
    return []


@pytest.fixture
def bridge(logs: list[str]) -> Iterator[S3EventBridge]:
    started = S3EventBridge(retry_after_seconds=1, delete_poll_seconds=0.1, log=logs.append)
    yield started
    started.stop()


def only_object_events(function: RecordingFunction) -> list[ObjectEvent]:
    events = [record for event in function.events for record in parse_event(event)]
    assert all(isinstance(record, ObjectEvent) for record in events)
    return [record for record in events if isinstance(record, ObjectEvent)]


def test_uploads_and_deletes_reach_the_handler_as_s3_events(
    provisioned_stack: "ProvisionedStack", bridge: S3EventBridge
) -> None:
    function = RecordingFunction()
    bridge.start(running(provisioned_stack, function))
    s3 = boto3.client("s3")
    bucket = provisioned_stack.bucket

    s3.put_object(Bucket=bucket, Key="memory/real_life/my notes.md", Body=b"# Notes\n")
    s3.put_object(Bucket=bucket, Key="memory/real_life/photo.jpg", Body=b"jpg")
    s3.put_object(Bucket=bucket, Key="elsewhere/a.md", Body=b"# A\n")
    wait_for(lambda: len(function.events) == 1)
    s3.delete_object(Bucket=bucket, Key="memory/real_life/my notes.md")
    wait_for(lambda: len(function.events) == 2)

    created, removed = only_object_events(function)
    assert (created.kind, created.key, created.bucket) == (
        EventKind.CREATED,
        "memory/real_life/my notes.md",
        bucket,
    )
    assert created.event_name == "ObjectCreated:Put"
    assert (removed.kind, removed.key) == (EventKind.REMOVED, "memory/real_life/my notes.md")
    assert removed.event_name == "ObjectRemoved:DeleteMarkerCreated"
    assert removed.version_id is not None
    assert function.events[0]["Records"][0]["s3"]["object"]["key"] == "memory%2Freal_life%2Fmy+notes.md"
    assert bridge.dead_letters == []
    assert bridge.delivered(FUNCTION) == 2


def test_a_failing_handler_is_retried_then_dead_lettered_with_a_log_line(
    provisioned_stack: "ProvisionedStack", bridge: S3EventBridge, logs: list[str]
) -> None:
    function = RecordingFunction(failures=10)
    bridge.start(running(provisioned_stack, function))

    boto3.client("s3").put_object(
        Bucket=provisioned_stack.bucket, Key="memory/au/canon.md", Body=b"# Canon\n"
    )
    wait_for(lambda: len(bridge.dead_letters) == 1)

    [letter] = bridge.dead_letters
    assert (letter.function_id, letter.attempts) == (FUNCTION, 3)
    assert "injected failure" in letter.error
    assert function.calls == 3, "the template's MaximumRetryAttempts of 2, plus the first try"
    assert sum("attempt" in line and "retry" in line for line in logs) == 2
    assert any("gave up" in line and "memory/au/canon.md" in line for line in logs)
    dlq = provisioned_stack.queue_urls["pandora-local-ingest-dead-letters"]
    [message] = boto3.client("sqs").receive_message(QueueUrl=dlq).get("Messages", [])
    record = json.loads(message["Body"])
    assert record["requestContext"]["condition"] == "RetriesExhausted"
    assert record["requestPayload"] == letter.event


def test_a_handler_that_recovers_is_not_dead_lettered(
    provisioned_stack: "ProvisionedStack", bridge: S3EventBridge
) -> None:
    function = RecordingFunction(failures=1)
    bridge.start(running(provisioned_stack, function))

    boto3.client("s3").put_object(
        Bucket=provisioned_stack.bucket, Key="memory/au/canon.md", Body=b"# Canon\n"
    )
    wait_for(lambda: len(function.events) == 1)

    assert function.calls == 2
    assert bridge.dead_letters == []


def test_the_watcher_announces_each_new_delete_marker_once(provisioned_stack: "ProvisionedStack") -> None:
    template, resolve = resolver()
    removed = next(s for s in read_s3_subscriptions(template, resolve) if s.event_id == "MarkdownRemoved")
    s3 = boto3.client("s3")
    bucket = provisioned_stack.bucket
    s3.put_object(Bucket=bucket, Key="memory/real_life/old.md", Body=b"# Old\n")
    s3.delete_object(Bucket=bucket, Key="memory/real_life/old.md")  # before the stack: not announced
    watcher = DeleteMarkerWatcher(s3, removed, "us-east-1", print)
    assert watcher.applies()
    watcher.baseline()

    for key in ("memory/real_life/a.md", "memory/real_life/b.txt", "other/c.md"):
        s3.put_object(Bucket=bucket, Key=key, Body=b"x")
        s3.delete_object(Bucket=bucket, Key=key)

    [event] = watcher.poll()
    record = event["Records"][0]
    assert unquote_plus(record["s3"]["object"]["key"]) == "memory/real_life/a.md"
    assert record["eventName"] == "ObjectRemoved:DeleteMarkerCreated"
    assert record["s3"]["configurationId"] == "MarkdownIngestFunction-MarkdownRemoved"
    assert watcher.poll() == []
    s3.put_object(Bucket=bucket, Key="memory/real_life/a.md", Body=b"again")
    s3.delete_object(Bucket=bucket, Key="memory/real_life/a.md")
    assert len(watcher.poll()) == 1
