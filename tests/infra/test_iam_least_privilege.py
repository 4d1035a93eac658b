"""Every permission template.yaml grants names its actions and its resources.

checkov (`make security`, on the SAM-transformed template) catches a bare "*" action and privilege
escalation; these checks are stricter and run offline in `make test`: no wildcard in any allowed
action (`dynamodb:*`, `s3:Get*`), no allowed resource that is "*" or starts with a wildcard, and no
SAM policy template or managed policy name, whose actions and resources the template cannot show.
Deny statements may use wildcards: denying broadly is the safe direction.
"""

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from pandora_devstack.template import load_template

# Actions that have no resource-level permissions in IAM, so "*" is their only possible resource.
UNSCOPABLE_ACTIONS: dict[str, str] = {
    "cloudwatch:PutMetricData": "metrics have no ARN; scope it with a cloudwatch:namespace condition",
    "xray:PutTraceSegments": "X-Ray has no resource-level permissions",
    "xray:PutTelemetryRecords": "X-Ray has no resource-level permissions",
}
_PLACEHOLDER = re.compile(r"\$\{[^}]+\}")
POLICY_RESOURCES = {
    "AWS::IAM::Policy": "PolicyDocument",
    "AWS::IAM::ManagedPolicy": "PolicyDocument",
    "AWS::S3::BucketPolicy": "PolicyDocument",
    "AWS::SNS::TopicPolicy": "PolicyDocument",
    "AWS::SQS::QueuePolicy": "PolicyDocument",
}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _statements_of(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(statement) for statement in _as_list(document.get("Statement", []))]


def policy_statements(template: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, statement) for every statement of every policy in the template."""
    for name, resource in template["Resources"].items():
        kind, props = resource.get("Type"), resource.get("Properties", {})
        if kind == "AWS::Serverless::Function":
            for number, policy in enumerate(_as_list(props.get("Policies", []))):
                if isinstance(policy, Mapping) and "Statement" in policy:
                    for statement in _statements_of(policy):
                        yield f"{name}.Policies[{number}]", statement
        elif kind == "AWS::IAM::Role":
            for policy in props.get("Policies", []):
                for statement in _statements_of(policy.get("PolicyDocument", {})):
                    yield f"{name}.{policy.get('PolicyName')}", statement
        elif kind in POLICY_RESOURCES:
            for statement in _statements_of(props.get(POLICY_RESOURCES[kind], {})):
                yield name, statement


def _resource_text(resource: Any) -> str:
    """The resource as written: a !Sub string, or a named reference (never a wildcard)."""
    if isinstance(resource, str):
        return resource
    if isinstance(resource, Mapping) and "Fn::Sub" in resource:
        sub = resource["Fn::Sub"]
        return str(sub[0] if isinstance(sub, list) else sub)
    return "<named reference>"


def _resource_is_open(resource: str) -> bool:
    """ "*", or a wildcard before anything is named (e.g. `arn:aws:s3:::*` or `arn:...:table/*`)."""
    if resource.strip() == "*":
        return True
    # Template values (${AWS::Region}, ${Stage}...) name something; their own colons are not ARN fields.
    parts = _PLACEHOLDER.sub("NAME", resource).split(":", 5)
    if len(parts) == 6:
        service, region, account, name = parts[2], parts[3], parts[4], parts[5]
        if "*" in service or "*" in region or "*" in account:
            return True
        named = name.split("*", 1)[0]
        # Something literal or a template value must come before the wildcard: a path prefix at least.
        return named.rstrip("/") in ("", "table", "parameter", "function", "index") or named.endswith(":")
    return resource.startswith("*")


def least_privilege_findings(template: Mapping[str, Any]) -> list[str]:
    findings: list[str] = []
    for where, statement in policy_statements(template):
        if statement.get("Effect") != "Allow":
            continue
        if "NotAction" in statement or "NotResource" in statement:
            findings.append(f"{where}: Allow with NotAction/NotResource grants everything not listed")
            continue
        actions = [str(action) for action in _as_list(statement.get("Action", []))]
        findings += [f"{where}: wildcard action {action!r}" for action in actions if "*" in action]
        for resource in _as_list(statement.get("Resource", [])):
            text = _resource_text(resource)
            if _resource_is_open(text):
                unscopable = [action for action in actions if action not in UNSCOPABLE_ACTIONS]
                if unscopable:
                    findings.append(f"{where}: {unscopable} on open resource {text!r}")
    return findings


def hidden_policy_findings(template: Mapping[str, Any]) -> list[str]:
    """Policies whose grants the template does not spell out: names of managed policies, SAM templates."""
    findings: list[str] = []
    for name, resource in template["Resources"].items():
        props = resource.get("Properties", {})
        if resource.get("Type") == "AWS::Serverless::Function":
            for policy in _as_list(props.get("Policies", [])):
                if not (isinstance(policy, Mapping) and "Statement" in policy):
                    findings.append(f"{name}: policy {policy!r} is not an inline statement list")
        if resource.get("Type") == "AWS::IAM::Role" and props.get("ManagedPolicyArns"):
            findings.append(f"{name}: managed policies {props['ManagedPolicyArns']!r}")
    return findings


def implicit_managed_policies(template: Mapping[str, Any]) -> set[str]:
    """The managed policies SAM will attach to the roles it generates for the template's functions."""
    defaults = template.get("Globals", {}).get("Function", {})
    attached: set[str] = set()
    for resource in template["Resources"].values():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        props = {**defaults, **resource.get("Properties", {})}
        if "Role" in props:
            continue
        attached.add("AWSLambdaBasicExecutionRole")
        if props.get("Tracing") == "Active":
            attached.add("AWSXrayWriteOnlyAccess")
    return attached


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def test_every_allowed_action_and_resource_is_named(template: dict[str, Any]) -> None:
    assert least_privilege_findings(template) == []


def test_no_policy_hides_its_grants(template: dict[str, Any]) -> None:
    assert hidden_policy_findings(template) == []


def _functions(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource.get("Type") == "AWS::Serverless::Function"
    }


def _role_of(function: Mapping[str, Any]) -> str:
    role = function["Role"]["Fn::GetAtt"]
    return str(role[0] if isinstance(role, list) else role.split(".")[0])


def test_sam_attaches_no_managed_policy(template: dict[str, Any]) -> None:
    """SAM's generated roles would carry AWSLambdaBasicExecutionRole: log actions on every log group."""
    assert implicit_managed_policies(template) == set()


def test_every_function_runs_as_its_own_role(template: dict[str, Any]) -> None:
    roles = [_role_of(function) for function in _functions(template).values()]
    assert len(set(roles)) == len(roles)
    assert all(template["Resources"][role]["Type"] == "AWS::IAM::Role" for role in roles)


def test_each_function_writes_only_its_own_log_group(template: dict[str, Any]) -> None:
    for name, function in _functions(template).items():
        log_group = function["LoggingConfig"]["LogGroup"]["Ref"]
        role = _role_of(function)
        log_resources = [
            statement["Resource"]
            for where, statement in policy_statements(template)
            if where.startswith(f"{role}.")
            and any(str(action).startswith("logs:") for action in _as_list(statement["Action"]))
        ]
        assert log_resources == [{"Fn::GetAtt": [log_group, "Arn"]}], name


def test_the_check_reads_every_function_policy(template: dict[str, Any]) -> None:
    covered = {where.split(".", 1)[0] for where, _ in policy_statements(template)}
    assert {_role_of(function) for function in _functions(template).values()} <= covered
    assert "MemoryBucketPolicy" in covered


def _first_function_statement(t: dict[str, Any]) -> dict[str, Any]:
    role = _role_of(t["Resources"]["AdaptiveTurnFunction"]["Properties"])
    policies = t["Resources"][role]["Properties"]["Policies"]
    statements = [
        statement
        for statement in policies[0]["PolicyDocument"]["Statement"]
        if not str(_as_list(statement["Action"])[0]).startswith("xray:")
    ]
    statement: dict[str, Any] = statements[0]
    return statement


Mutation = Callable[[dict[str, Any]], None]

MUTATIONS: dict[str, Mutation] = {
    "star_action": lambda t: _first_function_statement(t).update(Action="*"),
    "service_wildcard": lambda t: _first_function_statement(t).update(Action=["dynamodb:*"]),
    "prefix_wildcard": lambda t: _first_function_statement(t).update(Action=["dynamodb:Get*"]),
    "star_resource": lambda t: _first_function_statement(t).update(Resource="*"),
    "every_table": lambda t: _first_function_statement(t).update(
        Resource={"Fn::Sub": "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/*"}
    ),
    "any_account": lambda t: _first_function_statement(t).update(
        Resource={"Fn::Sub": "arn:${AWS::Partition}:ssm:*:*:parameter/pandora/*"}
    ),
    "not_action": lambda t: _first_function_statement(t).update(NotAction=["iam:*"]),
    "open_bucket_policy": lambda t: t["Resources"]["MemoryBucketPolicy"]["Properties"]["PolicyDocument"][
        "Statement"
    ].append({"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "*"}),
}
HIDDEN: dict[str, Mutation] = {
    "managed_policy_arn": lambda t: t["Resources"]["AdaptiveTurnRole"]["Properties"].update(
        ManagedPolicyArns=["arn:aws:iam::aws:policy/AmazonDynamoDBFullAccess"]
    ),
    "sam_policy_template": lambda t: t["Resources"]["AdaptiveTurnFunction"]["Properties"].update(
        Policies=[{"DynamoDBCrudPolicy": {"TableName": {"Ref": "CandidatesTable"}}}]
    ),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_each_broad_grant_is_caught(template: dict[str, Any], mutation: str) -> None:
    mutated = copy.deepcopy(template)
    MUTATIONS[mutation](mutated)
    assert least_privilege_findings(mutated) != []


@pytest.mark.parametrize("mutation", sorted(HIDDEN))
def test_each_hidden_grant_is_caught(template: dict[str, Any], mutation: str) -> None:
    mutated = copy.deepcopy(template)
    HIDDEN[mutation](mutated)
    assert hidden_policy_findings(mutated) != []


def test_a_function_without_its_own_role_is_caught(template: dict[str, Any]) -> None:
    mutated = copy.deepcopy(template)
    del mutated["Resources"]["AdaptiveTurnFunction"]["Properties"]["Role"]
    assert implicit_managed_policies(mutated) == {"AWSLambdaBasicExecutionRole", "AWSXrayWriteOnlyAccess"}
