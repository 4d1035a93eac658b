"""AWS clients for the CLI: the default boto3 session, or the running local stack with `--local`.

The local stack writes its endpoint and credentials to `.pandora/local.json` when it starts.
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

if TYPE_CHECKING:
    from mypy_boto3_ssm import SSMClient

LOCAL_CONFIG_PATH = Path(".pandora") / "local.json"


class LocalTargetError(RuntimeError):
    pass


class LocalTarget(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    aws_endpoint: str
    region: str
    access_key_id: str
    secret_access_key: str


def load_local_target(path: Path = LOCAL_CONFIG_PATH) -> LocalTarget:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LocalTargetError(f"no local stack found ({path} is missing): run `make dev`") from None
    try:
        return LocalTarget.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError):
        raise LocalTargetError(f"{path} is not a local stack description: restart `make dev`") from None


def ssm_client(local: bool, config_path: Path = LOCAL_CONFIG_PATH) -> "SSMClient":
    import boto3  # here, not at the top: `pandora-memory --help` should not pay for it

    if not local:
        return boto3.client("ssm")
    target = load_local_target(config_path)
    session = boto3.Session(
        aws_access_key_id=target.access_key_id,
        aws_secret_access_key=target.secret_access_key,
        region_name=target.region,
    )
    return session.client("ssm", endpoint_url=target.aws_endpoint)
