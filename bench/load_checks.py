"""After the load run: is every candidate and every uploaded document stored exactly once?"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Presence:
    expected: int
    present_once: int
    missing: int
    duplicated: int
    unexpected: int

    @property
    def exact(self) -> bool:
        return self.present_once == self.expected and not (self.missing or self.duplicated or self.unexpected)


def presence(expected: Iterable[str], stored: Iterable[str]) -> Presence:
    wanted = set(expected)
    counts = Counter(stored)
    return Presence(
        expected=len(wanted),
        present_once=sum(1 for key in wanted if counts[key] == 1),
        missing=sum(1 for key in wanted if counts[key] == 0),
        duplicated=sum(1 for key in wanted if counts[key] > 1),
        unexpected=sum(1 for key in counts if key not in wanted),
    )


def scan(dynamodb: Any, table: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    start: dict[str, Any] | None = None
    while True:
        page = dynamodb.scan(
            TableName=table, ConsistentRead=True, **({"ExclusiveStartKey": start} if start else {})
        )
        items.extend(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def candidate_ids(items: Iterable[dict[str, Any]]) -> list[str]:
    return [f"{item['namespace']['S']}.{item['content_hash']['S']}" for item in items]


def document_ids(items: Iterable[dict[str, Any]], folder: str) -> list[str]:
    """namespace/logical_path of the documents under `folder`, whatever suffix the store keeps."""
    found = []
    for item in items:
        path = item["logical_path"]["S"]
        if path.startswith(folder):
            found.append(f"{item['namespace']['S']}/{path.removesuffix('.md')}")
    return found


def active_ids(items: Iterable[dict[str, Any]], folder: str) -> set[str]:
    return {
        f"{item['namespace']['S']}/{item['logical_path']['S'].removesuffix('.md')}"
        for item in items
        if item["logical_path"]["S"].startswith(folder)
        and item.get("projection_status", {}).get("S") == "active"
    }
