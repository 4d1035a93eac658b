"""Which candidates table an --apply writes to, and the DynamoDB client that reaches it.

`--table` names it; `--local` reads the running `make dev` stack from `.pandora/local.json`;
`--stack-name` derives it the way template.yaml names it. Otherwise the default AWS session is used.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
from pydantic import BaseModel, ConfigDict, ValidationError

from pandora_memory.cli.local_target import LocalTarget, LocalTargetError, load_local_target

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

CANDIDATES_TABLE_ID = "CandidatesTable"
CANDIDATES_TABLE_SUFFIX = "-memory-capture-candidates"


class _LocalTables(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    table_names: dict[str, str] = {}
    stack_name: str = ""


@dataclass(frozen=True)
class Target:
    table: str
    region: str | None = None
    local: LocalTarget | None = None

    def dynamodb(self) -> "DynamoDBClient":
        if self.local is None:
            if self.region:
                return boto3.client("dynamodb", region_name=self.region)
            return boto3.client("dynamodb")
        session = boto3.Session(
            aws_access_key_id=self.local.access_key_id,
            aws_secret_access_key=self.local.secret_access_key,
            region_name=self.region or self.local.region,
        )
        return session.client("dynamodb", endpoint_url=self.local.aws_endpoint)


def resolve_target(
    *,
    table: str | None,
    stack_name: str | None,
    local: bool,
    region: str | None,
    local_config: Path,
) -> Target | None:
    """None when nothing names a table (fine for a dry run). Raises LocalTargetError for --local
    without a running local stack."""
    if not local:
        if table:
            return Target(table=table, region=region)
        if stack_name:
            return Target(table=f"{stack_name}{CANDIDATES_TABLE_SUFFIX}", region=region)
        return None
    described = load_local_target(local_config)
    tables = _local_tables(local_config)
    name = table or tables.table_names.get(CANDIDATES_TABLE_ID)
    stack = stack_name or tables.stack_name
    if not name and stack:
        name = f"{stack}{CANDIDATES_TABLE_SUFFIX}"
    if not name:
        raise LocalTargetError(f"{local_config} names no candidates table: restart `make dev`")
    return Target(table=name, region=region, local=described)


def _local_tables(path: Path) -> _LocalTables:
    try:
        return _LocalTables.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError):
        raise LocalTargetError(f"{path} is not a local stack description: restart `make dev`") from None
