"""The two memory worlds. They never mix: every stored key and every query starts with one."""

from enum import StrEnum


class Namespace(StrEnum):
    REAL_LIFE = "real_life"
    AU = "au"


class UnknownNamespaceError(ValueError):
    def __init__(self, value: object) -> None:
        allowed = ", ".join(ns.value for ns in Namespace)
        super().__init__(f"unknown namespace {value!r}: expected one of {allowed}")


def parse_namespace(value: object) -> Namespace:
    """Turn user input into a Namespace, or raise a clear error (no silent default)."""
    if isinstance(value, Namespace):
        return value
    if isinstance(value, str):
        try:
            return Namespace(value.strip())
        except ValueError:
            pass
    raise UnknownNamespaceError(value)
