"""The candidate inbox. A write either creates the item or reports the one already there, atomically."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from botocore.exceptions import BotoCoreError, ClientError

from pandora_memory.storage.errors import storage_error
from pandora_memory.storage.records import CandidateRecord, Item, MemoryRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

NOT_YET_STORED = "attribute_not_exists(content_hash)"


@dataclass(frozen=True)
class WriteResult:
    """`existing` is the item that made the write a duplicate; None when the write happened."""

    existing: CandidateRecord | MemoryRecord | None = None

    @property
    def created(self) -> bool:
        return self.existing is None


class CandidateRepository:
    def __init__(self, client: "DynamoDBClient", table_name: str) -> None:
        self._client = client
        self._table = table_name

    def add(self, record: CandidateRecord) -> WriteResult:
        """Insert unless the same content is already in the inbox (one conditional write, no read)."""
        try:
            self._client.put_item(
                TableName=self._table,
                Item=record.to_item(),
                ConditionExpression=NOT_YET_STORED,
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                old = cast("Item | None", error.response.get("Item"))
                return WriteResult(existing=CandidateRecord.from_item(old) if old else record)
            raise storage_error("candidate write", error) from None
        except BotoCoreError as error:
            raise storage_error("candidate write", error) from None
        return WriteResult()
