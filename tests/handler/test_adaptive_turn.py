"""The adaptive turn through its Lambda handler: moto storage from template.yaml, real policies."""

import json
from typing import Any

import pytest
from handler.turn_harness import TurnHarness, load_event, seed_memory, turn_event

DEPLOY_QUESTION = "where did we land on the deploy plan for the Pandora API? continue from last time"
SIMPLE_QUESTION = "how many ounces in a cup"
DECISION = "we decided: production deploys go through the staging stage first, always"


def test_sample_pre_answer_event_returns_the_namespace_memory(turn: TurnHarness) -> None:
    seed_memory(turn.stack, "real_life", "deploy plan: Pandora API ships through staging, then prod")
    seed_memory(turn.stack, "au", "Kael's eyes are storm grey", memory_type="au_canon")
    reply = turn.invoke(load_event("pre_answer"))
    assert reply.status == 200, reply.body
    assert reply.body["ok"] is True and reply.body["should_retrieve"] is True
    assert "Pandora API ships through staging" in reply.body["context"]
    assert "Kael" not in reply.body["context"]
    assert reply.body["retrieval"]["item_count"] == 1
    assert reply.body["candidate_preview"] is None
    # Cold: the search pointer, then the namespace's memories (no note was ever ingested: no S3 read).
    assert turn.calls_to("dynamodb") == ["GetItem", "Query"]
    assert turn.calls_to("s3") == []


def test_a_turn_that_needs_no_memory_reads_no_table(turn: TurnHarness) -> None:
    seed_memory(turn.stack, "real_life", "prefers metric units")
    reply = turn.turn(namespace="real_life", user_message=SIMPLE_QUESTION, mode="pre_answer")
    assert reply.status == 200
    assert (reply.body["should_retrieve"], reply.body["context"]) == (False, "")
    assert reply.body["retrieval"]["mode"] == "none"
    assert turn.calls_to("dynamodb") == []
    assert turn.calls_to("ssm") == ["GetParametersByPath"]


def test_warm_turns_read_only_the_search_pointer(turn: TurnHarness) -> None:
    seed_memory(turn.stack, "real_life", "deploy plan: staging first")
    turn.invoke(load_event("pre_answer"))
    turn.aws_calls.clear()
    reply = turn.invoke(load_event("pre_answer"))
    assert reply.status == 200 and reply.body["should_retrieve"]
    assert "deploy plan: staging first" in reply.body["context"]
    assert turn.aws_calls == ["dynamodb.GetItem"]


def test_open_loops_come_from_the_memories_the_search_loaded(turn: TurnHarness) -> None:
    seed_memory(turn.stack, "real_life", "reply to the Pandora API beta testers", memory_type="open_loop")
    seed_memory(
        turn.stack, "real_life", "old loop about the Pandora API", memory_type="open_loop", resolved=True
    )
    reply = turn.invoke(load_event("pre_answer"))
    assert "Open loops:" in reply.body["context"]
    assert "beta testers" in reply.body["context"] and "old loop" not in reply.body["context"]
    assert turn.calls_to("dynamodb") == ["GetItem", "Query"]


def test_sample_post_answer_event_queues_a_candidate(turn: TurnHarness) -> None:
    reply = turn.invoke(load_event("post_answer"))
    assert reply.status == 200, reply.body
    preview = reply.body["candidate_preview"]
    assert reply.body["should_create_candidate"] is True
    assert (preview["status"], preview["stored"]) == ("pending_review", True)
    assert preview["outcome"] in ("queued", "review_required")
    [item] = turn.table_items("CandidatesTable")
    assert item["candidate_id"]["S"] == preview["id"]
    assert preview["id"].startswith("real_life.")
    assert turn.table_items("MemoryEventsTable") == []


@pytest.mark.parametrize(
    "message",
    [
        "Mina said she needs space until Friday. I'm not texting before then, hold me to it",
        "Leo and I are good again after the poker money thing. he paid me back in full",
    ],
)
def test_sensitive_and_private_candidates_require_review(turn: TurnHarness, message: str) -> None:
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "capture_low_risk")
    turn.set_flag("PANDORA_AUTO_CAPTURE_LOW_RISK", "true")
    reply = turn.turn(namespace="real_life", user_message=message, mode="post_answer")
    preview = reply.body["candidate_preview"]
    assert preview["sensitivity"] in ("high", "private")
    assert (preview["requires_review"], preview["status"], preview["outcome"]) == (
        True,
        "pending_review",
        "review_required",
    )
    assert turn.table_items("MemoryEventsTable") == []


def test_a_repeated_candidate_is_a_duplicate_and_is_not_written_twice(turn: TurnHarness) -> None:
    first = turn.turn(namespace="real_life", user_message=DECISION, mode="post_answer").body[
        "candidate_preview"
    ]
    second = turn.turn(namespace="real_life", user_message=DECISION, mode="post_answer").body[
        "candidate_preview"
    ]
    assert (second["status"], second["outcome"], second["stored"]) == ("duplicate", "duplicate", False)
    assert second["id"] == first["id"] and second["existing_status"] == "pending_review"
    assert len(turn.table_items("CandidatesTable")) == 1
    # The review figures once per namespace and minute, then conditional writes with no read first.
    assert turn.calls_to("dynamodb") == ["Query", "PutItem", "PutItem"]


@pytest.mark.parametrize("mode", ["pre_answer", "post_answer"])
def test_an_au_token_cannot_read_or_write_real_life(turn: TurnHarness, mode: str) -> None:
    reply = turn.turn(namespaces="au", namespace="real_life", user_message=DECISION, mode=mode)
    assert reply.status == 403
    assert reply.body["error"] == "namespace_not_allowed" and "real_life" in reply.body["reason"]
    assert turn.calls_to("dynamodb") == [] and turn.calls_to("ssm") == []
    assert turn.table_items("CandidatesTable") == []


def test_an_au_token_can_use_au(turn: TurnHarness) -> None:
    reply = turn.turn(
        namespaces="au",
        namespace="au",
        user_message="canon: Kael never lies to his sister",
        mode="post_answer",
    )
    assert reply.status == 200
    assert all(item["namespace"]["S"] == "au" for item in turn.table_items("CandidatesTable"))


@pytest.mark.parametrize(
    "body",
    [
        {"namespace": "real_life", "user_message": DECISION, "mode": "post_answer"},
        {"namespace": "real_life", "user_message": DECISION, "mode": "post_answer", "extra": 1},
        "{not json",
    ],
)
def test_no_authorizer_context_is_refused_before_the_body_is_judged(turn: TurnHarness, body: Any) -> None:
    reply = turn.invoke(turn_event(body, namespaces=None))
    assert reply.status == 403
    assert reply.body["error"] == "missing_authorizer_context"
    assert turn.calls_to("dynamodb") == []


def test_the_correlation_id_is_the_api_request_id(turn: TurnHarness) -> None:
    event = load_event("pre_answer")
    turn.invoke(event)
    records = [json.loads(line) for line in turn.log.lines]
    assert records and all(r.get("correlation_id") == event["requestContext"]["requestId"] for r in records)


def test_story_canon_sent_to_real_life_stays_there_with_a_warning(turn: TurnHarness) -> None:
    canon = "decided: in chapter 5 Serah betrays the guild, that is canon now"
    both = "real_life,au"
    reply = turn.turn(namespaces=both, namespace="real_life", user_message=canon, mode="post_answer")
    assert reply.status == 200 and reply.body["should_create_candidate"] is True
    assert reply.body["namespace"] == "real_life"
    assert any("reads like the au story" in warning for warning in reply.body["warnings"])
    as_au = turn.turn(namespaces=both, namespace="au", user_message=canon, mode="post_answer")
    assert not any("reads like" in warning for warning in as_au.body["warnings"])
    plain = turn.turn(namespace="real_life", user_message=DECISION, mode="post_answer")
    assert not any("reads like" in warning for warning in plain.body["warnings"])
