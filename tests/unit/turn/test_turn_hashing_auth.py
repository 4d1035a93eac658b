import pytest
from pandora_memory.hashing import candidate_id, content_hash
from pandora_memory.namespaces import Namespace
from pandora_memory.turn.auth import (
    MissingAuthorizerContextError,
    NamespaceNotAllowedError,
    require_namespace,
    token_scope,
)


def test_hash_ignores_case_and_spacing_but_not_namespace_or_type() -> None:
    base = content_hash(Namespace.REAL_LIFE, "preference", "Prefers  dark mode")
    assert base == content_hash(Namespace.REAL_LIFE, "preference", "prefers dark mode")
    assert base != content_hash(Namespace.AU, "preference", "prefers dark mode")
    assert base != content_hash(Namespace.REAL_LIFE, "risk", "prefers dark mode")
    assert len(base) == 64


def test_candidate_id_carries_the_namespace() -> None:
    assert candidate_id(Namespace.AU, "ab" * 32) == "au." + "ab" * 32


@pytest.mark.parametrize(
    ("namespaces", "expected"),
    [
        ("real_life", {Namespace.REAL_LIFE}),
        ("real_life,au", {Namespace.REAL_LIFE, Namespace.AU}),
        (" au , bogus", {Namespace.AU}),
    ],
)
def test_scope_comes_from_the_authorizer_context(namespaces: str, expected: set[Namespace]) -> None:
    assert token_scope({"authorizer": {"namespaces": namespaces}}) == expected


@pytest.mark.parametrize(
    "request_context",
    [
        None,
        {},
        {"authorizer": None},
        {"authorizer": {}},
        {"authorizer": {"namespaces": ""}},
        {"authorizer": {"namespaces": "bogus"}},
        {"authorizer": {"namespaces": ["au"]}},
    ],
)
def test_no_usable_scope_is_refused(request_context: dict[str, object] | None) -> None:
    with pytest.raises(MissingAuthorizerContextError):
        token_scope(request_context)


def test_a_namespace_outside_the_scope_is_refused() -> None:
    require_namespace(Namespace.AU, frozenset({Namespace.AU}))
    with pytest.raises(NamespaceNotAllowedError, match="real_life"):
        require_namespace(Namespace.REAL_LIFE, frozenset({Namespace.AU}))
