"""Storage failures the API can answer cleanly: retryable (503) or not (500). No item data inside."""

from botocore.exceptions import BotoCoreError, ClientError

# Codes after which the same request may succeed later; the caller answers 503 with Retry-After.
RETRYABLE_CODES = frozenset(
    {
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionConflictException",
        "TransactionInProgressException",
        "ThrottlingError",
        "ProvisionedThroughputExceeded",
        "TransactionConflict",
    }
)


class StorageError(RuntimeError):
    def __init__(self, operation: str, code: str) -> None:
        super().__init__(f"{operation} failed: {code}")
        self.operation = operation
        self.code = code


class StorageUnavailableError(StorageError):
    """The store refused or timed out; nothing was written by the failed call."""


def storage_error(operation: str, error: ClientError | BotoCoreError) -> StorageError:
    if isinstance(error, BotoCoreError):
        return StorageUnavailableError(operation, type(error).__name__)
    code = str(error.response.get("Error", {}).get("Code", "Unknown"))
    if code in RETRYABLE_CODES:
        return StorageUnavailableError(operation, code)
    return StorageError(operation, code)
