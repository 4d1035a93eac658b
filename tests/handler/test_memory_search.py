"""POST /api/memory/search and the pre_answer pack drawn from the same search, through the Lambda handler
over moto storage from template.yaml; notes go through the real ingest pipeline."""

import json
from typing import Any

import pytest
from handler.turn_harness import TurnHarness, emf_documents, load_event, search_event, seed_memory, seed_note

DEPLOY_NOTE = """# Deploy plan

## Staging

The Pandora API ships through the staging stage first; the smoke tests run there.

## Production

Production deploys happen on Tuesdays, after the staging sign-off.
"""
GARDEN_NOTE = "# Garden\n\nWater the tomatoes every morning before nine.\n"
# The same words in the fiction world: a search of one namespace must never see the other.
AU_DEPLOY_NOTE = "# Deploy plan\n\n## Staging\n\nThe Pandora fleet deploys from the staging moon at dawn.\n"


def results(reply: Any) -> list[dict[str, Any]]:
    assert reply.status == 200, reply.body
    found: list[dict[str, Any]] = reply.body["results"]
    return found


def test_search_returns_ranked_passages_with_path_headings_and_revision(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    reply = turn.search(namespace="real_life", query="when do production deploys happen?", limit=3)
    found = results(reply)
    assert reply.body["namespace"] == "real_life" and reply.body["ok"] is True
    best = found[0]
    assert best["logical_path"] == "plans/deploy"
    # A small note is one chunk (the adaptive chunker keeps it whole) under its title.
    assert best["heading_path"] == ["Deploy plan"] and "Tuesdays" in best["text"]
    assert best["revision_id"].startswith("plans/deploy#") and best["kind"] == "chunk"
    assert best["namespace"] == "real_life"
    scores = [result["score"] for result in found]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert all(result["logical_path"] != "home/garden" for result in found)


def test_path_prefix_and_limit_narrow_the_results(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    seed_memory(turn.stack, "real_life", "deploys wait for the staging sign-off")
    everything = results(turn.search(namespace="real_life", query="staging deploys", limit=20))
    assert {r["kind"] for r in everything} == {"chunk", "memory"}
    memories = results(turn.search(namespace="real_life", query="staging deploys", path_prefix="memory/"))
    assert [r["kind"] for r in memories] == ["memory"]
    assert memories[0]["logical_path"] == "memory/project_decision"
    [one] = results(turn.search(namespace="real_life", query="staging deploys", limit=1))
    assert one == everything[0]
    assert results(turn.search(namespace="real_life", query="staging", path_prefix="home/")) == []


@pytest.mark.parametrize(
    "prefix", ["plans/deploy.md", "memory/real_life/plans", "memory/real_life/plans/deploy.md"]
)
def test_a_file_name_or_an_upload_key_names_the_same_notes(turn: TurnHarness, prefix: str) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    found = results(turn.search(namespace="real_life", query="staging tomatoes", path_prefix=prefix))
    assert found and {r["logical_path"] for r in found} == {"plans/deploy"}


def test_nothing_matching_is_an_empty_list(turn: TurnHarness) -> None:
    nothing = turn.search(namespaces="real_life,au", namespace="au", query="anything at all")
    assert results(nothing) == []  # nothing ingested
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    assert results(turn.search(namespace="real_life", query="quarterly invoices")) == []
    assert results(turn.search(namespace="real_life", query="the and of")) == []  # stop words only


def test_an_au_token_cannot_search_real_life(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    turn.aws_calls.clear()
    reply = turn.search(namespaces="au", namespace="real_life", query="deploy plan")
    assert reply.status == 403
    assert reply.body["error"] == "namespace_not_allowed" and "Tuesdays" not in reply.raw
    assert turn.calls_to("dynamodb") == [] and turn.calls_to("s3") == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"namespace": "real_life", "query": "x", "extra": 1}, "extra"),
        ({"namespace": "real_life", "query": "x" * 2001}, "query"),
        ({"namespace": "real_life", "query": ""}, "query"),
        ({"namespace": "real_life", "query": "x", "limit": 0}, "limit"),
        ({"namespace": "real_life", "query": "x", "limit": 21}, "limit"),
        ({"namespace": "real_life", "query": "x", "path_prefix": "../secrets/"}, "path_prefix"),
        ({"namespace": "real_life", "query": "x", "path_prefix": "plans/../../x"}, "path_prefix"),
        ({"namespace": "real_life", "query": "x", "path_prefix": "p" * 257}, "path_prefix"),
        ({"namespace": "real_life", "query": "x", "path_prefix": "a\\b"}, "path_prefix"),
        ({"namespace": "elsewhere", "query": "x"}, "namespace"),
        ({"query": "x"}, "namespace"),
    ],
)
def test_invalid_requests_are_422_and_read_nothing(
    turn: TurnHarness, body: dict[str, Any], field: str
) -> None:
    reply = turn.search(**body)
    assert reply.status == 422, reply.body
    assert reply.body["error"] == "invalid_request"
    assert [detail["field"] for detail in reply.body["details"]] == [field]
    assert "x" * 50 not in reply.raw  # the rejected value is never echoed
    assert turn.calls_to("dynamodb") == []


def test_bad_json_is_400_and_no_token_scope_is_403_before_the_body_is_judged(turn: TurnHarness) -> None:
    assert turn.invoke(search_event("{not json")).status == 400
    refused = turn.invoke(search_event({"namespace": "au", "query": "x", "extra": 1}, namespaces=None))
    assert (refused.status, refused.body["error"]) == (403, "missing_authorizer_context")


def test_a_body_that_is_not_utf8_is_400_not_500(turn: TurnHarness) -> None:
    event = search_event(None)
    event["body"], event["isBase64Encoded"] = "/w==", True  # one 0xFF byte
    reply = turn.invoke(event)
    assert (reply.status, reply.body["error"]) == (400, "invalid_json")


def test_the_same_words_in_the_other_namespace_never_come_back(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "au", "plans/deploy", AU_DEPLOY_NOTE)
    seed_memory(turn.stack, "au", "the Pandora fleet deploys at dawn", memory_type="au_canon")
    both = "real_life,au"
    real_life = results(turn.search(namespaces=both, namespace="real_life", query="Pandora staging deploy"))
    au = results(turn.search(namespaces=both, namespace="au", query="Pandora staging deploy"))
    assert real_life and au
    assert {r["namespace"] for r in real_life} == {"real_life"} and {r["namespace"] for r in au} == {"au"}
    assert not any("fleet" in r["text"] or "moon" in r["text"] for r in real_life)
    assert not any("smoke tests" in r["text"] for r in au)

    pre = turn.turn(namespaces=both, **json.loads(load_event("pre_answer")["body"]))
    assert "smoke tests" in pre.body["context"]
    assert "fleet" not in pre.body["context"] and "moon" not in pre.body["context"]


def test_pre_answer_packs_the_best_passage_with_its_path_and_the_memories(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    seed_memory(turn.stack, "real_life", "reply to the Pandora beta testers", memory_type="open_loop")
    seed_memory(turn.stack, "real_life", "the beta opens to 50 users in March")
    seed_memory(turn.stack, "real_life", "prefers short answers with code first", memory_type="preference")
    reply = turn.invoke(load_event("pre_answer"))
    assert reply.status == 200 and reply.body["retrieval"]["mode"] == "hybrid"
    context = reply.body["context"]
    assert (
        "From your notes:\n- plans/deploy § Deploy plan: # Deploy plan ## Staging The Pandora API" in context
    )
    assert "Open loops:\n- [open_loop] reply to the Pandora beta testers" in context
    assert "Recent decisions:\n- [project_decision] the beta opens to 50 users in March" in context
    assert "Preferences:\n- [preference] prefers short answers with code first" in context
    assert "tomatoes" not in context
    assert reply.body["retrieval"]["sources"][0] == "plans/deploy"
    assert "home/garden" not in reply.body["retrieval"]["sources"]


HOME_NOTE = (
    "# Home\n\n## Routines\n\nBins go out on Sunday night.\n\n## Open loops\n\n- Fix the garden gate latch.\n"
)


def test_context_pack_mode_brings_loops_decisions_preferences_and_the_notes_holding_them(
    turn: TurnHarness,
) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_note(turn.stack, "real_life", "topics/home", HOME_NOTE)
    seed_memory(turn.stack, "real_life", "call the landlord about the boiler", memory_type="open_loop")
    seed_memory(turn.stack, "real_life", "staging stays on the small instance", memory_type="risk")
    reply = turn.turn(namespace="real_life", user_message="continue where we left off", mode="pre_answer")
    assert reply.body["retrieval"]["mode"] == "context_pack"
    context = reply.body["context"]
    assert "call the landlord about the boiler" in context
    assert "From your notes:\n- topics/home § Home: # Home" in context and "garden gate latch" in context
    assert "smoke tests" not in context and "small instance" not in context
    assert reply.body["retrieval"]["sources"] == ["topics/home"]


def test_warm_pre_answer_and_search_cost_one_read_in_total(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    seed_memory(turn.stack, "real_life", "reply to the Pandora beta testers", memory_type="open_loop")
    turn.invoke(load_event("pre_answer"))
    # Cold: the flags, the search pointer, the snapshot of the notes, the memories. Nothing else.
    assert turn.aws_calls == ["ssm.GetParametersByPath", "dynamodb.GetItem", "s3.GetObject", "dynamodb.Query"]

    turn.aws_calls.clear()
    warm = turn.invoke(load_event("pre_answer"))
    assert "smoke tests" in warm.body["context"] and "beta testers" in warm.body["context"]
    assert turn.aws_calls == ["dynamodb.GetItem"]

    turn.aws_calls.clear()
    context_pack = turn.turn(
        namespace="real_life", user_message="continue where we left off", mode="pre_answer"
    )
    assert "beta testers" in context_pack.body["context"]
    assert turn.aws_calls == ["dynamodb.GetItem"]

    turn.aws_calls.clear()
    assert results(turn.search(namespace="real_life", query="smoke tests"))  # the same warm index
    assert turn.aws_calls == ["dynamodb.GetItem"]


def test_a_new_note_or_memory_reloads_only_its_own_half(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    turn.search(namespace="real_life", query="staging")
    seed_note(turn.stack, "real_life", "home/garden", GARDEN_NOTE)
    turn.aws_calls.clear()
    assert results(turn.search(namespace="real_life", query="tomatoes"))[0]["logical_path"] == "home/garden"
    assert turn.aws_calls == ["dynamodb.GetItem", "s3.GetObject"]


def test_an_auto_captured_memory_is_searchable_at_once(
    turn: TurnHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE", "0.5")
    turn.set_flag("PANDORA_MEMORY_AUTOPILOT", "capture_low_risk")
    turn.set_flag("PANDORA_AUTO_CAPTURE_LOW_RISK", "true")
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    assert results(turn.search(namespace="real_life", query="tabs spaces Go files")) == []  # index warm

    message = "I prefer tabs over spaces in every Go file, always"
    captured = turn.turn(namespace="real_life", user_message=message, mode="post_answer")
    assert captured.body["candidate_preview"]["outcome"] == "auto_captured"
    [projection] = turn.table_items("ProjectionsTable")
    assert projection["memory_generation"] == {"N": "1"}  # bumped in the capture's own transaction

    turn.aws_calls.clear()
    [found] = results(turn.search(namespace="real_life", query="tabs in Go files", path_prefix="memory/"))
    assert found["kind"] == "memory" and "tabs" in found["text"].lower()
    assert found["revision_id"] == captured.body["candidate_preview"]["id"]
    assert turn.aws_calls == ["dynamodb.GetItem", "dynamodb.Query"]  # memories reloaded, snapshot kept

    pre = turn.turn(
        namespace="real_life", user_message="remind me what I prefer for Go files", mode="pre_answer"
    )
    assert "tabs" in pre.body["context"].lower()


def test_search_metrics_carry_the_namespace_and_whether_anything_was_found(
    turn: TurnHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    turn.search(namespace="real_life", query="staging")
    turn.search(namespace="real_life", query="volcano")
    documents = emf_documents(capsys.readouterr().out)
    requests = [(d["namespace"], d["results"]) for d in documents if "SearchRequests" in d]
    assert requests == [("real_life", "found"), ("real_life", "empty")]
    assert sum(1 for d in documents if "SearchLatency" in d) == 2


def test_the_query_is_never_logged(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", DEPLOY_NOTE)
    turn.search(namespace="real_life", query="my very private question about staging")
    assert turn.log.lines and not any("private question" in line for line in turn.log.lines)


@pytest.mark.parametrize("operation", ["GetItem", "Query"])
def test_a_throttled_search_read_is_503(turn: TurnHarness, operation: str) -> None:
    turn.fail("dynamodb", operation, "ThrottlingException")
    reply = turn.search(namespace="real_life", query="staging")
    assert (reply.status, reply.body["error"]) == (503, "storage_unavailable")
    assert reply.headers.get("Retry-After") == "1"
