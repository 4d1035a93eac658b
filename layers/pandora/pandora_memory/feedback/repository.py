"""FeedbackEventsTable access: events are written inside the review transactions and read by window."""

from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import ValidationError

from pandora_memory.feedback.events import FeedbackEvent
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.errors import storage_error

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

# A person reviews a few candidates a day; this bounds a runaway read, not a normal one.
MAX_EVENTS_READ = 20_000


class FeedbackRepository:
    def __init__(self, client: "DynamoDBClient", table_name: str) -> None:
        self._client = client
        self._table = table_name

    def put_request(self, event: FeedbackEvent) -> "TransactWriteItemTypeDef":
        """The event as one item of a review transaction (an event is never overwritten)."""
        return {
            "Put": {
                "TableName": self._table,
                "Item": event.to_item(),
                "ConditionExpression": "attribute_not_exists(event_key)",
            }
        }

    def events(self, namespace: Namespace, since: str | None = None) -> list[FeedbackEvent]:
        """Events of one namespace, oldest first; `since` is an ISO-8601 UTC timestamp (inclusive)."""
        request: dict[str, Any] = {
            "TableName": self._table,
            "ExpressionAttributeNames": {"#ns": "namespace"},
            "ExpressionAttributeValues": {":ns": {"S": namespace.value}},
            "KeyConditionExpression": "#ns = :ns",
        }
        if since:
            request["KeyConditionExpression"] = "#ns = :ns AND event_key >= :since"
            request["ExpressionAttributeValues"][":since"] = {"S": since}
        events: list[FeedbackEvent] = []
        try:
            for page in self._client.get_paginator("query").paginate(**request):
                for item in page.get("Items", []):
                    try:
                        events.append(FeedbackEvent.from_item(dict(item)))
                    except ValidationError:
                        continue  # an event another version shaped differently is skipped, not fatal
                if len(events) >= MAX_EVENTS_READ:
                    break
        except (ClientError, BotoCoreError) as error:
            raise storage_error("feedback query", error) from None
        return events[:MAX_EVENTS_READ]
