"""The review API end to end over moto: inbox listing, approvals, rejections, manual adds, IAM-only
access, conflicts, concurrency, feedback events and the absence of secrets everywhere."""

import base64
import json
import secrets
import string
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import boto3
import pytest
from handler.review_harness import (
    REVIEWER_ARN,
    ReviewHarness,
    load_event,
    review_event,
    start_review_harness,
    stop_review_harness,
)
from handler.turn_harness import emf_documents
from moto.dynamodb.models import DynamoDBBackend
from pandora_memory.storage.records import InboxStatus

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

CANDIDATES = "/api/memory/candidates"


@pytest.fixture
def review(provisioned_stack: "ProvisionedStack") -> Iterator[ReviewHarness]:
    harness = start_review_harness(provisioned_stack)
    yield harness
    stop_review_harness(harness)


def fake_aws_key() -> str:
    return "AKIA" + "".join(secrets.choice(string.ascii_uppercase + string.digits) for _ in range(16))


def fake_github_token() -> str:
    return "ghp_" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(36))


def path_of(candidate_id: str) -> str:
    return f"{CANDIDATES}/{quote(candidate_id)}"


# -- listing and reading ----------------------------------------------------------------------------


def test_list_returns_pending_candidates_of_one_namespace_newest_first(review: ReviewHarness) -> None:
    first = review.seed("Prefers tabs in Go files", created_at="2026-11-01T10:00:00.000000Z")
    second = review.seed(
        "Prefers the command before the explanation", created_at="2026-11-02T10:00:00.000000Z"
    )
    review.seed("Rejected already", status=InboxStatus.REJECTED)
    review.seed("Mirela's sword is named Dusk", namespace="au", memory_type="au_canon")

    reply = review.invoke(load_event("list"))

    assert reply.status == 200
    assert [c["id"] for c in reply.body["candidates"]] == [second.id, first.id]
    assert reply.body["cursor"] is None
    listed = reply.body["candidates"][0]
    assert listed["summary"] == "Prefers the command before the explanation"
    assert listed["rules"] == ["candidate.preference.standing"]
    assert listed["user_message_preview"].startswith("user said:")


def test_list_filters_by_status(review: ReviewHarness) -> None:
    review.seed("Pending one")
    rejected = review.seed("Rejected one", status=InboxStatus.REJECTED)
    reply = review.call("GET", CANDIDATES, query={"namespace": "real_life", "status": "rejected"})
    assert [c["id"] for c in reply.body["candidates"]] == [rejected.id]


def test_pagination_walks_every_candidate_once_with_opaque_cursors(review: ReviewHarness) -> None:
    seeded = [
        review.seed(f"Preference number {index}", created_at=f"2026-11-0{index + 1}T10:00:00.000000Z")
        for index in range(5)
    ]
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        query = {"namespace": "real_life", "limit": "2"} | ({"cursor": cursor} if cursor else {})
        reply = review.call("GET", CANDIDATES, query=query)
        assert reply.status == 200
        seen += [c["id"] for c in reply.body["candidates"]]
        cursor = reply.body["cursor"]
        pages += 1
        if cursor is None:
            break
        assert "real_life#" not in cursor  # opaque: not the raw key
    assert seen == [record.id for record in reversed(seeded)]
    assert pages == 3


def test_a_cursor_is_refused_for_another_namespace_or_status_and_when_forged(review: ReviewHarness) -> None:
    for index in range(3):
        review.seed(f"Preference number {index}")
    cursor = review.call("GET", CANDIDATES, query={"namespace": "real_life", "limit": "1"}).body["cursor"]
    assert cursor

    for query in (
        {"namespace": "au", "cursor": cursor},
        {"namespace": "real_life", "status": "rejected", "cursor": cursor},
        {"namespace": "real_life", "cursor": "not-base64-json!"},
        {"namespace": "real_life", "cursor": cursor[:-4]},
    ):
        reply = review.call("GET", CANDIDATES, query=query)
        assert reply.status == 400, query
        assert reply.body["error"] == "invalid_cursor"


def test_list_requires_a_known_namespace(review: ReviewHarness) -> None:
    assert review.call("GET", CANDIDATES, query={"namespace": "fiction"}).status == 422
    assert review.call("GET", CANDIDATES).status == 422


def test_get_by_id_alone(review: ReviewHarness) -> None:
    record = review.seed("Mirela's sword is named Dusk", namespace="au", memory_type="au_canon")
    reply = review.call("GET", path_of(record.id))
    assert reply.status == 200
    assert reply.body["id"] == record.id
    assert reply.body["namespace"] == "au"

    missing = record.id.replace("au.", "real_life.")
    assert review.call("GET", path_of(missing)).status == 404
    assert review.call("GET", path_of("real_life.not-a-hash")).status == 400
    assert review.call("GET", path_of(f"fiction.{record.content_hash}")).status == 400


# -- approval --------------------------------------------------------------------------------------


def test_approve_promotes_into_memory_and_records_feedback(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs in Go files", rules=("candidate.preference.standing", "cue.always"))

    reply = review.approve(record.id)

    assert reply.status == 200
    assert reply.body["candidate"]["status"] == "approved"
    memory = reply.body["memory"]
    assert memory["namespace"] == "real_life"
    assert memory["source"] == "review"
    assert memory["candidate_id"] == record.id

    (stored,) = review.items("MemoryEventsTable")
    assert stored["namespace"] == "real_life"
    assert stored["content_hash"] == record.content_hash  # nothing edited: the same content identity
    assert stored["memory_id"] == memory["id"]
    assert stored["source"] == "review"
    assert stored["status"] == "approved"

    candidate = review.candidate(record.id)
    assert candidate["status"] == "approved"
    assert candidate["namespace_status"] == "real_life#approved"
    assert candidate["reviewed_by"] == REVIEWER_ARN
    assert candidate["memory_id"] == memory["id"]

    (event,) = review.items("FeedbackEventsTable")
    assert event["action"] == "approved"
    assert event["candidate_id"] == record.id
    assert event["rules"] == ["candidate.preference.standing", "cue.always"]
    assert event["cues"] == ["always"]
    assert event["policy_version"] == "2026.11.29-1"
    assert event["event_key"] == f"{event['created_at']}#{event['event_id']}"
    assert event["corrections"] == []

    (projection,) = review.items("ProjectionsTable")
    assert projection == {"namespace": "real_life", "memory_generation": 1}


def test_approve_with_edits_stores_the_edited_memory_and_names_each_correction(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs", memory_type="preference", sensitivity="low")

    reply = review.approve(
        record.id,
        summary="Prefers tabs over spaces in Go files",
        memory_type="project_decision",
        sensitivity="medium",
    )

    assert reply.status == 200
    (stored,) = review.items("MemoryEventsTable")
    assert stored["summary"] == "Prefers tabs over spaces in Go files"
    assert stored["memory_type"] == "project_decision"
    assert stored["sensitivity"] == "medium"
    assert stored["content_hash"] != record.content_hash
    candidate = review.candidate(record.id)
    assert candidate["summary"] == "Prefers tabs"  # the candidate keeps what the policy proposed
    (event,) = review.items("FeedbackEventsTable")
    assert set(event["corrections"]) == {"summary", "memory_type", "sensitivity"}
    assert event["memory_type"] == "preference"
    assert event["final_memory_type"] == "project_decision"
    assert event["final_sensitivity"] == "medium"


def test_namespace_correction_moves_the_memory_and_keeps_the_candidate_home(review: ReviewHarness) -> None:
    record = review.seed("Mirela never forgives a broken oath", memory_type="au_canon")

    reply = review.approve(record.id, namespace="au")

    assert reply.status == 200
    (stored,) = review.items("MemoryEventsTable")
    assert stored["namespace"] == "au"
    assert stored["memory_id"].startswith("au.")
    candidate = review.candidate(record.id)
    assert candidate["namespace"] == "real_life"
    assert candidate["status"] == "approved"
    assert candidate["corrected_namespace"] == "au"
    (event,) = review.items("FeedbackEventsTable")
    assert event["namespace"] == "real_life"
    assert event["corrected_namespace"] == "au"
    assert event["corrections"] == ["namespace"]
    projections = {item["namespace"]: item["memory_generation"] for item in review.items("ProjectionsTable")}
    assert projections == {"au": 1}
    logged = [json.loads(line) for line in review.log.lines]
    corrected = [line for line in logged if line["message"] == "namespace corrected"]
    assert corrected and corrected[0]["to_namespace"] == "au" and corrected[0]["reviewed_by"] == REVIEWER_ARN


def test_a_namespace_is_never_inferred(review: ReviewHarness) -> None:
    record = review.seed("Mirela's sword is named Dusk", memory_type="au_canon")
    review.approve(record.id)
    (stored,) = review.items("MemoryEventsTable")
    assert stored["namespace"] == "real_life"


# -- rejection and transitions ---------------------------------------------------------------------


def test_reject_records_a_false_positive(review: ReviewHarness) -> None:
    record = review.seed("Asked how SQS FIFO works", rules=("candidate.blocker.cue",))

    reply = review.reject(record.id, reason="a one-off question")

    assert reply.status == 200
    assert reply.body["candidate"]["status"] == "rejected"
    candidate = review.candidate(record.id)
    assert candidate["namespace_status"] == "real_life#rejected"
    assert candidate["review_note"] == "a one-off question"
    assert review.items("MemoryEventsTable") == []
    assert review.items("ProjectionsTable") == []
    (event,) = review.items("FeedbackEventsTable")
    assert event["action"] == "rejected"
    assert event["rules"] == ["candidate.blocker.cue"]
    assert event["note"] == "a one-off question"


def test_reject_without_a_body(review: ReviewHarness) -> None:
    record = review.seed("Asked how SQS FIFO works")
    assert review.reject(record.id).status == 200


@pytest.mark.parametrize(
    ("first", "second", "status"),
    [
        ("approve", "approve", "approved"),
        ("approve", "reject", "approved"),
        ("reject", "approve", "rejected"),
        ("reject", "reject", "rejected"),
    ],
)
def test_only_a_pending_candidate_changes_status(
    review: ReviewHarness, first: str, second: str, status: str
) -> None:
    record = review.seed("Prefers tabs in Go files")
    assert getattr(review, first)(record.id).status == 200

    reply = getattr(review, second)(record.id)

    assert reply.status == 409
    assert reply.body["current_status"] == status
    assert len(review.items("FeedbackEventsTable")) == 1
    assert len(review.items("MemoryEventsTable")) == (1 if first == "approve" else 0)


def test_an_auto_captured_candidate_cannot_be_reviewed(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs in Go files", status=InboxStatus.AUTO_CAPTURED)
    reply = review.approve(record.id)
    assert reply.status == 409
    assert reply.body["current_status"] == "auto_captured"


def test_two_concurrent_approvals_make_exactly_one_memory(
    provisioned_stack: "ProvisionedStack", monkeypatch: pytest.MonkeyPatch
) -> None:
    # DynamoDB isolates transactions; moto applies them without a lock, so the test adds the lock.
    serialised = threading.Lock()
    original = DynamoDBBackend.transact_write_items

    def isolated(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
        with serialised:
            original(self, transact_items)

    monkeypatch.setattr(DynamoDBBackend, "transact_write_items", isolated)

    # Both containers read the candidate as pending before either writes: a real race.
    both_read = threading.Barrier(2, timeout=10)
    reads = {"count": 0}
    count_lock = threading.Lock()

    def wait_for_the_other(**_: Any) -> None:
        with count_lock:
            reads["count"] += 1
            racing = reads["count"] <= 2
        if racing:
            both_read.wait()

    first = start_review_harness(provisioned_stack)
    second = start_review_harness(provisioned_stack, "candidate_review_second_container", fresh_session=False)
    assert boto3.DEFAULT_SESSION is not None
    # Clients copy the session's hooks when created: register before the containers build theirs.
    boto3.DEFAULT_SESSION.events.register("after-call.dynamodb.GetItem", wait_for_the_other)
    record = first.seed("Prefers tabs in Go files")
    replies: list[int] = []

    def approve(harness: ReviewHarness) -> None:
        replies.append(harness.approve(record.id).status)

    try:
        threads = [threading.Thread(target=approve, args=(harness,)) for harness in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        memories = first.items("MemoryEventsTable")
        events = first.items("FeedbackEventsTable")
        candidate = first.candidate(record.id)
    finally:
        stop_review_harness(second)
        stop_review_harness(first)

    assert reads["count"] >= 2  # both containers read the pending candidate before writing
    assert sorted(replies) == [200, 409]
    assert len(memories) == 1
    assert len(events) == 1
    assert candidate["status"] == "approved"


# -- secrets -----------------------------------------------------------------------------------------


def test_a_blocked_secret_candidate_needs_an_edited_summary_that_passes_the_check(
    review: ReviewHarness,
) -> None:
    record = review.seed(
        "Deploy key for the API is [REDACTED:aws_access_key_id]",
        memory_type="env_config_decision",
        status=InboxStatus.BLOCKED_SECRET,
        secret_kinds=("aws_access_key_id",),
    )
    key = fake_aws_key()

    unedited = review.approve(record.id)
    assert unedited.status == 409
    assert unedited.body["error"] == "edited_summary_required"
    assert unedited.body["current_status"] == "blocked_secret"

    leaked = review.approve(record.id, summary=f"Deploy key for the API is {key}")
    assert leaked.status == 422
    assert leaked.body["error"] == "secret_in_summary"
    assert key not in leaked.raw
    assert review.items("MemoryEventsTable") == []
    assert review.candidate(record.id)["status"] == "blocked_secret"

    clean = review.approve(record.id, summary="The API deploy key lives in SSM, rotated monthly")
    assert clean.status == 200
    (stored,) = review.items("MemoryEventsTable")
    assert stored["summary"] == "The API deploy key lives in SSM, rotated monthly"
    (event,) = review.items("FeedbackEventsTable")
    assert event["candidate_status"] == "blocked_secret"

    assert key not in review.everything_stored()
    assert not any(key in line for line in review.log.lines)


def test_an_edited_summary_with_a_secret_is_refused_for_a_pending_candidate_too(
    review: ReviewHarness,
) -> None:
    record = review.seed("Uses GitHub for the Pandora repo", memory_type="project_decision")
    token = fake_github_token()
    reply = review.approve(record.id, summary=f"The repo token is {token}")
    assert reply.status == 422
    assert token not in reply.raw
    assert review.candidate(record.id)["status"] == "pending_review"
    assert token not in review.everything_stored()
    assert not any(token in line for line in review.log.lines)


def test_a_rejection_reason_is_stored_redacted(review: ReviewHarness) -> None:
    record = review.seed("Asked how SQS FIFO works")
    key = fake_aws_key()
    reply = review.reject(record.id, reason=f"noise, and the key {key} was a test one")
    assert reply.status == 200
    assert key not in reply.raw
    assert "[REDACTED:" in review.candidate(record.id)["review_note"]
    assert key not in review.everything_stored()
    assert not any(key in line for line in review.log.lines)


def test_validation_errors_never_echo_the_request(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs in Go files")
    key = fake_aws_key()
    reply = review.approve(record.id, summary="x" * 1001 + key)
    assert reply.status == 422
    assert key not in reply.raw
    reply = review.call("POST", f"{path_of(record.id)}/approve", {"summary": "ok", key: "extra"})
    assert reply.status == 422
    assert key not in reply.raw


# -- manual add (false negatives) --------------------------------------------------------------------


def test_manual_add_stores_a_memory_and_a_false_negative(review: ReviewHarness) -> None:
    reply = review.invoke(load_event("add"))

    assert reply.status == 201
    memory = reply.body["memory"]
    assert memory["source"] == "manual"
    assert memory["namespace"] == "real_life"
    assert memory["candidate_id"] is None
    (stored,) = review.items("MemoryEventsTable")
    assert stored["memory_id"] == memory["id"]
    assert stored["memory_type"] == "deployment_truth"
    (event,) = review.items("FeedbackEventsTable")
    assert event["action"] == "manual_add"
    assert event["memory_type"] == "deployment_truth"
    assert event["rules"] == []
    assert event["policy_version"]
    (projection,) = review.items("ProjectionsTable")
    assert projection["memory_generation"] == 1

    again = review.invoke(load_event("add"))
    assert again.status == 409
    assert again.body["error"] == "memory_exists"
    assert len(review.items("MemoryEventsTable")) == 1


def test_manual_add_with_a_secret_is_refused_and_never_stored(review: ReviewHarness) -> None:
    key = fake_aws_key()
    body = {"namespace": "real_life", "summary": f"Prod key is {key}", "memory_type": "env_config_decision"}
    reply = review.call("POST", CANDIDATES, body)
    assert reply.status == 422
    assert reply.body["error"] == "secret_in_summary"
    assert "aws_access_key_id" in reply.body["reason"]
    assert key not in reply.raw
    assert review.items("MemoryEventsTable") == []
    assert review.items("FeedbackEventsTable") == []
    assert key not in review.everything_stored()
    assert not any(key in line for line in review.log.lines)


def test_manual_add_refuses_the_none_type(review: ReviewHarness) -> None:
    body = {"namespace": "au", "summary": "Something", "memory_type": "none"}
    assert review.call("POST", CANDIDATES, body).status == 422


# -- IAM only ------------------------------------------------------------------------------------------


def test_every_route_refuses_a_caller_without_an_iam_identity(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs in Go files")
    calls: list[tuple[str, str, dict[str, Any] | None, dict[str, str] | None]] = [
        ("GET", CANDIDATES, None, {"namespace": "real_life"}),
        ("GET", CANDIDATES, None, None),  # invalid too: the caller is refused before validation
        ("GET", path_of(record.id), None, None),
        ("POST", f"{path_of(record.id)}/approve", {}, None),
        ("POST", f"{path_of(record.id)}/approve", {"unknown": 1}, None),
        ("POST", f"{path_of(record.id)}/reject", {"reason": "no"}, None),
        ("POST", CANDIDATES, {"namespace": "real_life", "summary": "s", "memory_type": "preference"}, None),
        ("GET", "/api/memory/feedback/summary", None, None),
    ]
    for method, path, body, query in calls:
        reply = review.call(method, path, body, query, iam=False)
        assert reply.status == 403, (method, path)
        assert reply.body["error"] == "forbidden"
    assert review.candidate(record.id)["status"] == "pending_review"
    assert review.items("MemoryEventsTable") == []


# -- feedback --------------------------------------------------------------------------------------


def test_every_action_writes_one_feedback_event(review: ReviewHarness) -> None:
    approved = review.seed("Prefers tabs", rules=("rule.a",))
    edited = review.seed("Prefers spaces", rules=("rule.a",))
    rejected = review.seed("Asked about FIFO", rules=("rule.b",))
    moved = review.seed("Mirela keeps her oaths", memory_type="au_canon", rules=("rule.c",))
    sensitive = review.seed("Sees a therapist on Tuesdays", rules=("rule.c",))
    assert review.approve(approved.id).status == 200
    assert review.approve(edited.id, summary="Prefers spaces in Python").status == 200
    assert review.reject(rejected.id).status == 200
    assert review.approve(moved.id, namespace="au").status == 200
    assert review.approve(sensitive.id, sensitivity="private").status == 200
    body = {"namespace": "real_life", "summary": "Ships on Fridays", "memory_type": "project_decision"}
    assert review.call("POST", CANDIDATES, body).status == 201

    events = review.items("FeedbackEventsTable")
    kinds = sorted((event["action"], tuple(event["corrections"])) for event in events)
    assert kinds == [
        ("approved", ()),
        ("approved", ("namespace",)),
        ("approved", ("sensitivity",)),
        ("approved", ("summary",)),
        ("manual_add", ()),
        ("rejected", ()),
    ]

    summary = review.call("GET", "/api/memory/feedback/summary", query={"namespace": "real_life"})
    assert summary.status == 200
    assert summary.body["namespaces"] == ["real_life"]
    assert summary.body["event_count"] == 6
    by_rule = summary.body["by_rule"]
    assert by_rule["rule.a"] == {
        "approved": 2,
        "rejected": 0,
        "corrected": 1,
        "added_by_hand": 0,
        "rejection_rate": 0.0,
    }
    assert by_rule["rule.b"]["rejected"] == 1
    assert by_rule["rule.c"]["corrected"] == 2
    by_type = summary.body["by_memory_type"]
    assert by_type["preference"]["approved"] == 3
    assert by_type["preference"]["rejected"] == 1
    assert by_type["au_canon"]["approved"] == 1
    assert by_type["project_decision"]["added_by_hand"] == 1


def test_feedback_summary_defaults_to_both_namespaces_and_thirty_days(review: ReviewHarness) -> None:
    record = review.seed("Mirela's sword is named Dusk", namespace="au", memory_type="au_canon")
    review.reject(record.id)
    no_query = {"queryStringParameters": None, "multiValueQueryStringParameters": None}
    reply = review.invoke(load_event("feedback_summary") | no_query)
    assert reply.status == 200
    assert reply.body["namespaces"] == ["real_life", "au"]
    assert reply.body["days"] == 30
    assert reply.body["by_memory_type"]["au_canon"]["rejected"] == 1
    assert review.call("GET", "/api/memory/feedback/summary", query={"days": "0"}).status == 422


def test_review_actions_are_measured(review: ReviewHarness, capsys: pytest.CaptureFixture[str]) -> None:
    record = review.seed("Mirela keeps her oaths", memory_type="au_canon")
    other = review.seed("Asked about FIFO")
    capsys.readouterr()
    review.approve(record.id, namespace="au", summary="Mirela always keeps her oaths")
    review.reject(other.id)

    documents = emf_documents(capsys.readouterr().out)
    measured = sorted(
        (document["action"], document["memory_type"]) for document in documents if "ReviewActions" in document
    )
    assert measured == [
        ("approved", "au_canon"),
        ("edited", "au_canon"),
        ("namespace_corrected", "au_canon"),
        ("rejected", "preference"),
    ]
    (directive,) = {json.dumps(d["_aws"]["CloudWatchMetrics"][0]["Dimensions"]) for d in documents}
    assert json.loads(directive) == [["action", "memory_type", "service"]]
    assert all(document["service"] == "pandora-memory" for document in documents)


def test_a_body_that_is_not_utf8_is_a_400_not_a_crash(review: ReviewHarness) -> None:
    record = review.seed("Prefers tabs in Go files")
    event = review_event("POST", f"{path_of(record.id)}/approve", "{}")
    # API Gateway hands a non-UTF-8 body to the function base64-encoded.
    event["body"] = base64.b64encode(b'{"summary": "caf\xe9"}').decode()
    event["isBase64Encoded"] = True
    reply = review.invoke(event)
    assert reply.status == 400
    assert reply.body["error"] == "invalid_json"
    assert review.candidate(record.id)["status"] == "pending_review"
