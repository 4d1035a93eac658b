"""Fixtures for the adaptive turn handler tests (helpers live in turn_harness.py).

The stack is provisioned from template.yaml once per test module inside moto and reset to its
provisioned state before each test: provisioning per test would dominate the run time.
"""

import os
from collections.abc import Iterator

import boto3
import pytest
from handler.turn_harness import TurnHarness, reset_stack, start_harness, stop_harness
from moto import mock_aws
from pandora_devstack.provision import ProvisionedStack, provision


@pytest.fixture(scope="module")
def turn_stack() -> Iterator[ProvisionedStack]:
    with mock_aws(), pytest.MonkeyPatch.context() as patch:
        stack = provision(boto3.Session(region_name=os.environ["AWS_DEFAULT_REGION"]))
        for key, value in stack.env.items():
            patch.setenv(key, value)
        yield stack


@pytest.fixture
def turn(turn_stack: ProvisionedStack) -> Iterator[TurnHarness]:
    """The handler in a cold container over a freshly reset stack; its AWS calls are recorded."""
    reset_stack(turn_stack)
    harness = start_harness(turn_stack)
    yield harness
    stop_harness(harness)
