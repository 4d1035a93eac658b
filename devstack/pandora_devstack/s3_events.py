"""S3 events for the local stack: the template's `Events: {Type: S3}` delivered to the same handlers.

For each function with S3 events the bridge creates a local SQS queue, points the emulator bucket's
notification configuration at it with the template's event names and key filters, and long-polls it
(WaitTimeSeconds 1), invoking the handler with each S3 event exactly as S3 invokes Lambda. moto sends
no event when a versioned bucket gets a delete marker, so `DeleteMarkerWatcher` adds those.

A failed invocation leaves its message on the queue; it comes back after the visibility timeout, up
to the function's own EventInvokeConfig attempts, and is then dropped to `dead_letters` with a log
line (and to the template's OnFailure queue, as Lambda would). The emulator's `s3:TestEvent` is
dropped: S3 never sends one to a function.
"""

import json
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

from pandora_memory.secrets import redact

from pandora_devstack.background import RunningStack
from pandora_devstack.delete_markers import DeleteMarkerWatcher
from pandora_devstack.s3_subscriptions import (
    AsyncInvokeConfig,
    S3Subscription,
    async_invoke_config,
    read_s3_subscriptions,
)
from pandora_devstack.template import TEMPLATE_PATH, Resolver, load_template

WAIT_SECONDS = 1  # long-poll bound: keeps delivery under a second and stop() prompt
RETRY_AFTER_SECONDS = 2  # visibility timeout: how soon a failed event is tried again
DELETE_POLL_SECONDS = 0.5
TEST_EVENT = "s3:TestEvent"

Log = Callable[[str], None]


def _stderr(line: str) -> None:
    print(f"[pandora-local] {line}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class DeadLetter:
    function_id: str
    event: dict[str, Any]
    attempts: int
    error: str


@dataclass
class _Route:
    function_id: str
    queue_url: str
    queue_arn: str
    config: AsyncInvokeConfig
    failure_queue_url: str | None = None
    delivered: int = 0


def _keys_of(event: Mapping[str, Any]) -> str:
    """The object keys an event names, redacted: a key may itself carry a credential."""
    keys = [
        unquote_plus(str(record.get("s3", {}).get("object", {}).get("key", "?")))
        for record in event.get("Records", [])
        if isinstance(record, Mapping)
    ]
    return redact(", ".join(keys) or "?").text


class S3EventBridge:
    name = "s3-events"

    def __init__(
        self,
        template_path: Path = TEMPLATE_PATH,
        *,
        retry_after_seconds: int = RETRY_AFTER_SECONDS,
        delete_poll_seconds: float = DELETE_POLL_SECONDS,
        log: Log = _stderr,
    ) -> None:
        self.template_path = template_path
        self.retry_after_seconds = retry_after_seconds
        self.delete_poll_seconds = delete_poll_seconds
        self.log = log
        self.subscriptions: list[S3Subscription] = []
        self.dead_letters: list[DeadLetter] = []
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._routes: list[_Route] = []

    # -- BackgroundTask ----------------------------------------------------------------------------
    def start(self, stack: RunningStack) -> None:
        template = load_template(self.template_path)
        resolver = Resolver(
            template,
            stack_name=stack.info.stack_name,
            region=stack.info.region,
            parameters={"Stage": stack.info.stage},
        )
        self.subscriptions = read_s3_subscriptions(template, resolver)
        sqs, s3 = stack.session.client("sqs"), stack.session.client("s3")
        routes: dict[str, _Route] = {}
        for function_id in dict.fromkeys(item.function_id for item in self.subscriptions):
            routes[function_id] = self._route(
                sqs, stack, function_id, async_invoke_config(template, resolver, function_id)
            )
        self._routes = list(routes.values())
        self._configure_buckets(s3, {function_id: route.queue_arn for function_id, route in routes.items()})
        for route in self._routes:
            invoke = stack.functions[route.function_id].invoke
            self._spawn(f"s3-events-{route.function_id}", self._consume, sqs, route, invoke)
        for subscription in self.subscriptions:
            watcher = DeleteMarkerWatcher(s3, subscription, stack.info.region, self.log)
            if watcher.applies():
                watcher.baseline()
                queue_url = routes[subscription.function_id].queue_url
                self._spawn(f"s3-deletes-{subscription.event_id}", self._watch, watcher, sqs, queue_url)
        for subscription in self.subscriptions:
            self.log(
                f"S3 events: s3://{subscription.bucket}/{subscription.prefix}*{subscription.suffix} "
                f"{'/'.join(subscription.events)} -> {subscription.function_id}"
            )

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=WAIT_SECONDS + 5)
            if thread.is_alive():
                self.log(f"{thread.name} still busy at stop (a handler is running)")
        self._threads.clear()

    # -- set-up ------------------------------------------------------------------------------------
    def _route(self, sqs: Any, stack: RunningStack, function_id: str, config: AsyncInvokeConfig) -> _Route:
        name = f"{stack.info.stack_name}-{function_id}-s3-events"[:80]
        attributes = {"VisibilityTimeout": str(self.retry_after_seconds)}
        queue_url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        failure_url = None
        if config.on_failure_queue_arn:
            failure_name = config.on_failure_queue_arn.rsplit(":", 1)[-1]
            failure_url = stack.provisioned.queue_urls.get(failure_name)
        return _Route(function_id, queue_url, queue_arn, config, failure_url)

    def _configure_buckets(self, s3: Any, queue_arns: Mapping[str, str]) -> None:
        by_bucket: dict[str, list[dict[str, Any]]] = {}
        for subscription in self.subscriptions:
            configuration: dict[str, Any] = {
                "Id": f"{subscription.function_id}-{subscription.event_id}",
                "QueueArn": queue_arns[subscription.function_id],
                "Events": list(subscription.events),
            }
            if subscription.rules:
                configuration["Filter"] = subscription.notification_filter()
            by_bucket.setdefault(subscription.bucket, []).append(configuration)
        for bucket, configurations in by_bucket.items():
            s3.put_bucket_notification_configuration(
                Bucket=bucket, NotificationConfiguration={"QueueConfigurations": configurations}
            )

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    # -- delivery ----------------------------------------------------------------------------------
    def _consume(self, sqs: Any, route: _Route, invoke: Callable[[dict[str, Any]], Any]) -> None:
        while not self._stopping.is_set():
            try:
                response = sqs.receive_message(
                    QueueUrl=route.queue_url,
                    MaxNumberOfMessages=10,
                    WaitTimeSeconds=WAIT_SECONDS,
                    MessageSystemAttributeNames=["ApproximateReceiveCount"],
                )
            except Exception as error:  # the emulator stopping, or a hiccup: try again shortly
                if not self._stopping.is_set():
                    self.log(f"S3 events: cannot poll the queue of {route.function_id}: {error!r}")
                    self._stopping.wait(WAIT_SECONDS)
                continue
            for message in response.get("Messages", []):
                if self._stopping.is_set():
                    return  # left on the queue; nothing after stop() may call a handler
                self._deliver(sqs, route, invoke, message)

    def _deliver(
        self, sqs: Any, route: _Route, invoke: Callable[[dict[str, Any]], Any], message: Mapping[str, Any]
    ) -> None:
        attempts = int(message.get("Attributes", {}).get("ApproximateReceiveCount", "1"))
        try:
            event = json.loads(message["Body"])
        except (json.JSONDecodeError, TypeError):
            self._finish(sqs, route, message)
            self.log(f"S3 events: dropped a message for {route.function_id} that is not JSON")
            return
        if not isinstance(event, dict) or event.get("Event") == TEST_EVENT:
            self._finish(sqs, route, message)
            return
        try:
            invoke(event)
        except Exception as error:
            failure = f"{type(error).__name__}: {str(error)[:200]}"
            if attempts < route.config.max_attempts:
                self.log(
                    f"S3 events: {route.function_id} failed on {_keys_of(event)} "
                    f"(attempt {attempts}/{route.config.max_attempts}, retry in "
                    f"{self.retry_after_seconds}s): {failure}"
                )
                return  # the message reappears after the visibility timeout
            self._dead_letter(sqs, route, event, attempts, failure)
        else:
            route.delivered += 1
        self._finish(sqs, route, message)

    def _dead_letter(self, sqs: Any, route: _Route, event: dict[str, Any], attempts: int, error: str) -> None:
        self.dead_letters.append(DeadLetter(route.function_id, event, attempts, error))
        self.log(
            f"S3 events: gave up on {_keys_of(event)} for {route.function_id} after {attempts} "
            f"attempts; dead-lettered: {error}"
        )
        if route.failure_queue_url is None:
            return
        record = {  # the shape of Lambda's on-failure destination record
            "version": "1.0",
            "timestamp": datetime.now(UTC).isoformat(),
            "requestContext": {
                "condition": "RetriesExhausted",
                "approximateInvokeCount": attempts,
            },
            "requestPayload": event,
            "responsePayload": {"errorMessage": error},
        }
        try:
            sqs.send_message(QueueUrl=route.failure_queue_url, MessageBody=json.dumps(record))
        except Exception as failure:  # the local list still has it
            self.log(f"S3 events: could not forward a dead letter: {failure!r}")

    def _finish(self, sqs: Any, route: _Route, message: Mapping[str, Any]) -> None:
        try:
            sqs.delete_message(QueueUrl=route.queue_url, ReceiptHandle=message["ReceiptHandle"])
        except Exception as error:
            self.log(f"S3 events: could not delete a handled message: {error!r}")

    def _watch(self, watcher: DeleteMarkerWatcher, sqs: Any, queue_url: str) -> None:
        while not self._stopping.wait(self.delete_poll_seconds):
            try:
                events = watcher.poll()
            except Exception as error:
                if not self._stopping.is_set():
                    self.log(f"S3 events: cannot list delete markers: {error!r}")
                continue
            for event in events:
                sqs.send_message(QueueUrl=queue_url, MessageBody=json.dumps(event))

    # -- for callers that wait on delivery ---------------------------------------------------------
    def delivered(self, function_id: str) -> int:
        return sum(route.delivered for route in self._routes if route.function_id == function_id)
