"""Autopilot feature flags, read from SSM Parameter Store and cached per container.

Anything missing, unreadable or invalid falls back to the safe value (queue for review, retrieval on,
never auto-capture) and is reported as a problem, so the caller can say so in its warnings.
"""

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

# Powertools (and with it boto3) loads where SSM is read, not on import: the CLI's `--help` needs
# only the flag names below.
if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.parameters import SSMProvider


class AutopilotMode(StrEnum):
    OFF = "off"
    SUGGEST = "suggest"
    QUEUE = "queue"
    CAPTURE_LOW_RISK = "capture_low_risk"


AUTOPILOT = "PANDORA_MEMORY_AUTOPILOT"
AUTO_RETRIEVE = "PANDORA_AUTO_RETRIEVE"
AUTO_CANDIDATE_QUEUE = "PANDORA_AUTO_CANDIDATE_QUEUE"
AUTO_CAPTURE_LOW_RISK = "PANDORA_AUTO_CAPTURE_LOW_RISK"
AUTO_CAPTURE_ALIAS = "PANDORA_ENABLE_AUTO_CAPTURE"
SENSITIVE_REQUIRES_APPROVAL = "PANDORA_SENSITIVE_MEMORY_REQUIRES_APPROVAL"


@dataclass(frozen=True)
class Flags:
    """Defaults are the fail-safe values."""

    autopilot: AutopilotMode = AutopilotMode.QUEUE
    auto_retrieve: bool = True
    auto_candidate_queue: bool = True
    auto_capture_low_risk: bool = False
    sensitive_requires_approval: bool = True
    problems: tuple[str, ...] = ()


FAIL_SAFE = Flags()


def _bool_flag(raw: Mapping[str, str], name: str, default: bool, problems: list[str]) -> bool:
    if name not in raw:
        problems.append(f"{name} missing: using the safe value {str(default).lower()}")
        return default
    value = raw[name].strip().lower()
    if value in ("true", "false"):
        return value == "true"
    problems.append(f"{name} is not true or false: using the safe value {str(default).lower()}")
    return default


def _autopilot_flag(raw: Mapping[str, str], problems: list[str]) -> AutopilotMode:
    if AUTOPILOT not in raw:
        problems.append(f"{AUTOPILOT} missing: using the safe mode queue")
        return FAIL_SAFE.autopilot
    try:
        return AutopilotMode(raw[AUTOPILOT].strip().lower())
    except ValueError:
        problems.append(f"{AUTOPILOT} is not off, suggest, queue or capture_low_risk: using queue")
        return FAIL_SAFE.autopilot


def _capture_flag(raw: Mapping[str, str], problems: list[str]) -> bool:
    has_primary, has_alias = AUTO_CAPTURE_LOW_RISK in raw, AUTO_CAPTURE_ALIAS in raw
    if has_alias and not has_primary:
        return _bool_flag(raw, AUTO_CAPTURE_ALIAS, False, problems)
    primary = _bool_flag(raw, AUTO_CAPTURE_LOW_RISK, False, problems)
    if has_alias:
        alias = _bool_flag(raw, AUTO_CAPTURE_ALIAS, False, problems)
        if alias != primary:
            problems.append(
                f"{AUTO_CAPTURE_LOW_RISK} and {AUTO_CAPTURE_ALIAS} disagree: auto-capture stays off"
            )
            return False
    return primary


def parse_flags(raw: Mapping[str, str]) -> Flags:
    """Flags from parameter names (relative to the flags path) and their string values."""
    problems: list[str] = []
    flags = Flags(
        autopilot=_autopilot_flag(raw, problems),
        auto_retrieve=_bool_flag(raw, AUTO_RETRIEVE, FAIL_SAFE.auto_retrieve, problems),
        auto_candidate_queue=_bool_flag(raw, AUTO_CANDIDATE_QUEUE, FAIL_SAFE.auto_candidate_queue, problems),
        auto_capture_low_risk=_capture_flag(raw, problems),
        sensitive_requires_approval=_bool_flag(
            raw, SENSITIVE_REQUIRES_APPROVAL, FAIL_SAFE.sensitive_requires_approval, problems
        ),
    )
    if problems and flags.auto_capture_low_risk:
        # A half-broken configuration must not make autonomous writes.
        problems.append("auto-capture disabled while any flag is missing or invalid")
        return replace(flags, auto_capture_low_risk=False, problems=tuple(problems))
    return replace(flags, problems=tuple(problems))


class FlagSource(Protocol):
    def current(self) -> Flags: ...


class SsmFlagSource:
    """Reads every flag with one GetParametersByPath call, cached by Powertools for `max_age` seconds.

    When SSM fails, the fail-safe flags are served for the same window, so an outage costs one slow
    call per window rather than one per request.
    """

    def __init__(
        self,
        provider: "SSMProvider",
        path: str,
        max_age_seconds: int = 60,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._provider = provider
        self._path = path.rstrip("/")
        self._max_age = max_age_seconds
        self._clock = clock
        self._fallback_until = float("-inf")

    def current(self) -> Flags:
        from aws_lambda_powertools.utilities.parameters.exceptions import GetParameterError

        if self._clock() < self._fallback_until:
            return _unreadable()
        try:
            raw = self._provider.get_multiple(self._path, max_age=self._max_age)
        except GetParameterError:
            self._fallback_until = self._clock() + self._max_age
            return _unreadable()
        return parse_flags({name: str(value) for name, value in raw.items()})


def _unreadable() -> Flags:
    return Flags(problems=("flags unreadable (SSM error): using the safe defaults",))
