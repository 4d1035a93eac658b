import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from scoring import REPORT_LINES, SHARED_EVAL  # noqa: F401 - kept importable for older tests

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

# Tests never talk to real AWS: fake credentials and a fixed region for every boto3 client.
os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_SESSION_TOKEN", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "Pandora")
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "pandora-memory")
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORT_LINES:
        terminalreporter.section("policy scores")
        for line in REPORT_LINES:
            terminalreporter.write_line(line)


@pytest.fixture
def provisioned_stack(monkeypatch: pytest.MonkeyPatch) -> Iterator["ProvisionedStack"]:
    """Tables, bucket and SSM flags created from template.yaml inside moto, with the functions' env set."""
    import boto3
    from aws_lambda_powertools.utilities import parameters
    from moto import mock_aws
    from pandora_devstack.provision import provision

    with mock_aws():
        parameters.clear_caches()
        stack = provision(boto3.Session(region_name=os.environ["AWS_DEFAULT_REGION"]))
        for key, value in stack.env.items():
            monkeypatch.setenv(key, value)
        yield stack
        parameters.clear_caches()
