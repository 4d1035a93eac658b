"""What a running local stack tells its user: printed once at start, and written to
`.pandora/local.json` for the CLI's `--local` and for scripts. The file holds local-only credentials,
so it is readable by its owner alone and removed when the stack stops.
"""

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LOCAL_JSON = "local.json"


@dataclass(frozen=True)
class LocalStackInfo:
    api_url: str
    tokens: dict[str, str]
    aws_endpoint: str
    s3_endpoint: str
    bucket: str
    table_names: dict[str, str]
    region: str
    access_key_id: str
    secret_access_key: str
    stage: str
    stack_name: str
    tokens_path: str
    flags_path: str
    routes: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        document = asdict(self)
        document["routes"] = list(self.routes)
        return document

    def banner(self) -> str:
        lines = [f"Pandora local API ready at {self.api_url}"]
        lines += [f"  route: {route}" for route in self.routes]
        lines += [f"  bearer token ({namespace}): {token}" for namespace, token in self.tokens.items()]
        lines += [
            f"  S3 endpoint: {self.s3_endpoint}  bucket: {self.bucket}",
            f"  AWS endpoint (DynamoDB, SSM, S3, SQS): {self.aws_endpoint}  region: {self.region}",
            f"  tables: {', '.join(f'{k}={v}' for k, v in self.table_names.items())}",
            "  IAM-signed calls (SigV4, service execute-api, region "
            f"{self.region}): AWS_ACCESS_KEY_ID={self.access_key_id} "
            f"AWS_SECRET_ACCESS_KEY={self.secret_access_key}",
        ]
        return "\n".join(lines)


def write_local_json(info: LocalStackInfo, state_dir: Path) -> Path:
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / LOCAL_JSON
    # Created with owner-only permissions before any secret is written into it.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        json.dump(info.as_json(), stream, indent=2)
        stream.write("\n")
    path.chmod(0o600)
    return path


def remove_local_json(info: LocalStackInfo, state_dir: Path) -> None:
    """Removes the file only if it still describes this stack (another may have started since)."""
    path = state_dir / LOCAL_JSON
    try:
        current = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return
    if current.get("api_url") == info.api_url and current.get("aws_endpoint") == info.aws_endpoint:
        path.unlink(missing_ok=True)
