"""DynamoDB attribute values to and from plain values, and the stored timestamps' format.

Apart from the record models (records.py), so the ingest function, which stores no candidate or
memory, converts its items without importing pydantic.
"""

from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

Item = dict[str, Any]


# boto3 loads on the first conversion, not on import: the CLI's `--help` reads these enums only.
@cache
def _serializer() -> "TypeSerializer":
    from boto3.dynamodb.types import TypeSerializer

    return TypeSerializer()


@cache
def _deserializer() -> "TypeDeserializer":
    from boto3.dynamodb.types import TypeDeserializer

    return TypeDeserializer()


def utc_timestamp(now: datetime | None = None) -> str:
    """ISO-8601 UTC with microseconds: sorts lexically in time order (the GSI sort keys)."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def to_item(values: dict[str, Any]) -> Item:
    """Plain values to DynamoDB attribute values; floats become Decimals as DynamoDB requires."""
    cleaned = {
        key: Decimal(str(value)) if isinstance(value, float) else value
        for key, value in values.items()
        if value is not None
    }
    serializer = _serializer()
    return {key: serializer.serialize(value) for key, value in cleaned.items()}


def from_item(item: Item) -> dict[str, Any]:
    deserializer = _deserializer()
    return {key: deserializer.deserialize(value) for key, value in item.items()}
