"""Starting and stopping the local stack in-process leaves the process as it found it."""

import os
import socket
from pathlib import Path

import pytest
import requests
from pandora_devstack.stack import LocalStack, LocalStackError

pytestmark = pytest.mark.integration


def test_stop_restores_the_environment_and_removes_local_json(tmp_path: Path) -> None:
    before = dict(os.environ)
    with LocalStack(api_port=0, state_dir=tmp_path, access_log=False) as stack:
        assert os.environ["AWS_ENDPOINT_URL"] == stack.aws_endpoint
        assert os.environ["TOKENS_PATH"] == stack.info.tokens_path
        assert "AWS_SESSION_TOKEN" not in os.environ
        assert (tmp_path / "local.json").exists()
        api_url = stack.api_url
        with pytest.raises(LocalStackError, match="another local stack"):
            LocalStack(api_port=0, access_log=False).start()
    assert dict(os.environ) == before
    assert not (tmp_path / "local.json").exists()
    with pytest.raises(requests.ConnectionError):
        requests.get(api_url, timeout=2)


def test_a_busy_port_fails_cleanly_and_the_stack_can_start_again() -> None:
    before = dict(os.environ)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(LocalStackError, match=f"127.0.0.1:{port}.*PANDORA_PORT"):
            LocalStack(api_port=port, access_log=False).start()
    assert dict(os.environ) == before
    with LocalStack(api_port=0, access_log=False) as stack:
        assert requests.get(stack.api_url + "/nowhere", timeout=5).status_code == 404
