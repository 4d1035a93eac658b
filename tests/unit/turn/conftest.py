"""Storage for the turn's unit tests: provisioned from template.yaml once per module inside moto,
emptied before each test (provisioning per test would dominate the run time)."""

import os
from collections.abc import Iterator

import boto3
import pytest
from handler.turn_harness import reset_stack
from moto import mock_aws
from pandora_devstack.provision import ProvisionedStack, provision


@pytest.fixture(scope="module")
def module_stack() -> Iterator[ProvisionedStack]:
    with mock_aws(), pytest.MonkeyPatch.context() as patch:
        stack = provision(boto3.Session(region_name=os.environ["AWS_DEFAULT_REGION"]))
        for key, value in stack.env.items():
            patch.setenv(key, value)
        yield stack


@pytest.fixture
def stack(module_stack: ProvisionedStack) -> ProvisionedStack:
    reset_stack(module_stack)
    return module_stack
