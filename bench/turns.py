"""Realistic turns for the handler benchmarks: the labeled messages of tests/data, as API Gateway events."""

import copy
import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from bench.report import REPO_ROOT

DATA = REPO_ROOT / "tests" / "data"
EVENTS = REPO_ROOT / "events"
BOTH_NAMESPACES = "real_life,au"
SEARCH_PATH = "/api/memory/search"


@dataclass(frozen=True)
class Turn:
    mode: str  # pre_answer | post_answer
    namespace: str
    user_message: str
    assistant_draft: str | None = None
    current_task: str | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "namespace": self.namespace,
            "user_message": self.user_message,
            "mode": self.mode,
        }
        if self.assistant_draft:
            body["assistant_draft"] = self.assistant_draft
        if self.current_task:
            body["current_task"] = self.current_task
        return body


def _rows(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def labeled_turns() -> tuple[Turn, ...]:
    """Retrieve-set rows as pre_answer turns, capture-set rows as post_answer turns."""
    turns = [
        Turn("pre_answer", row["namespace"], row["user_message"], current_task=row.get("current_task"))
        for row in _rows("labeled_retrieve.jsonl")
    ]
    turns += [
        Turn(
            "post_answer",
            row["namespace"],
            row["user_message"],
            assistant_draft=row.get("assistant_response"),
        )
        for row in _rows("labeled_capture.jsonl")
    ]
    if not turns:
        raise FileNotFoundError(f"no labeled turns under {DATA}")
    return tuple(turns)


def mixed_turns(count: int, seed: int = 5) -> list[Turn]:
    """`count` turns drawn with replacement, so pre and post answers and both namespaces interleave."""
    rng = random.Random(seed)
    pool = labeled_turns()
    return [rng.choice(pool) for _ in range(count)]


@cache
def _event_template() -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / "adaptive_turn_pre_answer.json").read_text(encoding="utf-8"))
    return event


def turn_event(turn: Turn, scope: str = BOTH_NAMESPACES) -> dict[str, Any]:
    """The repository's sample API Gateway event carrying this turn, for a token scoped to `scope`."""
    event = copy.deepcopy(_event_template())
    event["body"] = json.dumps(turn.body())
    event["requestContext"]["authorizer"]["namespaces"] = scope
    return event


def search_event(namespace: str, query: str, scope: str = BOTH_NAMESPACES) -> dict[str, Any]:
    """The same sample event sent to `POST /api/memory/search`."""
    event = copy.deepcopy(_event_template())
    event["resource"] = event["requestContext"]["resourcePath"] = SEARCH_PATH
    event["path"] = SEARCH_PATH
    event["requestContext"]["path"] = f"/{event['requestContext']['stage']}{SEARCH_PATH}"
    event["body"] = json.dumps({"namespace": namespace, "query": query})
    event["requestContext"]["authorizer"]["namespaces"] = scope
    return event
