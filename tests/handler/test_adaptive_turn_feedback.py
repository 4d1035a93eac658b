"""Review feedback tunes the next turn's candidate: rejections written through the review service change
what the handler does, and the figures cost one Query per namespace per minute, not one per turn."""

import os

import boto3
from handler.review_harness import seed_candidate
from handler.turn_harness import TurnHarness
from pandora_memory.namespaces import Namespace
from pandora_memory.review.factory import build_review_service
from pandora_memory.review.settings import load_review_settings

PREFERENCE = "I prefer tabs over spaces in every Go file, always"
OTHER_PREFERENCE = "I always want answers with the code first and the explanation after, please"
DECISION = "we decided: production deploys go through the staging stage first, always"


def reject_preferences(turn: TurnHarness, count: int) -> None:
    """`count` preference candidates rejected by a reviewer, through the review service itself."""
    client = boto3.Session().client("dynamodb")  # outside the recorded session: not the turn's calls
    review = build_review_service(load_review_settings(os.environ), client)
    for n in range(count):
        candidate = seed_candidate(
            client, turn.stack.table_names["CandidatesTable"], f"prefers variant number {n} of something"
        )
        review.reject(candidate.id, note="not worth keeping", reviewer="arn:aws:iam::123456789012:user/me")


def post(turn: TurnHarness, message: str) -> dict[str, object]:
    reply = turn.turn(namespace="real_life", user_message=message, mode="post_answer")
    assert reply.status == 200, reply.body
    preview = reply.body["candidate_preview"]
    assert isinstance(preview, dict)
    return preview


def test_a_streak_of_rejections_turns_the_next_candidate_into_a_preview(turn: TurnHarness) -> None:
    before = post(turn, PREFERENCE)
    assert (before["outcome"], before["stored"]) == ("queued", True)

    reject_preferences(turn, 8)
    turn.cold_start()  # the figures are cached a minute per container; a new container reads them
    after = post(turn, OTHER_PREFERENCE)
    assert (after["status"], after["outcome"], after["stored"]) == ("preview", "suggest_only", False)
    assert "feedback demoted it (memory_type:preference approved 0, rejected 8" in str(after["reason"])
    assert turn.calls_to("dynamodb") == ["Query"]  # the figures; nothing written
    stored = [item["summary"]["S"] for item in turn.table_items("CandidatesTable")]
    assert not any("code first" in summary for summary in stored)

    decision = post(turn, DECISION)  # another type keeps its own record
    assert (decision["outcome"], decision["stored"]) == ("queued", True)


def test_a_few_rejections_demote_the_type_to_review(turn: TurnHarness) -> None:
    reject_preferences(turn, 3)
    preview = post(turn, PREFERENCE)
    assert (preview["outcome"], preview["requires_review"], preview["stored"]) == (
        "review_required",
        True,
        True,
    )
    [item] = [i for i in turn.table_items("CandidatesTable") if i["status"]["S"] == "pending_review"]
    assert item["requires_review"] == {"BOOL": True}


def test_the_warm_post_answer_makes_one_conditional_write(turn: TurnHarness) -> None:
    post(turn, PREFERENCE)
    assert turn.calls_to("dynamodb") == ["Query", "PutItem"]  # the figures once a minute, then the write
    turn.aws_calls.clear()
    post(turn, DECISION)
    assert turn.aws_calls == ["dynamodb.PutItem"]


def test_each_namespace_has_its_own_figures(turn: TurnHarness) -> None:
    reject_preferences(turn, 8)
    au = turn.turn(
        namespaces="real_life,au",
        namespace=Namespace.AU.value,
        user_message="I prefer the chapters told from Kael's side, always",
        mode="post_answer",
    )
    assert au.body["candidate_preview"]["outcome"] in ("queued", "review_required")
    assert au.body["candidate_preview"]["stored"] is True


def test_the_stored_candidate_carries_the_redacted_message_preview(turn: TurnHarness) -> None:
    post(turn, PREFERENCE)
    [item] = turn.table_items("CandidatesTable")
    assert item["user_message_preview"] == {"S": PREFERENCE}
