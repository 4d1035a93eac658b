"""A warning when a candidate's words belong to the fiction world but it was sent to real_life.

The caller's namespace is never overridden: the warning lets the GPT, and later the reviewer, catch a
probable mistake before the memory is approved. Only this direction can be told from the words: the
fiction world has cues of its own (canon, chapters, characters), real life has none.
"""

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.namespace_inference import choose_namespace


def namespace_doubts(namespace: Namespace, message: str) -> list[str]:
    if namespace is not Namespace.REAL_LIFE:
        return []
    inferred = choose_namespace(None, message)
    if inferred.namespace is not Namespace.AU:
        return []
    return [
        f"this reads like the au story (fiction cues: {', '.join(inferred.cues)}) but was sent to "
        "real_life, where it stays: send story memories with namespace au"
    ]
