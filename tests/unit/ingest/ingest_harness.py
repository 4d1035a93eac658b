"""Helpers for the ingest tests: the pipeline over the stack provisioned from template.yaml inside moto,
S3 records shaped as S3 sends them, and inspection of every table and object the pipeline wrote."""

import gzip
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

import boto3
import pytest
from pandora_memory.ingest.config import IngestSettings, load_ingest_settings
from pandora_memory.ingest.events import ObjectEvent, parse_record
from pandora_memory.ingest.factory import CLIENT_CONFIG, build_pipeline
from pandora_memory.ingest.outcomes import IngestOutcome
from pandora_memory.ingest.pipeline import IngestPipeline, Redactor
from pandora_memory.ingest.projections import ProjectionPointer, ProjectionRepository
from pandora_memory.ingest.records import RevisionRecord
from pandora_memory.ingest.revisions import RevisionRepository
from pandora_memory.namespaces import Namespace
from pandora_memory.search.index import SearchEntry
from pandora_memory.secrets import redact
from pandora_memory.storage.records import from_item

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from pandora_devstack.provision import ProvisionedStack

INGEST_TABLES = ("DocumentsTable", "RevisionsTable", "ChunksTable", "ProjectionsTable")


@dataclass
class RecordingMetrics:
    documents: list[str] = field(default_factory=list)
    chunk_counts: list[int] = field(default_factory=list)
    rejections: list[str] = field(default_factory=list)
    swaps: int = 0
    failures: list[str] = field(default_factory=list)

    def document(self, change: str) -> None:
        self.documents.append(change)

    def chunks(self, count: int) -> None:
        self.chunk_counts.append(count)

    def rejected(self, reason: str) -> None:
        self.rejections.append(reason)

    def projection_swap(self) -> None:
        self.swaps += 1

    def failure(self, step: str) -> None:
        self.failures.append(step)


class MutableClock:
    """Real time (so stored timestamps keep their order) that a test can move forward."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)


def s3_record(
    event_name: str,
    bucket: str,
    key: str,
    *,
    version_id: str | None = None,
    sequencer: str | None = None,
    size: int | None = None,
    slash_encoded: bool = False,
) -> dict[str, Any]:
    """One record as S3 delivers it: the key form-encoded (moto also encodes '/')."""
    obj: dict[str, Any] = {"key": quote_plus(key, safe="" if slash_encoded else "/")}
    if size is not None:
        obj["size"] = size
    if version_id is not None:
        obj["versionId"] = version_id
    if sequencer is not None:
        obj["sequencer"] = sequencer
    return {
        "eventVersion": "2.1",
        "eventSource": "aws:s3",
        "awsRegion": "us-east-1",
        "eventTime": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
        "eventName": event_name,
        "s3": {
            "s3SchemaVersion": "1.0",
            "configurationId": "MarkdownIngest",
            "bucket": {"name": bucket, "arn": f"arn:aws:s3:::{bucket}"},
            "object": obj,
        },
    }


@dataclass
class IngestHarness:
    stack: "ProvisionedStack"
    settings: IngestSettings
    s3: "S3Client"
    dynamodb: "DynamoDBClient"
    metrics: RecordingMetrics
    clock: MutableClock
    pipeline: IngestPipeline
    # Readers of their own: inspection must not go through anything a test patched on the pipeline.
    revisions: RevisionRepository
    projections: ProjectionRepository

    @property
    def bucket(self) -> str:
        return self.settings.memory_bucket

    # --- driving the pipeline -----------------------------------------------------------------------

    def put(self, path: str, body: bytes | str, namespace: str = "real_life") -> dict[str, Any]:
        """Upload like a user would; returns an S3 created record for it (not yet delivered)."""
        key = f"memory/{namespace}/{path}.md"
        return self.put_key(key, body)

    def put_key(self, key: str, body: bytes | str) -> dict[str, Any]:
        data = body.encode("utf-8") if isinstance(body, str) else body
        response = self.s3.put_object(Bucket=self.bucket, Key=key, Body=data)
        return s3_record(
            "ObjectCreated:Put", self.bucket, key, version_id=response.get("VersionId"), size=len(data)
        )

    def remove(self, path: str, namespace: str = "real_life") -> dict[str, Any]:
        key = f"memory/{namespace}/{path}.md"
        response = self.s3.delete_object(Bucket=self.bucket, Key=key)
        return s3_record(
            "ObjectRemoved:DeleteMarkerCreated", self.bucket, key, version_id=response.get("VersionId")
        )

    def deliver(self, record: dict[str, Any], sequencer: str | None = None) -> IngestOutcome:
        if sequencer is not None:
            record = json.loads(json.dumps(record))
            record["s3"]["object"]["sequencer"] = sequencer
        parsed = parse_record(record)
        assert isinstance(parsed, ObjectEvent)
        return self.pipeline.process(parsed)

    def upload(self, path: str, body: bytes | str, namespace: str = "real_life") -> IngestOutcome:
        return self.deliver(self.put(path, body, namespace))

    def delete(self, path: str, namespace: str = "real_life") -> IngestOutcome:
        return self.deliver(self.remove(path, namespace))

    # --- inspection ---------------------------------------------------------------------------------

    def items(self, logical_id: str) -> list[dict[str, Any]]:
        client = boto3.client("dynamodb")
        table = self.stack.table_names[logical_id]
        request: dict[str, Any] = {"TableName": table}
        items: list[dict[str, Any]] = []
        while True:
            response = client.scan(**request)
            items.extend(from_item(dict(item)) for item in response["Items"])
            if "LastEvaluatedKey" not in response:
                return items
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def raw_items(self) -> list[dict[str, Any]]:
        client = boto3.client("dynamodb")
        items: list[dict[str, Any]] = []
        for logical_id in INGEST_TABLES:
            items.extend(client.scan(TableName=self.stack.table_names[logical_id])["Items"])
        return items

    def document(self, path: str, namespace: str = "real_life") -> dict[str, Any] | None:
        matches = [
            item
            for item in self.items("DocumentsTable")
            if item["namespace"] == namespace and item["logical_path"] == path
        ]
        return matches[0] if matches else None

    def history(self, path: str, namespace: str = "real_life") -> list[RevisionRecord]:
        return self.revisions.history(Namespace(namespace), path)

    def chunk_items(self, path: str, namespace: str = "real_life") -> list[dict[str, Any]]:
        return [
            item
            for item in self.items("ChunksTable")
            if item["namespace"] == namespace and item["logical_path"] == path
        ]

    def pointer(self, namespace: str = "real_life") -> ProjectionPointer:
        return self.projections.pointer(Namespace(namespace), consistent=True)

    def projected_documents(self, namespace: str = "real_life") -> dict[str, str]:
        """Logical path -> content hash of every document the projection shows (from its shards)."""
        shards = self.projections.shards(self.pointer(namespace))
        return {path: digest for shard in shards for path, digest in shard.documents.items()}

    def searchable(self, namespace: str = "real_life") -> list[SearchEntry]:
        """What ordinary search sees: the entries of the snapshot the pointer names."""
        return self.projections.load_entries(self.projections.pointer(Namespace(namespace)).snapshot_key)

    def searchable_text(self, path: str, namespace: str = "real_life") -> str:
        return "\n".join(entry.text for entry in self.searchable(namespace) if entry.logical_path == path)

    def stored_objects(self) -> dict[str, bytes]:
        """Every version of every object outside the users' uploads, decompressed where gzipped."""
        objects: dict[str, bytes] = {}
        paginator = self.s3.get_paginator("list_object_versions")
        for page in paginator.paginate(Bucket=self.bucket):
            for version in page.get("Versions", []):
                key = version["Key"]
                if key.startswith("memory/"):
                    continue
                body = self.s3.get_object(Bucket=self.bucket, Key=key, VersionId=version["VersionId"])[
                    "Body"
                ].read()
                objects[f"{key}@{version['VersionId']}"] = (
                    gzip.decompress(body) if key.endswith(".gz") else body
                )
        return objects


def start_ingest(
    stack: "ProvisionedStack",
    *,
    redactor: Redactor = redact,
    environ: dict[str, str] | None = None,
) -> IngestHarness:
    settings = load_ingest_settings({**stack.env, **(environ or {})})
    s3 = boto3.client("s3", config=CLIENT_CONFIG)
    dynamodb = boto3.client("dynamodb", config=CLIENT_CONFIG)
    metrics = RecordingMetrics()
    clock = MutableClock()
    pipeline = build_pipeline(settings, dynamodb, s3, metrics=metrics, redactor=redactor, clock=clock)
    reader_s3 = boto3.client("s3")
    reader_dynamodb = boto3.client("dynamodb")
    return IngestHarness(
        stack,
        settings,
        s3,
        dynamodb,
        metrics,
        clock,
        pipeline,
        RevisionRepository(reader_dynamodb, reader_s3, settings.revisions_table, settings.memory_bucket),
        ProjectionRepository(reader_dynamodb, reader_s3, settings.projections_table, settings.memory_bucket),
    )


@pytest.fixture(name="ingest")
def ingest_fixture(provisioned_stack: "ProvisionedStack") -> IngestHarness:
    """The pipeline over the tables and bucket provisioned from template.yaml inside moto.

    Imported by the test modules (a conftest.py here would shadow the root one's `import conftest`).
    """
    return start_ingest(provisioned_stack)
