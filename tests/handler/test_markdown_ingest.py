"""The Markdown ingest handler with real-shaped S3 events, over the stack provisioned from template.yaml."""

import copy
import importlib.util
import json
import logging
import random
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.awsrequest import AWSResponse
from pandora_devstack.lambda_runtime import LambdaContext
from pandora_memory.ingest.outcomes import IngestStepError
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.records import from_item

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

REPO = Path(__file__).resolve().parents[2]
INGEST_APP = REPO / "functions" / "markdown_ingest" / "app.py"
EVENTS = REPO / "events"
MODULE_NAME = "markdown_ingest_app_under_test"
KEY = "memory/real_life/projects/pandora notes.md"
NOTES = "# Pandora notes\n\n## Ingest\n\nUploads become revisions and a search projection.\n"

_RNG = random.Random(99)
FAKE_TOKEN = "ghp_" + "".join(_RNG.choice(string.ascii_letters + string.digits) for _ in range(36))


def load_event(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"markdown_ingest_{name}.json").read_text(encoding="utf-8"))
    return event


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@dataclass
class IngestFunction:
    app: ModuleType
    stack: "ProvisionedStack"
    log: _Lines

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        context = LambdaContext(
            function_name="pandora-test-MarkdownIngestFunction",
            invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:pandora-test-MarkdownIngestFunction",
            memory_limit_in_mb=1024,
            aws_request_id="5b0e4c8a-3f1d-4a2b-9c7e-6d5f4e3a2b1c",
            timeout_s=60,
        )
        result: dict[str, Any] = self.app.lambda_handler(event, context)
        return result

    def put(self, key: str, body: str) -> str:
        response = boto3.client("s3").put_object(Bucket=self.stack.bucket, Key=key, Body=body.encode())
        return str(response["VersionId"])

    def delete(self, key: str) -> str:
        return str(boto3.client("s3").delete_object(Bucket=self.stack.bucket, Key=key)["VersionId"])

    def document(self, path: str) -> dict[str, Any] | None:
        item = (
            boto3.client("dynamodb")
            .get_item(
                TableName=self.stack.table_names["DocumentsTable"],
                Key={"namespace": {"S": "real_life"}, "logical_path": {"S": path}},
            )
            .get("Item")
        )
        return from_item(dict(item)) if item else None

    def searchable_paths(self) -> set[str]:
        projections = ProjectionRepository(
            boto3.client("dynamodb"),
            boto3.client("s3"),
            self.stack.table_names["ProjectionsTable"],
            self.stack.bucket,
        )
        pointer = projections.pointer(Namespace.REAL_LIFE)
        return {entry.logical_path for entry in projections.load_entries(pointer.snapshot_key)}


def sample(
    name: str, version_id: str | None, sequencer: str | None = None, key: str | None = None
) -> dict[str, Any]:
    event = copy.deepcopy(load_event(name))
    obj = event["Records"][0]["s3"]["object"]
    if version_id is None:
        obj.pop("versionId")
    else:
        obj["versionId"] = version_id
    if sequencer is not None:
        obj["sequencer"] = sequencer
    if key is not None:
        obj["key"] = key
    return event


def emf(printed: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in printed.splitlines() if line.startswith("{") and '"_aws"' in line]


@pytest.fixture
def function(provisioned_stack: "ProvisionedStack") -> Iterator[IngestFunction]:
    """A cold container: the handler module loaded fresh, its log lines captured."""
    boto3.setup_default_session()
    spec = importlib.util.spec_from_file_location(MODULE_NAME, INGEST_APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    lines = _Lines()
    lines.setFormatter(module.logger.registered_formatter)
    logging.getLogger(module.logger.name).addHandler(lines)
    yield IngestFunction(module, provisioned_stack, lines)
    logging.getLogger(module.logger.name).removeHandler(lines)
    module.pipeline.cache_clear()
    boto3.DEFAULT_SESSION = None
    sys.modules.pop(MODULE_NAME, None)


def test_the_sample_created_event_ingests_the_url_encoded_key(function: IngestFunction) -> None:
    version = function.put(KEY, NOTES)

    result = function.invoke(sample("created", version))

    [outcome] = result["outcomes"]
    assert outcome["outcome"] == "ingested"
    assert outcome["change_kind"] == "create"
    assert outcome["logical_path"] == "projects/pandora notes"
    document = function.document("projects/pandora notes")
    assert document is not None and document["projection_status"] == "active"
    assert document["sequencer"].endswith("0065E1C8A7B3D2F104")
    assert function.searchable_paths() == {"projects/pandora notes"}


def test_the_sample_removed_event_takes_the_document_out_of_search(function: IngestFunction) -> None:
    function.invoke(sample("created", function.put(KEY, NOTES)))

    result = function.invoke(sample("removed", function.delete(KEY)))

    assert result["outcomes"][0]["change_kind"] == "delete"
    assert function.searchable_paths() == set()


def test_notifications_as_moto_delivers_them_through_sqs(function: IngestFunction) -> None:
    sqs = boto3.client("sqs")
    queue_url = sqs.create_queue(QueueName="ingest-notifications")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    boto3.client("s3").put_bucket_notification_configuration(
        Bucket=function.stack.bucket,
        NotificationConfiguration={
            "QueueConfigurations": [
                {
                    "QueueArn": queue_arn,
                    "Events": ["s3:ObjectCreated:*"],
                    "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "memory/"}]}},
                }
            ]
        },
    )
    function.put(KEY, NOTES)
    messages = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)["Messages"]
    assert any("%2F" in message["Body"] for message in messages)  # keys arrive encoded, slashes too
    event = {"Records": [{"eventSource": "aws:sqs", "body": message["Body"]} for message in messages]}

    result = function.invoke(event)

    assert [outcome["outcome"] for outcome in result["outcomes"]] == ["skipped", "ingested"]
    assert result["outcomes"][0]["reason"] == "test_event"
    assert function.searchable_paths() == {"projects/pandora notes"}


def test_a_rejection_is_logged_and_counted_without_raising(
    function: IngestFunction, capsys: pytest.CaptureFixture[str]
) -> None:
    event = sample("created", None, key="memory/work/plan.md")

    result = function.invoke(event)

    assert result["outcomes"][0] == {
        "outcome": "rejected",
        "reason": "unknown_namespace",
        "chunk_count": 0,
        "redaction_count": 0,
        "key_preview": "memory/work/plan.md",
    }
    assert any('"reason":"unknown_namespace"' in line for line in function.log.lines)
    [metric] = [doc for doc in emf(capsys.readouterr().out) if "IngestRejected" in doc]
    assert metric["reason"] == "unknown_namespace"
    assert metric["_aws"]["CloudWatchMetrics"][0]["Dimensions"] == [["service", "reason"]]


def test_a_failed_step_raises_after_flagging_the_document_and_a_retry_completes(
    function: IngestFunction, capsys: pytest.CaptureFixture[str]
) -> None:
    faulty = [True]

    def refuse_snapshot(
        model: Any, params: dict[str, Any], **_: Any
    ) -> tuple[AWSResponse, dict[str, Any]] | None:
        # `params` is the serialised request here: the object key is in its URL path.
        if not (faulty[0] and "/projections/" in str(params.get("url_path", ""))):
            return None
        parsed = {
            "Error": {"Code": "AccessDenied", "Message": "injected"},
            "ResponseMetadata": {"HTTPStatusCode": 403},
        }
        headers: Any = {}
        return AWSResponse("https://fault.invalid", 403, headers, None), parsed

    assert boto3.DEFAULT_SESSION is not None
    hooks: Any = boto3.DEFAULT_SESSION.events
    hooks.register("before-call.s3.PutObject", refuse_snapshot)
    event = sample("created", function.put(KEY, NOTES))

    with pytest.raises(IngestStepError, match="snapshot_write: AccessDenied"):
        function.invoke(event)

    document = function.document("projects/pandora notes")
    assert document is not None
    assert (document["projection_status"], document["projection_error"]) == (
        "pending",
        "snapshot_write: AccessDenied",
    )
    assert function.searchable_paths() == set()
    assert any('"step":"snapshot_write"' in line for line in function.log.lines)
    [failure] = [doc for doc in emf(capsys.readouterr().out) if "IngestFailures" in doc]
    assert failure["step"] == "snapshot_write"

    faulty[0] = False
    assert function.invoke(event)["outcomes"][0]["outcome"] == "ingested"
    assert function.searchable_paths() == {"projects/pandora notes"}


def test_metrics_of_an_ingest(function: IngestFunction, capsys: pytest.CaptureFixture[str]) -> None:
    function.invoke(sample("created", function.put(KEY, NOTES)))

    documents = emf(capsys.readouterr().out)
    names = {metric["Name"] for doc in documents for metric in doc["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    assert names == {"IngestDocuments", "IngestChunks", "ProjectionSwaps"}
    [ingested] = [doc for doc in documents if "IngestDocuments" in doc]
    assert (ingested["change"], ingested["IngestDocuments"]) == ("create", [1.0])


def test_no_secret_reaches_a_log_line_or_a_metric(
    function: IngestFunction, capsys: pytest.CaptureFixture[str]
) -> None:
    body = NOTES + f"\nexport GITHUB_TOKEN={FAKE_TOKEN}\n"
    function.invoke(sample("created", function.put(KEY, body)))
    function.invoke(sample("created", None, key=f"memory/real_life/tokens/{FAKE_TOKEN}.md"))
    function.invoke(sample("removed", function.delete(KEY)))

    printed = capsys.readouterr()
    assert function.log.lines
    for text in (*function.log.lines, printed.out, printed.err):
        assert FAKE_TOKEN not in text
