"""Everything a local stack holds, as text: every DynamoDB item of every table, every S3 object version,
every queued message and every SSM parameter. Compressed bodies are opened, binary attributes decoded.
"""

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer

_DESERIALIZER = TypeDeserializer()


@dataclass(frozen=True)
class StoredText:
    where: str  # e.g. "dynamodb:<table>" or "s3:<key>#<version>"
    text: str
    namespace_key: str | None = None  # the item's partition key value, for DynamoDB items
    item: dict[str, Any] | None = None


def as_text(payload: bytes) -> str:
    """Bytes as their text: gzip and zlib bodies are opened first, anything else decoded leniently."""
    for opener in (gzip.decompress, zlib.decompress):
        try:
            payload = opener(payload)
            break
        except (OSError, zlib.error, EOFError):
            continue
    return payload.decode("utf-8", errors="replace")


def _plain(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return as_text(bytes(value))
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, list | set | tuple):
        return [_plain(inner) for inner in value]
    return value


def _item_json(item: dict[str, Any]) -> dict[str, Any]:
    decoded = {key: _DESERIALIZER.deserialize(value) for key, value in item.items()}
    plain: dict[str, Any] = _plain(decoded)
    return plain


def dynamodb_items(session: boto3.Session, endpoint: str) -> Iterator[tuple[str, StoredText]]:
    client = session.client("dynamodb", endpoint_url=endpoint)
    for table in client.list_tables()["TableNames"]:
        partition_key = next(
            key["AttributeName"]
            for key in client.describe_table(TableName=table)["Table"]["KeySchema"]
            if key["KeyType"] == "HASH"
        )
        for page in client.get_paginator("scan").paginate(TableName=table, ConsistentRead=True):
            for raw in page["Items"]:
                item = _item_json(dict(raw))
                yield (
                    table,
                    StoredText(
                        where=f"dynamodb:{table}",
                        text=json.dumps(item, default=str, ensure_ascii=False),
                        namespace_key=str(item.get(partition_key)),
                        item=item,
                    ),
                )


def s3_objects(session: boto3.Session, endpoint: str, bucket: str) -> Iterator[StoredText]:
    """Every version of every object (delete markers have no body)."""
    client = session.client("s3", endpoint_url=endpoint)
    for page in client.get_paginator("list_object_versions").paginate(Bucket=bucket):
        for version in page.get("Versions", []):
            key, version_id = version["Key"], version["VersionId"]
            body = client.get_object(Bucket=bucket, Key=key, VersionId=version_id)["Body"].read()
            yield StoredText(where=f"s3:{key}#{version_id}", text=key + "\n" + as_text(body))


def queued_messages(session: boto3.Session, endpoint: str) -> Iterator[StoredText]:
    client = session.client("sqs", endpoint_url=endpoint)
    for url in client.list_queues().get("QueueUrls", []):
        seen: set[str] = set()
        while True:
            messages = client.receive_message(
                QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=30, WaitTimeSeconds=0
            ).get("Messages", [])
            fresh = [message for message in messages if message["MessageId"] not in seen]
            if not fresh:
                break
            for message in fresh:
                seen.add(message["MessageId"])
                yield StoredText(where=f"sqs:{url.rsplit('/', 1)[-1]}", text=message["Body"])


def ssm_parameters(session: boto3.Session, endpoint: str) -> Iterator[StoredText]:
    client = session.client("ssm", endpoint_url=endpoint)
    paginator = client.get_paginator("get_parameters_by_path")
    for page in paginator.paginate(Path="/", Recursive=True, WithDecryption=True):
        for parameter in page["Parameters"]:
            yield StoredText(where=f"ssm:{parameter['Name']}", text=parameter["Value"])
