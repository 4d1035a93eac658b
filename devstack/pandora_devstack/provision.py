"""Creates the stack's storage (tables, bucket, SSM parameters, queues) from template.yaml itself.

Used by `make dev` against the embedded emulator and by the tests under moto's `mock_aws`, so the
local stack and the tests can never drift from what `sam deploy` creates. Functions, the API, IAM
and logging are not storage: the local stack serves those from the template in-process.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from pandora_devstack.template import TEMPLATE_PATH, Resolver, load_template

LOCAL_STACK_NAME = "pandora-local"


@dataclass(frozen=True)
class ProvisionedStack:
    stack_name: str
    region: str
    table_names: dict[str, str]
    bucket: str
    queue_urls: dict[str, str]
    parameters: dict[str, str]
    env: dict[str, str] = field(default_factory=dict)

    @property
    def flags_path(self) -> str:
        return self.env["FLAGS_PATH"]

    @property
    def tokens_path(self) -> str:
        return self.env["TOKENS_PATH"]


class _Clients:
    """One client per service for a whole provisioning run (creating clients dominates its cost)."""

    def __init__(self, session: boto3.Session) -> None:
        self._session = session
        self._clients: dict[str, Any] = {}
        self.region = session.region_name or "us-east-1"

    def get(self, service: str) -> Any:
        if service not in self._clients:
            self._clients[service] = self._session.client(service)  # type: ignore[call-overload]
        return self._clients[service]


def _dynamodb_table_request(props: Mapping[str, Any]) -> dict[str, Any]:
    request: dict[str, Any] = {
        key: props[key]
        for key in (
            "TableName",
            "AttributeDefinitions",
            "KeySchema",
            "GlobalSecondaryIndexes",
            "LocalSecondaryIndexes",
            "BillingMode",
            "StreamSpecification",
        )
        if key in props
    }
    if "SSESpecification" in props:
        request["SSESpecification"] = {"Enabled": bool(props["SSESpecification"].get("SSEEnabled"))}
    return request


def _create_table(clients: "_Clients", props: Mapping[str, Any], out: dict[str, Any]) -> None:
    client = clients.get("dynamodb")
    client.create_table(**_dynamodb_table_request(props))
    if props.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled"):
        client.update_continuous_backups(
            TableName=props["TableName"],
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True},
        )
    out["tables"].append(props["TableName"])


def _create_bucket(clients: "_Clients", props: Mapping[str, Any], out: dict[str, Any]) -> None:
    client: Any = clients.get("s3")  # template values are untyped; S3's TypedDicts cannot help here
    name = props["BucketName"]
    if clients.region == "us-east-1":
        client.create_bucket(Bucket=name)
    else:
        client.create_bucket(Bucket=name, CreateBucketConfiguration={"LocationConstraint": clients.region})
    if "VersioningConfiguration" in props:
        client.put_bucket_versioning(
            Bucket=name, VersioningConfiguration={"Status": props["VersioningConfiguration"]["Status"]}
        )
    if "PublicAccessBlockConfiguration" in props:
        client.put_public_access_block(
            Bucket=name, PublicAccessBlockConfiguration=props["PublicAccessBlockConfiguration"]
        )
    if "BucketEncryption" in props:
        # CloudFormation and the S3 API spell the same rule differently.
        rules = [
            {"ApplyServerSideEncryptionByDefault": rule["ServerSideEncryptionByDefault"]}
            for rule in props["BucketEncryption"]["ServerSideEncryptionConfiguration"]
        ]
        client.put_bucket_encryption(Bucket=name, ServerSideEncryptionConfiguration={"Rules": rules})
    out["buckets"].append(name)


def _create_parameter(clients: "_Clients", props: Mapping[str, Any], out: dict[str, Any]) -> None:
    request = {
        key: props[key] for key in ("Name", "Type", "Value", "Description", "AllowedPattern") if key in props
    }
    clients.get("ssm").put_parameter(**request, Overwrite=True)
    out["parameters"][props["Name"]] = props["Value"]


def _create_queue(clients: "_Clients", props: Mapping[str, Any], out: dict[str, Any]) -> None:
    attributes = {
        key: str(props[key])
        for key in ("MessageRetentionPeriod", "VisibilityTimeout", "KmsMasterKeyId")
        if key in props
    }
    if props.get("SqsManagedSseEnabled"):
        attributes["SqsManagedSseEnabled"] = "true"
    sqs: Any = clients.get("sqs")
    response = sqs.create_queue(QueueName=props["QueueName"], Attributes=attributes)
    out["queues"][props["QueueName"]] = response["QueueUrl"]


# The bucket policy only denies plain-HTTP access, which cannot apply to a loopback emulator.
_CREATORS: dict[str, Callable[["_Clients", Mapping[str, Any], dict[str, Any]], None]] = {
    "AWS::DynamoDB::Table": _create_table,
    "AWS::S3::Bucket": _create_bucket,
    "AWS::SSM::Parameter": _create_parameter,
    "AWS::SQS::Queue": _create_queue,
}


def provision(
    session: boto3.Session | None = None,
    template_path: Path = TEMPLATE_PATH,
    stack_name: str = LOCAL_STACK_NAME,
    stage: str = "dev",
) -> ProvisionedStack:
    """Create every storage resource of the template; returns names and the functions' environment."""
    session = session or boto3.Session()
    region = session.region_name or "us-east-1"
    template = load_template(template_path)
    resolver = Resolver(template, stack_name=stack_name, region=region, parameters={"Stage": stage})
    clients = _Clients(session)
    created: dict[str, Any] = {"tables": [], "buckets": [], "parameters": {}, "queues": {}}
    table_names: dict[str, str] = {}
    for logical_id, resource in template["Resources"].items():
        creator = _CREATORS.get(resource["Type"])
        if creator is None:
            continue
        properties = resolver.resolve(resource.get("Properties", {}))
        creator(clients, properties, created)
        if resource["Type"] == "AWS::DynamoDB::Table":
            table_names[logical_id] = properties["TableName"]
    env = function_environment(template, resolver)
    return ProvisionedStack(
        stack_name=stack_name,
        region=region,
        table_names=table_names,
        bucket=created["buckets"][0] if created["buckets"] else "",
        queue_urls=created["queues"],
        parameters=created["parameters"],
        env=env,
    )


def function_environment(
    template: Mapping[str, Any], resolver: Resolver, function_id: str | None = None
) -> dict[str, str]:
    """The environment a function sees: Globals, then the function's own variables on top."""
    variables = dict(
        template.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {})
    )
    if function_id is not None:
        own = template["Resources"][function_id].get("Properties", {}).get("Environment", {})
        variables.update(own.get("Variables", {}))
    return {key: str(resolver.resolve(value)) for key, value in variables.items()}
