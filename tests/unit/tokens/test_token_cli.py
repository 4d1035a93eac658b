import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws
from pandora_memory.cli import token_cmd
from pandora_memory.cli.local_target import LocalTargetError, load_local_target, ssm_client
from pandora_memory.tokens import hash_secret, parse_token


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="pandora-memory")
    token_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return int(args.run(args))


def _stored(stage: str) -> list[dict[str, str]]:
    ssm = boto3.client("ssm")
    response = ssm.get_parameters_by_path(Path=f"/pandora/{stage}/tokens", WithDecryption=True)
    return [{"name": p["Name"], "value": p["Value"]} for p in response["Parameters"]]


def test_create_prints_the_token_once_and_stores_only_its_hash(
    aws: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("token", "create", "--namespace", "both", "--label", "gpt", "--stage", "prod") == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert re.fullmatch(r"pm_[a-z0-9]{12}_[A-Za-z0-9_-]{43}", token)
    parts = parse_token(token)
    assert token not in err and parts.secret not in err
    (stored,) = _stored("prod")
    assert stored["name"] == f"/pandora/prod/tokens/{parts.token_id}"
    assert parts.secret not in stored["value"]
    value = json.loads(stored["value"])
    assert value["sha256"] == hash_secret(parts.secret)
    assert value["namespaces"] == ["real_life", "au"]
    assert value["label"] == "gpt"


def test_list_shows_ids_and_scopes_but_no_hashes(aws: None, capsys: pytest.CaptureFixture[str]) -> None:
    _run("token", "create", "--namespace", "au")
    token = capsys.readouterr().out.strip()
    assert _run("token", "list") == 0
    out = capsys.readouterr().out
    parts = parse_token(token)
    assert parts.token_id in out and "\tau\t" in out
    assert hash_secret(parts.secret) not in out and parts.secret not in out


def test_revoke_deletes_and_unknown_ids_fail_on_one_line(
    aws: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _run("token", "create", "--namespace", "real_life")
    token_id = parse_token(capsys.readouterr().out.strip()).token_id
    assert _run("token", "revoke", token_id) == 0
    assert _stored("dev") == []
    capsys.readouterr()
    assert _run("token", "revoke", token_id) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and token_id in err


def test_namespace_is_required_and_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("token", "create"), ("token", "create", "--namespace", "work")):
        with pytest.raises(SystemExit) as exited:
            _run(*argv)
        assert exited.value.code != 0
    capsys.readouterr()


def test_local_without_a_running_stack_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run("token", "list", "--local") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "make dev" in err


def test_local_target_points_the_client_at_the_local_endpoint(tmp_path: Path) -> None:
    config = tmp_path / "local.json"
    config.write_text(
        json.dumps(
            {
                "aws_endpoint": "http://127.0.0.1:45678",
                "region": "eu-west-1",
                "access_key_id": "LOCALFAKEKEY",
                "secret_access_key": "fake-secret-for-tests",
                "api_url": "http://127.0.0.1:3000",
            }
        )
    )
    assert load_local_target(config).region == "eu-west-1"
    client = ssm_client(local=True, config_path=config)
    assert client.meta.endpoint_url == "http://127.0.0.1:45678"
    assert client.meta.region_name == "eu-west-1"
    config.write_text("[]")
    with pytest.raises(LocalTargetError):
        load_local_target(config)


def test_aws_errors_become_one_line_messages(capsys: pytest.CaptureFixture[str]) -> None:
    client = boto3.client("ssm", region_name="us-east-1")
    stubber = Stubber(client)
    stubber.add_client_error("get_parameters_by_path", service_error_code="AccessDeniedException")
    parser = argparse.ArgumentParser()
    token_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["token", "list"])
    with stubber:
        assert token_cmd.run_token(args, clients=lambda local, path: client) == 1
    err = capsys.readouterr().err
    assert err == "pandora-memory token: AWS refused the request (AccessDeniedException)\n"
