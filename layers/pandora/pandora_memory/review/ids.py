"""Candidate ids: `<namespace>.<content hash>`. The id alone finds the item, in its own namespace."""

import re

from pandora_memory.namespaces import Namespace, UnknownNamespaceError, parse_namespace
from pandora_memory.review.errors import InvalidCandidateIdError

_ID = re.compile(r"^(?P<namespace>[a-z_]{1,32})\.(?P<hash>[0-9a-f]{64})$")


def parse_candidate_id(value: str) -> tuple[Namespace, str]:
    match = _ID.match(value)
    if match is None:
        raise InvalidCandidateIdError
    try:
        namespace = parse_namespace(match["namespace"])
    except UnknownNamespaceError:
        raise InvalidCandidateIdError from None
    return namespace, match["hash"]
