"""Content identity of a memory: the same statement in the same namespace always gets the same key.

The hash is taken over the *redacted* summary, so it can never be used to confirm a guessed secret.
"""

import hashlib

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.text import normalise


def content_hash(namespace: Namespace, memory_type: str, redacted_summary: str) -> str:
    material = f"{namespace.value}\n{memory_type}\n{normalise(redacted_summary)}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def candidate_id(namespace: Namespace, hash_hex: str) -> str:
    """The id alone names the item and carries its namespace, so no lookup can cross namespaces."""
    return f"{namespace.value}.{hash_hex}"
