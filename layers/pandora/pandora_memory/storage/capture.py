"""Auto-capture: the memory and its candidate record are written together or not at all.

When the projections table is given, the same transaction bumps the namespace's `memory_generation`
(as review approval does), so the warm search index reloads its memories on the very next read.
"""

from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from pandora_memory.storage.candidates import NOT_YET_STORED, WriteResult
from pandora_memory.storage.errors import (
    RETRYABLE_CODES,
    StorageError,
    StorageUnavailableError,
    storage_error,
)
from pandora_memory.storage.records import CandidateRecord, MemoryRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef


class AutoCaptureWriter:
    def __init__(
        self,
        client: "DynamoDBClient",
        memory_table: str,
        candidates_table: str,
        projections_table: str | None = None,
    ) -> None:
        self._client = client
        self._memory_table = memory_table
        self._candidates_table = candidates_table
        self._projections_table = projections_table

    def capture(self, memory: MemoryRecord, candidate: CandidateRecord) -> WriteResult:
        """One transaction: both puts are conditional, so a repeat writes nothing and names the original."""
        items: list[TransactWriteItemTypeDef] = [
            {
                "Put": {
                    "TableName": self._candidates_table,
                    "Item": candidate.to_item(),
                    "ConditionExpression": NOT_YET_STORED,
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            },
            {
                "Put": {
                    "TableName": self._memory_table,
                    "Item": memory.to_item(),
                    "ConditionExpression": NOT_YET_STORED,
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            },
        ]
        if self._projections_table:
            items.append(
                {
                    "Update": {
                        "TableName": self._projections_table,
                        "Key": {"namespace": {"S": memory.namespace.value}},
                        "UpdateExpression": "ADD memory_generation :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}},
                    }
                }
            )
        try:
            self._client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "TransactionCanceledException":
                raise storage_error("auto-capture", error) from None
            return _duplicate_or_raise(error.response, candidate)
        except BotoCoreError as error:
            raise storage_error("auto-capture", error) from None
        return WriteResult()


def _duplicate_or_raise(response: Any, candidate: CandidateRecord) -> WriteResult:
    reasons: list[dict[str, Any]] = list(response.get("CancellationReasons") or [])
    codes = [str(reason.get("Code", "None")) for reason in reasons]
    if "ConditionalCheckFailed" not in codes:
        failing = next((code for code in codes if code != "None"), "TransactionCanceled")
        error_type = StorageUnavailableError if failing in RETRYABLE_CODES else StorageError
        raise error_type("auto-capture", failing)
    candidate_reason = reasons[0] if reasons else {}
    memory_reason = reasons[1] if len(reasons) > 1 else {}
    if candidate_reason.get("Item"):
        return WriteResult(existing=CandidateRecord.from_item(candidate_reason["Item"]))
    if memory_reason.get("Item"):
        return WriteResult(existing=MemoryRecord.from_item(memory_reason["Item"]))
    return WriteResult(existing=candidate)
