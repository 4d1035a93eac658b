"""Builds DynamoDB update and condition expressions with every attribute name as a placeholder.

Attribute names such as `namespace` are DynamoDB reserved words; writing `#name` everywhere keeps
the expressions valid without remembering which ones are.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.types import TypeSerializer

_SERIALIZER = TypeSerializer()
_NAME_TOKEN = re.compile(r"#([A-Za-z_][A-Za-z0-9_]*)")


def attribute_values(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _SERIALIZER.serialize(value) for key, value in values.items()}


def key_of(
    partition: str, partition_value: str, sort: str | None = None, sort_value: str = ""
) -> dict[str, Any]:
    key = {partition: {"S": partition_value}}
    if sort is not None:
        key[sort] = {"S": sort_value}
    return key


@dataclass(frozen=True)
class Update:
    """`condition` names attributes as `#attr` and values as `:name` (bound in `condition_values`).

    A None in `sets` removes the attribute: a field the new state does not have must not survive.
    """

    sets: Mapping[str, Any] = field(default_factory=dict)
    removes: Sequence[str] = ()
    adds: Mapping[str, int] = field(default_factory=dict)
    condition: str | None = None
    condition_values: Mapping[str, Any] = field(default_factory=dict)

    def render(self) -> dict[str, Any]:
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        clauses: list[str] = []
        set_parts = []
        removes = [*self.removes, *(attribute for attribute, value in self.sets.items() if value is None)]
        present = {attribute: value for attribute, value in self.sets.items() if value is not None}
        for position, (attribute, value) in enumerate(present.items()):
            names[f"#{attribute}"] = attribute
            values[f":s{position}"] = value
            set_parts.append(f"#{attribute} = :s{position}")
        if set_parts:
            clauses.append("SET " + ", ".join(set_parts))
        if removes:
            names.update({f"#{attribute}": attribute for attribute in removes})
            clauses.append("REMOVE " + ", ".join(f"#{attribute}" for attribute in removes))
        add_parts = []
        for position, (attribute, amount) in enumerate(self.adds.items()):
            names[f"#{attribute}"] = attribute
            values[f":a{position}"] = amount
            add_parts.append(f"#{attribute} :a{position}")
        if add_parts:
            clauses.append("ADD " + ", ".join(add_parts))
        rendered: dict[str, Any] = {"UpdateExpression": " ".join(clauses)}
        if self.condition:
            names.update({f"#{name}": name for name in _NAME_TOKEN.findall(self.condition)})
            values.update(self.condition_values)
            rendered["ConditionExpression"] = self.condition
        rendered["ExpressionAttributeNames"] = names
        if values:
            rendered["ExpressionAttributeValues"] = attribute_values(values)
        return rendered
