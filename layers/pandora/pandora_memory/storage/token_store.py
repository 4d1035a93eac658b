"""Bearer-token records in SSM Parameter Store: one SecureString per token under TOKENS_PATH.

CloudFormation cannot create SecureStrings, so the CLI writes them; the authorizer reads one
parameter per request through Powertools' cache.
"""

import json
from typing import TYPE_CHECKING

from aws_lambda_powertools.utilities.parameters import SSMProvider
from aws_lambda_powertools.utilities.parameters.exceptions import GetParameterError
from botocore.exceptions import ClientError

from pandora_memory.tokens import TokenRecord

if TYPE_CHECKING:
    from mypy_boto3_ssm import SSMClient

# A revoked token keeps working in a warm authorizer for at most this long (plus API Gateway's cache).
TOKEN_CACHE_SECONDS = 60
PARAMETER_DESCRIPTION = "Pandora Memory bearer token: SHA-256 of the secret and namespace scope"


class TokenAlreadyExistsError(RuntimeError):
    pass


class UnknownTokenError(LookupError):
    pass


def _is_not_found(error: BaseException | None) -> bool:
    return isinstance(error, ClientError) and error.response.get("Error", {}).get("Code") == (
        "ParameterNotFound"
    )


class TokenStore:
    def __init__(self, ssm: "SSMClient", tokens_path: str) -> None:
        if not tokens_path.startswith("/"):
            raise ValueError("tokens_path must be an absolute SSM path such as /pandora/dev/tokens")
        self._ssm = ssm
        self._path = tokens_path.rstrip("/")
        self._provider = SSMProvider(boto3_client=ssm)

    def parameter_name(self, token_id: str) -> str:
        return f"{self._path}/{token_id}"

    def put(self, record: TokenRecord) -> None:
        try:
            self._ssm.put_parameter(
                Name=self.parameter_name(record.token_id),
                Description=PARAMETER_DESCRIPTION,
                Value=record.stored_value(),
                Type="SecureString",
                Overwrite=False,
            )
        except self._ssm.exceptions.ParameterAlreadyExists:
            raise TokenAlreadyExistsError(f"token {record.token_id} already exists") from None

    def get(self, token_id: str) -> TokenRecord | None:
        try:
            value = self._provider.get(
                self.parameter_name(token_id), max_age=TOKEN_CACHE_SECONDS, decrypt=True
            )
        except GetParameterError as error:
            # Powertools re-raises inside its `except`, so the SDK error is the implicit context.
            if _is_not_found(error.__context__):
                return None
            raise
        if not isinstance(value, str):
            raise TypeError(f"token parameter {token_id} is not a string")
        return self._record(token_id, value)

    def list(self) -> list[TokenRecord]:
        records: list[TokenRecord] = []
        paginator = self._ssm.get_paginator("get_parameters_by_path")
        for page in paginator.paginate(Path=self._path, Recursive=False, WithDecryption=True):
            for parameter in page.get("Parameters", []):
                token_id = parameter["Name"].rsplit("/", 1)[-1]
                records.append(self._record(token_id, parameter["Value"]))
        return sorted(records, key=lambda record: record.created_at)

    def revoke(self, token_id: str) -> None:
        try:
            self._ssm.delete_parameter(Name=self.parameter_name(token_id))
        except self._ssm.exceptions.ParameterNotFound:
            raise UnknownTokenError(f"no token {token_id}") from None
        finally:
            self._provider.clear_cache()

    @staticmethod
    def _record(token_id: str, stored_value: str) -> TokenRecord:
        document = json.loads(stored_value)
        if not isinstance(document, dict):
            raise TypeError(f"token parameter {token_id} is not a JSON object")
        return TokenRecord.from_document({**document, "token_id": token_id})
