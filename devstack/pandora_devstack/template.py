"""Reads template.yaml, the single source of truth for the stack, and resolves the intrinsics it uses.

Only what the local stack needs is resolved: Ref, Fn::Sub, Fn::GetAtt (Arn) and Fn::Join, against
the stack's parameters and pseudo parameters. Anything else raises, so a template change that the
local stack cannot mirror fails loudly instead of provisioning something different.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_PATH = REPO_ROOT / "template.yaml"

_SHORT_TAGS = {
    "!Ref": "Ref",
    "!Condition": "Condition",
}


# The C loader parses the template several times faster; PyYAML wheels ship it.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CloudFormationLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """SafeLoader that turns `!Sub x` style short forms into their long `{"Fn::Sub": x}` forms."""


def _construct_intrinsic(loader: yaml.SafeLoader, tag_suffix: str, node: yaml.Node) -> dict[str, Any]:
    tag = "!" + tag_suffix
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    if tag == "!GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    key = _SHORT_TAGS.get(tag, "Fn::" + tag_suffix)
    return {key: value}


_CloudFormationLoader.add_multi_constructor("!", _construct_intrinsic)


def load_template(path: Path = TEMPLATE_PATH) -> dict[str, Any]:
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=_CloudFormationLoader)  # noqa: S506
    if not isinstance(document, dict) or "Resources" not in document:
        raise ValueError(f"{path} is not a CloudFormation template")
    return document


class UnsupportedIntrinsicError(ValueError):
    pass


@dataclass
class Resolver:
    """Resolves intrinsic functions the way CloudFormation would for one local stack."""

    template: Mapping[str, Any]
    stack_name: str
    region: str
    account_id: str = "123456789012"
    parameters: dict[str, str] = field(default_factory=dict)
    physical_ids: dict[str, str] = field(default_factory=dict)

    def parameter_values(self) -> dict[str, str]:
        values = {
            name: str(spec.get("Default", "")) for name, spec in self.template.get("Parameters", {}).items()
        }
        values.update(self.parameters)
        values.update(
            {
                "AWS::StackName": self.stack_name,
                "AWS::Region": self.region,
                "AWS::AccountId": self.account_id,
                "AWS::Partition": "aws",
                "AWS::URLSuffix": "amazonaws.com",
            }
        )
        return values

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.resolve(item) for item in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, argument),) = value.items()
            if key == "Ref":
                return self._ref(argument)
            if key == "Fn::Sub":
                return self._sub(argument)
            if key == "Fn::GetAtt":
                return self._get_att(argument)
            if key == "Fn::Join":
                delimiter, parts = argument
                return str(delimiter).join(str(self.resolve(part)) for part in parts)
            if key.startswith("Fn::"):
                raise UnsupportedIntrinsicError(f"the local stack cannot resolve {key}")
        return {key: self.resolve(item) for key, item in value.items()}

    def _ref(self, name: str) -> str:
        values = self.parameter_values()
        if name in values:
            return values[name]
        if name in self.physical_ids:
            return self.physical_ids[name]
        resource = self.template["Resources"].get(name)
        if resource is None:
            raise UnsupportedIntrinsicError(f"Ref to unknown name {name}")
        physical = self._physical_name(name, resource)
        self.physical_ids[name] = physical
        return physical

    def _physical_name(self, logical_id: str, resource: Mapping[str, Any]) -> str:
        properties = resource.get("Properties", {})
        for name_key in ("TableName", "BucketName", "Name", "QueueName", "TopicName", "LogGroupName"):
            if name_key in properties:
                return str(self.resolve(properties[name_key]))
        return f"{self.stack_name}-{logical_id}"

    def _get_att(self, argument: list[str]) -> str:
        logical_id, attribute = argument
        resource = self.template["Resources"][logical_id]
        kind = resource["Type"]
        name = self._ref(logical_id)
        if kind == "AWS::SQS::Queue" and attribute == "QueueName":
            return name
        if attribute != "Arn":
            raise UnsupportedIntrinsicError(f"GetAtt {logical_id}.{attribute}")
        if kind == "AWS::DynamoDB::Table":
            return f"arn:aws:dynamodb:{self.region}:{self.account_id}:table/{name}"
        if kind == "AWS::S3::Bucket":
            return f"arn:aws:s3:::{name}"
        if kind == "AWS::SQS::Queue":
            return f"arn:aws:sqs:{self.region}:{self.account_id}:{name}"
        if kind == "AWS::Serverless::Function":
            return f"arn:aws:lambda:{self.region}:{self.account_id}:function:{self.stack_name}-{logical_id}"
        raise UnsupportedIntrinsicError(f"GetAtt {kind}.Arn")

    def _sub(self, argument: str | list[Any]) -> str:
        if isinstance(argument, list):
            text, extra = argument[0], {k: str(self.resolve(v)) for k, v in argument[1].items()}
        else:
            text, extra = argument, {}

        def replace(match: re.Match[str]) -> str:
            token = match.group(1)
            if token.startswith("!"):
                # `${!Literal}` is CloudFormation's escape for a literal `${Literal}` (dashboard labels).
                return "${" + token[1:] + "}"
            if token in extra:
                return extra[token]
            if "." in token and not token.startswith("AWS::"):
                logical_id, attribute = token.split(".", 1)
                return self._get_att([logical_id, attribute])
            return self._ref(token)

        return re.sub(r"\$\{([^}]+)\}", replace, text)
