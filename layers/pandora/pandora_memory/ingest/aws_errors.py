"""Naming AWS failures by their code only: codes are safe to store and log, messages may not be."""

from botocore.exceptions import ClientError

CONDITION_FAILED = "ConditionalCheckFailedException"


def error_code(error: BaseException) -> str:
    if isinstance(error, ClientError):
        return str(error.response.get("Error", {}).get("Code", "ClientError"))
    return type(error).__name__


def is_condition_failure(error: BaseException) -> bool:
    return isinstance(error, ClientError) and error_code(error) == CONDITION_FAILED
