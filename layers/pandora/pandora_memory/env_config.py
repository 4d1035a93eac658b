"""Typed, checked reads of a function's environment: a bad value fails at start, naming the variable.

Plain functions rather than a pydantic model, so a function that needs pydantic for nothing else (the
token authorizer) does not import it on every cold start for its settings alone.
"""

from collections.abc import Callable, Mapping
from typing import TypeVar

N = TypeVar("N", int, float)


# Powertools names the template's Globals set; these defaults stand when a function runs without them.
DEFAULT_SERVICE_NAME = "pandora-memory"
DEFAULT_METRICS_NAMESPACE = "Pandora"


class ConfigurationError(ValueError):
    """An environment variable is missing or out of its range."""


def text(
    environ: Mapping[str, str],
    name: str,
    *,
    default: str | None = None,
    min_length: int = 0,
    prefix: str = "",
) -> str:
    value = environ.get(name, default)
    if value is None:
        raise ConfigurationError(f"{name} is not set")
    if len(value) < min_length:
        raise ConfigurationError(f"{name} must have at least {min_length} characters")
    if not value.startswith(prefix):
        raise ConfigurationError(f"{name} must start with {prefix!r}")
    return value


def resource_name(environ: Mapping[str, str], name: str) -> str:
    """A DynamoDB table name (at least 3 characters), required."""
    return text(environ, name, min_length=3)


def service_name(environ: Mapping[str, str]) -> str:
    """The Powertools service name every function logs and measures under."""
    return text(environ, "POWERTOOLS_SERVICE_NAME", default=DEFAULT_SERVICE_NAME)


def metrics_namespace(environ: Mapping[str, str]) -> str:
    return text(environ, "POWERTOOLS_METRICS_NAMESPACE", default=DEFAULT_METRICS_NAMESPACE)


def integer(environ: Mapping[str, str], name: str, *, default: int, ge: int, le: int) -> int:
    return _bounded(environ, name, default, int, "a whole number", ge, le)


def number(environ: Mapping[str, str], name: str, *, default: float, ge: float, le: float) -> float:
    return _bounded(environ, name, default, float, "a number", ge, le)


def _bounded(
    environ: Mapping[str, str],
    name: str,
    default: N,
    parse: Callable[[str], N],
    kind: str,
    ge: N,
    le: N,
) -> N:
    raw = environ.get(name)
    try:
        value = default if raw is None else parse(raw)
    except ValueError:
        raise ConfigurationError(f"{name} must be {kind}") from None
    if not ge <= value <= le:  # also refuses nan
        raise ConfigurationError(f"{name} must be between {ge} and {le}")
    return value
