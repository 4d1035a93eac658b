"""A cold turn container builds only what its requests use: the search stack and the S3 client wait for
the first turn that packs context (or the first search), and then serve every later one."""

from handler.turn_harness import TurnHarness, load_event, seed_note
from pandora_memory.aws_clients import ClientOnFirstUse

NOTE = "# Deploy plan\n\nThe Pandora API deploys through SAM to the dev stage first, after the smoke tests.\n"


def test_a_post_answer_builds_no_search_and_reads_no_s3(turn: TurnHarness) -> None:
    reply = turn.invoke(load_event("post_answer"))
    assert reply.status == 200, reply.body
    assert turn.app.action_services().search.built is False
    assert turn.calls_to("s3") == []


def test_the_first_retrieving_turn_builds_the_search_that_later_searches_share(turn: TurnHarness) -> None:
    seed_note(turn.stack, "real_life", "plans/deploy", NOTE)
    first = turn.invoke(load_event("pre_answer"))
    assert first.status == 200 and first.body["should_retrieve"] is True
    assert "smoke tests" in first.body["context"]
    search = turn.app.action_services().search
    assert search.built is True
    assert turn.calls_to("s3") == ["GetObject"]

    turn.aws_calls.clear()
    found = turn.search(namespace="real_life", query="smoke tests")
    assert found.status == 200 and found.body["results"]
    assert turn.app.action_services().search is search
    assert turn.calls_to("s3") == []  # the snapshot the turn loaded serves the search too


def test_a_client_on_first_use_is_created_by_the_first_call_only() -> None:
    s3 = ClientOnFirstUse("s3")
    assert s3.created is False
    assert s3.meta.service_model.service_name == "s3"
    assert s3.created is True
    assert s3.meta is s3.meta  # one client, kept
