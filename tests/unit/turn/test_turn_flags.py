from collections.abc import Iterator

import boto3
import pytest
from aws_lambda_powertools.utilities.parameters import SSMProvider
from botocore.stub import Stubber
from moto import mock_aws
from mypy_boto3_ssm import SSMClient
from pandora_memory.flags import (
    AUTO_CANDIDATE_QUEUE,
    AUTO_CAPTURE_ALIAS,
    AUTO_CAPTURE_LOW_RISK,
    AUTO_RETRIEVE,
    AUTOPILOT,
    FAIL_SAFE,
    SENSITIVE_REQUIRES_APPROVAL,
    AutopilotMode,
    SsmFlagSource,
    parse_flags,
)

ALL_VALID = {
    AUTOPILOT: "capture_low_risk",
    AUTO_RETRIEVE: "false",
    AUTO_CANDIDATE_QUEUE: "true",
    AUTO_CAPTURE_LOW_RISK: "true",
    SENSITIVE_REQUIRES_APPROVAL: "false",
}
PATH = "/pandora/test/flags"


def test_valid_flags_are_read_as_given() -> None:
    flags = parse_flags(ALL_VALID)
    assert flags.autopilot is AutopilotMode.CAPTURE_LOW_RISK
    assert (flags.auto_retrieve, flags.auto_candidate_queue) == (False, True)
    assert (flags.auto_capture_low_risk, flags.sensitive_requires_approval) == (True, False)
    assert flags.problems == ()


def test_values_are_trimmed_and_case_insensitive() -> None:
    flags = parse_flags({**ALL_VALID, AUTOPILOT: " Queue ", AUTO_RETRIEVE: "TRUE"})
    assert flags.autopilot is AutopilotMode.QUEUE
    assert flags.auto_retrieve is True
    assert flags.problems == ()


def test_no_flags_at_all_means_the_safe_defaults_and_one_problem_per_flag() -> None:
    flags = parse_flags({})
    assert (flags.autopilot, flags.auto_retrieve, flags.auto_capture_low_risk) == (
        AutopilotMode.QUEUE,
        True,
        False,
    )
    assert flags.sensitive_requires_approval is True
    for name in (
        AUTOPILOT,
        AUTO_RETRIEVE,
        AUTO_CANDIDATE_QUEUE,
        AUTO_CAPTURE_LOW_RISK,
        SENSITIVE_REQUIRES_APPROVAL,
    ):
        assert any(problem.startswith(name) for problem in flags.problems), name


@pytest.mark.parametrize(
    ("name", "value", "attribute", "safe"),
    [
        (AUTOPILOT, "yolo", "autopilot", AutopilotMode.QUEUE),
        (AUTO_RETRIEVE, "maybe", "auto_retrieve", True),
        (AUTO_CANDIDATE_QUEUE, "1", "auto_candidate_queue", True),
        (SENSITIVE_REQUIRES_APPROVAL, "no", "sensitive_requires_approval", True),
        (AUTO_CAPTURE_LOW_RISK, "yes", "auto_capture_low_risk", False),
    ],
)
def test_an_invalid_value_falls_back_to_the_safe_value(
    name: str, value: str, attribute: str, safe: object
) -> None:
    flags = parse_flags({**ALL_VALID, name: value})
    assert getattr(flags, attribute) == safe
    assert any(name in problem for problem in flags.problems)


def test_any_problem_switches_auto_capture_off() -> None:
    flags = parse_flags({**ALL_VALID, AUTO_RETRIEVE: "sometimes"})
    assert flags.auto_capture_low_risk is False
    assert any("auto-capture disabled" in problem for problem in flags.problems)


def test_the_alias_is_used_when_the_primary_name_is_absent() -> None:
    raw = {key: value for key, value in ALL_VALID.items() if key != AUTO_CAPTURE_LOW_RISK}
    assert parse_flags({**raw, AUTO_CAPTURE_ALIAS: "true"}).auto_capture_low_risk is True
    assert parse_flags({**raw, AUTO_CAPTURE_ALIAS: "true"}).problems == ()


def test_primary_and_alias_that_disagree_keep_capture_off() -> None:
    flags = parse_flags({**ALL_VALID, AUTO_CAPTURE_ALIAS: "false"})
    assert flags.auto_capture_low_risk is False
    assert any("disagree" in problem for problem in flags.problems)


@pytest.fixture
def ssm() -> Iterator[SSMClient]:
    with mock_aws():
        yield boto3.client("ssm", region_name="us-east-1")


def _count_calls(client: SSMClient) -> list[str]:
    calls: list[str] = []
    client.meta.events.register("before-call.*.*", lambda model, **_: calls.append(model.name))
    return calls


def test_flags_come_from_ssm_with_one_call_per_cache_window(ssm: SSMClient) -> None:
    for name, value in ALL_VALID.items():
        ssm.put_parameter(Name=f"{PATH}/{name}", Value=value, Type="String")
    calls = _count_calls(ssm)
    source = SsmFlagSource(SSMProvider(boto3_client=ssm), PATH, max_age_seconds=60)
    first, second = source.current(), source.current()
    assert first == second == parse_flags(ALL_VALID)
    assert calls == ["GetParametersByPath"]


def test_an_ssm_failure_serves_fail_safe_flags_and_is_not_retried_within_the_window() -> None:
    client = boto3.client("ssm", region_name="us-east-1")
    now = [1000.0]
    source = SsmFlagSource(SSMProvider(boto3_client=client), PATH, max_age_seconds=60, clock=lambda: now[0])
    with Stubber(client) as stub:
        stub.add_client_error("get_parameters_by_path", service_error_code="AccessDeniedException")
        flags = source.current()
        now[0] += 30
        again = source.current()  # served without a call: the stub has no second response queued
        stub.assert_no_pending_responses()
    assert (flags.autopilot, flags.auto_retrieve, flags.auto_capture_low_risk) == (
        FAIL_SAFE.autopilot,
        FAIL_SAFE.auto_retrieve,
        False,
    )
    assert flags.problems == again.problems
    assert any("unreadable" in problem for problem in flags.problems)
