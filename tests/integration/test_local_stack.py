"""The embedded local stack, started in-process on free ports, answers as the deployed API would."""

import argparse
import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
import requests
from pandora_devstack.api_routes import IamAuth, Route, TokenAuthorizer, read_routes
from pandora_devstack.local_config import LocalStackInfo
from pandora_devstack.stack import LocalStack
from pandora_devstack.template import load_template
from pandora_memory.cli import token_cmd
from pandora_memory.namespaces import Namespace
from pandora_memory.settings import get_settings
from pandora_memory.storage.token_store import TokenStore
from pandora_memory.tokens import mint_token, parse_token

pytestmark = pytest.mark.integration

TURN = "/api/memory/adaptive/turn"
TURN_KEYS = {"ok", "should_retrieve", "context", "should_create_candidate", "candidate_preview", "warnings"}
LOCAL_JSON_KEYS = {
    "api_url",
    "tokens",
    "aws_endpoint",
    "s3_endpoint",
    "bucket",
    "table_names",
    "region",
    "access_key_id",
    "secret_access_key",
}


@pytest.fixture(scope="module")
def state_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Named like the repo's own state directory so the CLI's `--local` finds it from the parent.
    return tmp_path_factory.mktemp("workdir") / ".pandora"


@pytest.fixture(scope="module")
def stack(state_dir: Path) -> Iterator[LocalStack]:
    get_settings.cache_clear()  # a fresh stack is a fresh container: no settings from earlier tests
    local = LocalStack(api_port=0, state_dir=state_dir, access_log=False)
    local.start()
    yield local
    local.stop()
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def info(stack: LocalStack) -> LocalStackInfo:
    return stack.info


def _concrete(route: Route) -> tuple[str, str]:
    path = route.resource.replace("{id}", "real_life." + "0" * 64)
    method = "GET" if route.method == "ANY" else route.method
    return method, path


def _turn(info: LocalStackInfo, token: str | None, **body: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return requests.post(info.api_url + TURN, json=body, headers=headers, timeout=10)


ROUTES = read_routes(load_template())


@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.resource}" for r in ROUTES])
def test_every_template_route_refuses_unauthenticated_calls(info: LocalStackInfo, route: Route) -> None:
    method, path = _concrete(route)
    response = requests.request(method, info.api_url + path, json={"namespace": "au"}, timeout=10)
    expected = 401 if isinstance(route.auth, TokenAuthorizer) else 403
    assert isinstance(route.auth, TokenAuthorizer | IamAuth)
    assert response.status_code == expected, response.text
    if expected == 403:
        assert response.json() == {"message": "Missing Authentication Token"}


IAM_ROUTES = [route for route in ROUTES if isinstance(route.auth, IamAuth)]


@pytest.mark.parametrize("route", IAM_ROUTES, ids=[f"{r.method} {r.resource}" for r in IAM_ROUTES])
def test_a_bearer_token_does_not_open_iam_routes(info: LocalStackInfo, route: Route) -> None:
    method, path = _concrete(route)
    headers = {"Authorization": f"Bearer {info.tokens['real_life']}"}
    response = requests.request(method, info.api_url + path, headers=headers, timeout=10)
    assert response.status_code == 403


@pytest.mark.parametrize(
    "header",
    [
        "Bearer pm_abcdefghij12_" + "x" * 43,
        "Bearer not-a-token-at-all-but-long-enough",
        "Basic dXNlcjpwYXNz",
        "Bearer ",
    ],
)
def test_bad_bearer_tokens_get_401(info: LocalStackInfo, header: str) -> None:
    response = requests.post(
        info.api_url + TURN,
        json={"namespace": "au", "user_message": "hi", "mode": "pre_answer"},
        headers={"Authorization": header},
        timeout=10,
    )
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}


def test_a_valid_id_with_the_wrong_secret_gets_401(info: LocalStackInfo) -> None:
    token = info.tokens["au"]
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert _turn(info, forged, namespace="au", user_message="hi", mode="pre_answer").status_code == 401


def test_a_token_revoked_in_ssm_gets_401(stack: LocalStack, info: LocalStackInfo) -> None:
    store = TokenStore(stack.session().client("ssm", endpoint_url=info.aws_endpoint), info.tokens_path)
    minted = mint_token([Namespace.AU], label="revoked")
    store.put(minted.record)
    assert _turn(info, minted.token, namespace="au", user_message="hi", mode="pre_answer").status_code != 401
    store.revoke(minted.record.token_id)
    # The authorizer of the running stack caches token records for up to a minute, as in AWS; a
    # token that was never seen by it is refused at once.
    never_seen = mint_token([Namespace.AU], label="revoked before use")
    store.put(never_seen.record)
    store.revoke(never_seen.record.token_id)
    assert (
        _turn(info, never_seen.token, namespace="au", user_message="hi", mode="pre_answer").status_code == 401
    )


def test_unknown_route_is_404(info: LocalStackInfo) -> None:
    assert requests.get(info.api_url + "/api/memory/nothing-here", timeout=10).status_code == 404


def test_an_au_token_cannot_use_real_life(info: LocalStackInfo) -> None:
    response = _turn(
        info,
        info.tokens["au"],
        namespace="real_life",
        user_message="What is my sister's name?",
        mode="pre_answer",
    )
    assert response.status_code == 403


def _assert_turn_shape(document: dict[str, Any]) -> None:
    for key in (
        "ok",
        "should_retrieve",
        "context",
        "should_create_candidate",
        "candidate_preview",
        "warnings",
    ):
        assert key in document, key
    assert document["ok"] is True
    assert isinstance(document["should_retrieve"], bool)
    assert isinstance(document["should_create_candidate"], bool)
    assert isinstance(document["warnings"], list)


def test_pre_answer_through_http(info: LocalStackInfo) -> None:
    response = _turn(
        info,
        info.tokens["real_life"],
        namespace="real_life",
        user_message="Do you remember what I told you about my sister's wedding plans?",
        mode="pre_answer",
    )
    assert response.status_code == 200, response.text
    document = response.json()
    _assert_turn_shape(document)
    assert document["should_retrieve"] is True
    assert document["should_create_candidate"] is False


def test_post_answer_through_http_queues_a_durable_fact(info: LocalStackInfo) -> None:
    message = "From now on, always answer me in French."
    response = _turn(
        info, info.tokens["real_life"], namespace="real_life", user_message=message, mode="post_answer"
    )
    assert response.status_code == 200, response.text
    document = response.json()
    _assert_turn_shape(document)
    assert document["should_create_candidate"] is True
    preview = document["candidate_preview"]
    assert preview["id"].startswith("real_life.")


def test_post_answer_for_au_is_stored_in_au_only(info: LocalStackInfo, stack: LocalStack) -> None:
    message = "Remember that in my story Captain Vale always carries a silver compass."
    response = _turn(info, info.tokens["au"], namespace="au", user_message=message, mode="post_answer")
    assert response.status_code == 200, response.text
    document = response.json()
    assert document["should_create_candidate"] is True
    namespace, _, content_hash = document["candidate_preview"]["id"].partition(".")
    assert namespace == "au"
    dynamodb = stack.session().client("dynamodb", endpoint_url=info.aws_endpoint)
    items = dynamodb.scan(TableName=info.table_names["CandidatesTable"])["Items"]
    assert {item["namespace"]["S"] for item in items if item["content_hash"]["S"] == content_hash} == {"au"}


def test_local_json_describes_the_running_stack(info: LocalStackInfo, state_dir: Path) -> None:
    path = state_dir / "local.json"
    document = json.loads(path.read_text())
    assert set(document) >= LOCAL_JSON_KEYS
    assert set(document["tokens"]) == {"real_life", "au"}
    assert document["api_url"] == info.api_url
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for token in document["tokens"].values():
        parse_token(token)
    s3 = boto3.client(
        "s3",
        endpoint_url=document["s3_endpoint"],
        region_name=document["region"],
        aws_access_key_id=document["access_key_id"],
        aws_secret_access_key=document["secret_access_key"],
    )
    assert document["bucket"] in {bucket["Name"] for bucket in s3.list_buckets()["Buckets"]}


def test_cli_local_creates_a_token_the_local_api_accepts(
    info: LocalStackInfo, state_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(state_dir.parent)
    parser = argparse.ArgumentParser()
    token_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["token", "create", "--namespace", "au", "--local", "--label", "cli"])
    assert args.run(args) == 0
    token = capsys.readouterr().out.strip()
    assert parse_token(token).token_id
    # Accepted by the authorizer, then refused by the turn handler for the namespace outside its scope.
    response = _turn(info, token, namespace="real_life", user_message="What is my plan?", mode="pre_answer")
    assert response.status_code == 403
    list_args = parser.parse_args(["token", "list", "--local"])
    assert list_args.run(list_args) == 0
    assert parse_token(token).token_id in capsys.readouterr().out
