"""What template.yaml promises about stored data, checked offline on every `make test`.

checkov (`make security`) also checks point-in-time recovery and the bucket's public access block;
it does not check encryption without a customer-managed key, the bucket policy's TLS-only rule,
SQS-managed encryption, or that each function logs to a declared log group with a retention (a
function without one logs to a group Lambda creates that never expires). Those are checked here.
"""

import copy
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from pandora_devstack.template import load_template

PUBLIC_ACCESS_BLOCK = ("BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets")


def _of_type(template: Mapping[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in template["Resources"].items() if r.get("Type") == kind}


def _names(reference: Any) -> set[str]:
    """Logical ids a property refers to (Ref, GetAtt, or ${Name...} inside a Sub)."""
    if isinstance(reference, Mapping):
        if "Ref" in reference:
            return {str(reference["Ref"])}
        if "Fn::GetAtt" in reference:
            target = reference["Fn::GetAtt"]
            return {str(target[0] if isinstance(target, list) else target).split(".")[0]}
        if "Fn::Sub" in reference:
            text = str(reference["Fn::Sub"])
            return {part.split("}")[0].split(".")[0] for part in text.split("${")[1:]}
    if isinstance(reference, list):
        return {name for item in reference for name in _names(item)}
    return set()


def table_findings(template: Mapping[str, Any]) -> list[str]:
    findings = []
    for name, table in _of_type(template, "AWS::DynamoDB::Table").items():
        props = table.get("Properties", {})
        if props.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled") is not True:
            findings.append(f"{name}: point-in-time recovery is off")
        if props.get("SSESpecification", {}).get("SSEEnabled") is not True:
            findings.append(f"{name}: SSESpecification.SSEEnabled is not true (KMS encryption at rest)")
        if table.get("DeletionPolicy") != "Retain":
            findings.append(f"{name}: DeletionPolicy is not Retain; deleting the stack would delete the data")
    return findings


def _denies_plain_http(statement: Mapping[str, Any], bucket: str) -> bool:
    condition = statement.get("Condition", {}).get("Bool", {})
    actions = statement.get("Action")
    return (
        statement.get("Effect") == "Deny"
        and statement.get("Principal") in ("*", {"AWS": "*"})
        and actions in ("s3:*", ["s3:*"])
        and str(condition.get("aws:SecureTransport")).lower() == "false"
        and {"bucket", "objects"} <= _covered(statement.get("Resource"), bucket)
    )


def _covered(resources: Any, bucket: str) -> set[str]:
    covered = set()
    for resource in resources if isinstance(resources, list) else [resources]:
        if isinstance(resource, Mapping) and resource.get("Fn::GetAtt") in ([bucket, "Arn"], f"{bucket}.Arn"):
            covered.add("bucket")
        if isinstance(resource, Mapping) and resource.get("Fn::Sub") == f"${{{bucket}.Arn}}/*":
            covered.add("objects")
    return covered


def bucket_findings(template: Mapping[str, Any]) -> list[str]:
    findings = []
    policies = _of_type(template, "AWS::S3::BucketPolicy").values()
    for name, bucket in _of_type(template, "AWS::S3::Bucket").items():
        props = bucket.get("Properties", {})
        block = props.get("PublicAccessBlockConfiguration", {})
        findings += [
            f"{name}: {setting} is not true"
            for setting in PUBLIC_ACCESS_BLOCK
            if block.get(setting) is not True
        ]
        if not props.get("BucketEncryption", {}).get("ServerSideEncryptionConfiguration"):
            findings.append(f"{name}: no default encryption")
        if props.get("VersioningConfiguration", {}).get("Status") != "Enabled":
            findings.append(f"{name}: versioning is off (uploads and snapshots could be lost)")
        statements = [
            statement
            for policy in policies
            if name in _names(policy.get("Properties", {}).get("Bucket"))
            for statement in policy["Properties"].get("PolicyDocument", {}).get("Statement", [])
        ]
        if not any(_denies_plain_http(statement, name) for statement in statements):
            findings.append(f"{name}: no bucket policy denies requests without TLS (aws:SecureTransport)")
    return findings


def queue_findings(template: Mapping[str, Any]) -> list[str]:
    return [
        f"{name}: messages are not encrypted at rest"
        for name, queue in _of_type(template, "AWS::SQS::Queue").items()
        if queue.get("Properties", {}).get("SqsManagedSseEnabled") is not True
        and not queue.get("Properties", {}).get("KmsMasterKeyId")
    ]


def log_findings(template: Mapping[str, Any]) -> list[str]:
    groups = _of_type(template, "AWS::Logs::LogGroup")
    findings = [
        f"{name}: no RetentionInDays"
        for name, g in groups.items()
        if not g["Properties"].get("RetentionInDays")
    ]
    for name, function in _of_type(template, "AWS::Serverless::Function").items():
        target = _names(function.get("Properties", {}).get("LoggingConfig", {}).get("LogGroup"))
        if not target & groups.keys():
            findings.append(f"{name}: logs to a group Lambda creates without retention (set LoggingConfig)")
    return findings


CHECKS: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "tables": table_findings,
    "buckets": bucket_findings,
    "queues": queue_findings,
    "logs": log_findings,
}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_stored_data_is_protected(template: dict[str, Any], check: str) -> None:
    assert CHECKS[check](template) == []


def test_the_checks_see_the_stacks_storage(template: dict[str, Any]) -> None:
    assert len(_of_type(template, "AWS::DynamoDB::Table")) >= 7
    assert _of_type(template, "AWS::S3::Bucket")
    assert _of_type(template, "AWS::SQS::Queue")
    assert _of_type(template, "AWS::Logs::LogGroup")


def _props(t: dict[str, Any], name: str) -> dict[str, Any]:
    props: dict[str, Any] = t["Resources"][name]["Properties"]
    return props


def _deny_tls(t: dict[str, Any]) -> dict[str, Any]:
    statement: dict[str, Any] = _props(t, "MemoryBucketPolicy")["PolicyDocument"]["Statement"][0]
    return statement


MUTATIONS: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "pitr_off": ("tables", lambda t: _props(t, "ChunksTable").pop("PointInTimeRecoverySpecification")),
    "sse_off": (
        "tables",
        lambda t: _props(t, "CandidatesTable").update(SSESpecification={"SSEEnabled": False}),
    ),
    "deletable_table": ("tables", lambda t: t["Resources"]["MemoryEventsTable"].pop("DeletionPolicy")),
    "public_policy": (
        "buckets",
        lambda t: _props(t, "MemoryBucket")["PublicAccessBlockConfiguration"].update(BlockPublicPolicy=False),
    ),
    "no_encryption": ("buckets", lambda t: _props(t, "MemoryBucket").pop("BucketEncryption")),
    "no_versioning": ("buckets", lambda t: _props(t, "MemoryBucket").pop("VersioningConfiguration")),
    "tls_rule_allows": ("buckets", lambda t: _deny_tls(t).update(Effect="Allow")),
    "tls_rule_objects_only": (
        "buckets",
        lambda t: _deny_tls(t).update(Resource=[_deny_tls(t)["Resource"][1]]),
    ),
    "tls_rule_some_actions": ("buckets", lambda t: _deny_tls(t).update(Action="s3:GetObject")),
    "no_bucket_policy": ("buckets", lambda t: t["Resources"].pop("MemoryBucketPolicy")),
    "plain_queue": ("queues", lambda t: _props(t, "IngestDeadLetterQueue").pop("SqsManagedSseEnabled")),
    "no_retention": ("logs", lambda t: _props(t, "AdaptiveTurnLogGroup").pop("RetentionInDays")),
    "default_log_group": ("logs", lambda t: _props(t, "CandidateReviewFunction").pop("LoggingConfig")),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_each_weakening_is_caught(template: dict[str, Any], mutation: str) -> None:
    check, mutate = MUTATIONS[mutation]
    mutated = copy.deepcopy(template)
    mutate(mutated)
    assert CHECKS[check](mutated) != []
