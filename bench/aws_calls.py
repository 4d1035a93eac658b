"""AWS calls per adaptive turn, counted with botocore's `before-call` hook on the handler's own clients.

The handler runs in-process over moto (storage provisioned from template.yaml), loaded from its file
as Lambda loads it. Each scenario names the container state it runs in; "warm" means the container has
already answered one turn and the flags are inside their cache window (60 s).
The stack holds a few approved memories and the retrieval evaluation notes, ingested by the ingest
handler beforehand. Aims: a warm pre_answer (and a warm search) makes at most one DynamoDB read and no
SSM or S3 call; a post_answer makes one conditional write for a new candidate and none for a
suppressed one (suggest mode, or not a candidate).
"""

import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.aws_env import (
    AwsCall,
    fresh_container,
    inspector,
    lambda_context,
    load_function,
    moto_stack,
    quiet_stdout,
    seed_memories,
)
from bench.report import Section
from bench.seeding import ingest_notes, person_notes
from bench.turns import Turn, labeled_turns, search_event, turn_event

DYNAMODB_READS = frozenset({"dynamodb.GetItem", "dynamodb.Query", "dynamodb.Scan", "dynamodb.BatchGetItem"})
DYNAMODB_WRITES = frozenset(
    {"dynamodb.PutItem", "dynamodb.UpdateItem", "dynamodb.TransactWriteItems", "dynamodb.BatchWriteItem"}
)


@dataclass(frozen=True)
class Example:
    """One labeled message the policies put in a known class (chosen by the pure policies, no AWS)."""

    retrieve: Turn
    no_retrieve: Turn
    candidate: Turn
    not_candidate: Turn
    secret: Turn | None


def pick_examples() -> Example:
    from pandora_memory.policy.candidate import should_auto_create_memory_candidate
    from pandora_memory.policy.models import CandidateStatus
    from pandora_memory.policy.retrieve import should_auto_retrieve_memory

    def retrieves(turn: Turn) -> bool:
        decision = should_auto_retrieve_memory(
            turn.user_message, namespace=turn.namespace, current_task=turn.current_task
        )
        return decision.should_retrieve

    def status(turn: Turn) -> tuple[CandidateStatus, bool]:
        decision = should_auto_create_memory_candidate(
            turn.user_message, assistant_response=turn.assistant_draft, namespace=turn.namespace
        )
        return decision.status, bool(decision.secret_kinds)

    pre = [turn for turn in labeled_turns() if turn.mode == "pre_answer"]
    post = [turn for turn in labeled_turns() if turn.mode == "post_answer"]
    statuses = {turn: status(turn) for turn in post}
    return Example(
        retrieve=next(turn for turn in pre if retrieves(turn)),
        no_retrieve=next(turn for turn in pre if not retrieves(turn)),
        candidate=next(t for t in post if statuses[t] == (CandidateStatus.CANDIDATE, False)),
        not_candidate=next(t for t in post if statuses[t] == (CandidateStatus.NOT_CANDIDATE, False)),
        secret=next((t for t in post if statuses[t][1]), None),
    )


@dataclass(frozen=True)
class Scenario:
    name: str
    calls: Counter[str]
    outcome: str
    verdict: str  # "met" | "MISSED" | "" (reference only)


Check = Callable[[Counter[str], list[AwsCall]], bool]


def _outcome(result: dict[str, Any]) -> str:
    body = json.loads(result["body"])
    if result["statusCode"] != 200:
        return f"HTTP {result['statusCode']}"
    if "results" in body:
        return f"{len(body['results'])} search results"
    preview = body.get("candidate_preview")
    if preview:
        return f"candidate {preview['outcome']}"
    return f"retrieve={str(body['should_retrieve']).lower()}"


def _set_flag(name: str, value: str) -> None:
    from pandora_memory.settings import get_settings

    inspector("ssm").put_parameter(
        Name=f"{get_settings().flags_path}/{name}", Value=value, Type="String", Overwrite=True
    )


class _Container:
    """One handler container whose AWS calls are recorded scenario by scenario."""

    def __init__(self, scenarios: list[Scenario]) -> None:
        self.recorder = fresh_container()
        self.app = load_function("adaptive_turn")
        self.scenarios = scenarios

    def turn(self, name: str, turn: Turn, check: Check | None) -> None:
        self.send(name, turn_event(turn), check)

    def send(self, name: str, event: dict[str, Any], check: Check | None) -> None:
        self.recorder.take()
        result = self.app.lambda_handler(event, lambda_context("AdaptiveTurnFunction"))
        calls = self.recorder.take()
        counts = Counter(call.operation for call in calls)
        verdict = "" if check is None else ("met" if check(counts, calls) else "MISSED")
        self.scenarios.append(Scenario(name, counts, _outcome(result), verdict))


def measure_scenarios(notes: dict[str, str] | None = None) -> list[Scenario]:
    """`notes`: S3 key -> Markdown ingested first (the retrieval evaluation notes by default)."""
    examples = pick_examples()
    scenarios: list[Scenario] = []
    with moto_stack("AdaptiveTurnFunction") as stack, quiet_stdout():
        seed_memories()
        ingest_notes(stack.bucket, person_notes() if notes is None else notes)

        queue = _Container(scenarios)
        queue.turn("cold container, first pre_answer (reference)", examples.retrieve, None)
        queue.turn("warm pre_answer that retrieves", examples.retrieve, _warm_read)
        queue.turn("warm pre_answer that does not retrieve", examples.no_retrieve, _warm_read)
        queue.turn("warm post_answer, new candidate", examples.candidate, _one_conditional_write)
        queue.turn("warm post_answer, same candidate again", examples.candidate, _one_conditional_write)
        queue.turn("warm post_answer, not a candidate", examples.not_candidate, _no_write)
        if examples.secret is not None:
            queue.turn("warm post_answer holding a secret", examples.secret, _one_conditional_write)
        other = "au" if examples.retrieve.namespace == "real_life" else "real_life"
        query = "what did we decide about the deploy plan?"
        queue.send(f"first search of {other} in this container (reference)", search_event(other, query), None)
        queue.send(f"warm search of {other}", search_event(other, query), _warm_read)

        _set_flag("PANDORA_MEMORY_AUTOPILOT", "suggest")
        suggest = _Container(scenarios)
        suggest.turn("suggest mode: cold first turn (reference)", examples.no_retrieve, None)
        suggest.turn("suggest mode: warm post_answer, a candidate", examples.candidate, _no_write)
    return scenarios


def _warm_read(counts: Counter[str], calls: list[AwsCall]) -> bool:
    reads = sum(n for operation, n in counts.items() if operation in DYNAMODB_READS)
    ssm = sum(n for operation, n in counts.items() if operation.startswith("ssm."))
    return reads <= 1 and ssm == 0 and sum(counts.values()) == reads


def _one_conditional_write(counts: Counter[str], calls: list[AwsCall]) -> bool:
    """Reads are not part of this aim; the table shows them."""
    writes = [call for call in calls if call.operation in DYNAMODB_WRITES]
    ssm = any(call.operation.startswith("ssm.") for call in calls)
    return len(writes) == 1 and writes[0].conditional and not ssm


def _no_write(counts: Counter[str], calls: list[AwsCall]) -> bool:
    return not any(call.operation in DYNAMODB_WRITES for call in calls) and not any(
        call.operation.startswith("ssm.") for call in calls
    )


def _calls_text(counts: Counter[str]) -> str:
    return ", ".join(f"{operation} ×{n}" for operation, n in sorted(counts.items())) or "none"


def run(quick: bool = False) -> Section:
    scenarios = measure_scenarios()
    rows = [
        f"| {s.name} | {_calls_text(s.calls)} | {s.outcome} | {s.verdict or 'reference'} |" for s in scenarios
    ]
    checked = [s for s in scenarios if s.verdict]
    met = sum(s.verdict == "met" for s in checked)
    body = (
        (__doc__ or "").strip()
        + "\n\n| scenario | AWS calls by operation | handler outcome | aim |\n|---|---|---|---|\n"
        + "\n".join(rows)
        + f"\n\n{met} of {len(checked)} checked scenarios meet their aim."
    )
    figures = {f"calls:{s.name}": float(sum(s.calls.values())) for s in scenarios}
    figures["aims_met"] = float(met)
    figures["aims_checked"] = float(len(checked))
    return Section("AWS calls per turn", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
