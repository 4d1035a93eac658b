"""Permanent memory: the newest items of a namespace, read with one Query on the ByRecency index."""

from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import ValidationError

from pandora_memory.namespaces import Namespace
from pandora_memory.storage.errors import storage_error
from pandora_memory.storage.records import MemoryRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

BY_RECENCY_INDEX = "ByRecency"


class MemoryRepository:
    def __init__(self, client: "DynamoDBClient", table_name: str) -> None:
        self._client = client
        self._table = table_name

    def newest(self, namespace: Namespace, limit: int) -> list[MemoryRecord]:
        """Up to `limit` memories of one namespace, newest first. Exactly one DynamoDB call."""
        try:
            response = self._client.query(
                TableName=self._table,
                IndexName=BY_RECENCY_INDEX,
                KeyConditionExpression="#ns = :ns",
                ExpressionAttributeNames={"#ns": "namespace"},
                ExpressionAttributeValues={":ns": {"S": namespace.value}},
                ScanIndexForward=False,
                Limit=limit,
            )
        except (ClientError, BotoCoreError) as error:
            raise storage_error("memory query", error) from None
        records: list[MemoryRecord] = []
        for item in response.get("Items", []):
            try:
                record = MemoryRecord.from_item(dict(item))
            except ValidationError:
                continue  # an item another writer shaped differently is left out, not fatal
            if record.namespace is namespace:
                records.append(record)
        return records
