"""The S3 events of the template's functions (`Events: {Type: S3}`), as the local stack must mirror them.

Read from template.yaml itself: bucket, event names, key filter rules, and the asynchronous-invoke
settings that decide retries and where exhausted events go.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pandora_devstack.api_routes import SERVERLESS_FUNCTION
from pandora_devstack.template import Resolver

# Lambda's defaults for asynchronous invocations when EventInvokeConfig says nothing.
DEFAULT_MAX_RETRIES = 2


@dataclass(frozen=True)
class S3Subscription:
    function_id: str
    event_id: str
    bucket: str
    events: tuple[str, ...]  # s3:ObjectCreated:* ...
    rules: tuple[tuple[str, str], ...]  # (prefix|suffix, value)

    @property
    def prefix(self) -> str:
        return next((value for name, value in self.rules if name == "prefix"), "")

    @property
    def suffix(self) -> str:
        return next((value for name, value in self.rules if name == "suffix"), "")

    def matches_key(self, key: str) -> bool:
        return key.startswith(self.prefix) and key.endswith(self.suffix)

    def wants(self, event_name: str) -> bool:
        """`event_name` like `s3:ObjectRemoved:DeleteMarkerCreated`; `s3:ObjectRemoved:*` covers it."""
        family = event_name.rsplit(":", 1)[0]
        return event_name in self.events or f"{family}:*" in self.events

    def notification_filter(self) -> dict[str, Any]:
        rules = [{"Name": name, "Value": value} for name, value in self.rules]
        return {"Key": {"FilterRules": rules}} if rules else {}


@dataclass(frozen=True)
class AsyncInvokeConfig:
    max_attempts: int  # the first try plus MaximumRetryAttempts
    on_failure_queue_arn: str | None = None


def _rules(properties: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    rules = properties.get("Filter", {}).get("S3Key", {}).get("Rules", [])
    return tuple((str(rule["Name"]).lower(), str(rule["Value"])) for rule in rules)


def read_s3_subscriptions(template: Mapping[str, Any], resolver: Resolver) -> list[S3Subscription]:
    subscriptions: list[S3Subscription] = []
    for function_id, resource in template["Resources"].items():
        if resource.get("Type") != SERVERLESS_FUNCTION:
            continue
        for event_id, event in resource.get("Properties", {}).get("Events", {}).items():
            if event.get("Type") != "S3":
                continue
            properties = resolver.resolve(event.get("Properties", {}))
            events = properties["Events"]
            subscriptions.append(
                S3Subscription(
                    function_id=function_id,
                    event_id=event_id,
                    bucket=str(properties["Bucket"]),
                    events=tuple([events] if isinstance(events, str) else events),
                    rules=_rules(properties),
                )
            )
    return subscriptions


def async_invoke_config(
    template: Mapping[str, Any], resolver: Resolver, function_id: str
) -> AsyncInvokeConfig:
    defaults = template.get("Globals", {}).get("Function", {}).get("EventInvokeConfig", {})
    own = template["Resources"][function_id].get("Properties", {}).get("EventInvokeConfig", {})
    config = resolver.resolve({**defaults, **own})
    retries = int(config.get("MaximumRetryAttempts", DEFAULT_MAX_RETRIES))
    on_failure = config.get("DestinationConfig", {}).get("OnFailure", {})
    queue_arn = str(on_failure["Destination"]) if on_failure.get("Type") == "SQS" else None
    return AsyncInvokeConfig(max_attempts=retries + 1, on_failure_queue_arn=queue_arn)
