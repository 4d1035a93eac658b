"""The caller's namespace scope, as the bearer-token authorizer put it in the request context.

The body names a namespace; only the authorizer's context says which ones the token may touch.
"""

from collections.abc import Mapping
from typing import Any

from pandora_memory.namespaces import Namespace, UnknownNamespaceError, parse_namespace


class AccessDeniedError(PermissionError):
    code = "forbidden"


class MissingAuthorizerContextError(AccessDeniedError):
    code = "missing_authorizer_context"

    def __init__(self) -> None:
        super().__init__("the request carries no token scope from the authorizer")


class NamespaceNotAllowedError(AccessDeniedError):
    code = "namespace_not_allowed"

    def __init__(self, namespace: Namespace) -> None:
        super().__init__(f"this token may not use the namespace {namespace.value!r}")
        self.namespace = namespace


def token_scope(request_context: Mapping[str, Any] | None) -> frozenset[Namespace]:
    """Namespaces of the calling token; unknown names grant nothing. Raises when there are none."""
    authorizer = (request_context or {}).get("authorizer")
    raw = authorizer.get("namespaces") if isinstance(authorizer, Mapping) else None
    if not isinstance(raw, str):
        raise MissingAuthorizerContextError
    scope: set[Namespace] = set()
    for part in raw.split(","):
        try:
            scope.add(parse_namespace(part))
        except UnknownNamespaceError:
            continue
    if not scope:
        raise MissingAuthorizerContextError
    return frozenset(scope)


def require_namespace(namespace: Namespace, scope: frozenset[Namespace]) -> None:
    if namespace not in scope:
        raise NamespaceNotAllowedError(namespace)
