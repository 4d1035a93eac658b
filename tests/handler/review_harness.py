"""Helpers for the review tests: the handler loaded from its file, IAM-signed sample events from
events/, candidates seeded the way the adaptive turn writes them, and table inspection."""

import copy
import importlib.util
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import boto3
from pandora_devstack.lambda_runtime import LambdaContext
from pandora_memory.hashing import content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.review.settings import get_review_settings
from pandora_memory.storage.records import CandidateRecord, InboxStatus, from_item, utc_timestamp

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from pandora_devstack.provision import ProvisionedStack

REPO = Path(__file__).resolve().parents[2]
REVIEW_APP = REPO / "functions" / "candidate_review" / "app.py"
EVENTS = REPO / "events"
MODULE_NAME = "candidate_review_app_under_test"
REVIEWER_ARN = "arn:aws:iam::123456789012:user/pandora-reviewer"


def load_event(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"candidate_review_{name}.json").read_text(encoding="utf-8"))
    return event


def review_event(
    method: str,
    path: str,
    body: dict[str, Any] | str | None = None,
    query: dict[str, str] | None = None,
    iam: bool = True,
) -> dict[str, Any]:
    """A sample event re-aimed at this route; `iam=False` strips the IAM caller (a bearer-style call)."""
    event = copy.deepcopy(load_event("approve" if body is not None else "get"))
    event["httpMethod"] = method
    event["path"] = path
    event["requestContext"]["httpMethod"] = method
    event["requestContext"]["path"] = f"/dev{path}"
    event["body"] = body if isinstance(body, str) or body is None else json.dumps(body)
    event["queryStringParameters"] = query
    event["multiValueQueryStringParameters"] = {k: [v] for k, v in query.items()} if query else None
    if not iam:
        identity = event["requestContext"]["identity"]
        for name in ("userArn", "accessKey", "caller", "user", "accountId"):
            identity[name] = None
        event["requestContext"]["authorizer"] = {"principalId": "k7f2m9q4x1za", "namespaces": "real_life,au"}
    return event


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    raw: str


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@dataclass
class ReviewHarness:
    app: ModuleType
    stack: "ProvisionedStack"
    log: _Lines
    client: "DynamoDBClient" = field(default_factory=lambda: boto3.client("dynamodb"))

    def invoke(self, event: dict[str, Any]) -> Reply:
        context = LambdaContext(
            function_name="pandora-test-CandidateReviewFunction",
            invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:pandora-test-CandidateReviewFunction",
            memory_limit_in_mb=512,
            aws_request_id="5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
            timeout_s=10,
        )
        result: dict[str, Any] = self.app.lambda_handler(event, context)
        raw = str(result.get("body") or "")
        return Reply(result["statusCode"], json.loads(raw) if raw else {}, raw)

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | str | None = None,
        query: dict[str, str] | None = None,
        iam: bool = True,
    ) -> Reply:
        return self.invoke(review_event(method, path, body, query, iam))

    def approve(self, candidate_id: str, **body: Any) -> Reply:
        return self.call("POST", f"/api/memory/candidates/{quote(candidate_id)}/approve", body or None)

    def reject(self, candidate_id: str, **body: Any) -> Reply:
        return self.call("POST", f"/api/memory/candidates/{quote(candidate_id)}/reject", body or None)

    def seed(self, summary: str, **fields: Any) -> CandidateRecord:
        return seed_candidate(self.client, self.stack.table_names["CandidatesTable"], summary, **fields)

    def items(self, logical_id: str) -> list[dict[str, Any]]:
        paginator = self.client.get_paginator("scan")
        pages = paginator.paginate(TableName=self.stack.table_names[logical_id])
        return [from_item(dict(item)) for page in pages for item in page.get("Items", [])]

    def candidate(self, candidate_id: str) -> dict[str, Any]:
        namespace, hash_hex = candidate_id.split(".", 1)
        item = self.client.get_item(
            TableName=self.stack.table_names["CandidatesTable"],
            Key={"namespace": {"S": namespace}, "content_hash": {"S": hash_hex}},
        )["Item"]
        return from_item(dict(item))

    def everything_stored(self) -> str:
        """Every item of every table as text: what a secret scan must come back empty on."""
        return json.dumps(
            {logical_id: self.items(logical_id) for logical_id in self.stack.table_names}, default=str
        )


def seed_candidate(
    client: "DynamoDBClient",
    table: str,
    summary: str,
    *,
    namespace: str = "real_life",
    memory_type: str = "preference",
    sensitivity: str = "low",
    status: InboxStatus = InboxStatus.PENDING_REVIEW,
    rules: tuple[str, ...] = ("candidate.preference.standing",),
    cues: tuple[str, ...] = ("always",),
    preview: str | None = None,
    created_at: str | None = None,
    secret_kinds: tuple[str, ...] = (),
) -> CandidateRecord:
    """A candidate as the adaptive turn stores it (its own record type), plus the message preview."""
    ns = Namespace(namespace)
    record = CandidateRecord(
        namespace=ns,
        content_hash=content_hash(ns, memory_type, summary),
        created_at=created_at or utc_timestamp(),
        memory_type=MemoryType(memory_type),
        sensitivity=Sensitivity(sensitivity),
        summary=summary,
        policy_version="2026.11.29-1",
        status=status,
        confidence=0.82,
        requires_review=sensitivity in ("high", "private") or status is InboxStatus.BLOCKED_SECRET,
        reason=f"rule {rules[0] if rules else 'none'} fired",
        rules=list(rules),
        cues=list(cues),
        secret_kinds=list(secret_kinds),
    )
    item = record.to_item()
    item["user_message_preview"] = {"S": preview if preview is not None else f"user said: {summary}"}
    client.put_item(TableName=table, Item=item)
    return record


def _load_app(module_name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, REVIEW_APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def start_review_harness(
    stack: "ProvisionedStack", module_name: str = MODULE_NAME, fresh_session: bool = True
) -> ReviewHarness:
    """A cold container: fresh settings and clients, its log lines captured. Several containers can
    run side by side under different module names (sharing the default session when not fresh)."""
    get_review_settings.cache_clear()
    if fresh_session:
        boto3.setup_default_session()
    module = _load_app(module_name)
    lines = _Lines()
    lines.setFormatter(module.logger.registered_formatter)
    logging.getLogger(module.logger.name).addHandler(lines)
    return ReviewHarness(module, stack, lines)


def stop_review_harness(harness: ReviewHarness) -> None:
    logging.getLogger(harness.app.logger.name).removeHandler(harness.log)
    harness.app.review_service.cache_clear()
    get_review_settings.cache_clear()
    boto3.DEFAULT_SESSION = None
    sys.modules.pop(harness.app.__name__, None)
