"""Chooses the namespace: an explicit one always wins; otherwise clear fiction cues mean `au`."""

from dataclasses import dataclass

from pandora_memory.namespaces import Namespace, parse_namespace
from pandora_memory.policy.rules import section
from pandora_memory.policy.text import find_cues, normalise


@dataclass(frozen=True)
class NamespaceChoice:
    namespace: Namespace
    explicit: bool
    cues: tuple[str, ...]

    def explain(self) -> str:
        if self.explicit:
            return f"namespace {self.namespace} given by caller"
        if self.cues:
            return f"namespace inferred as {self.namespace} from fiction cues {list(self.cues)}"
        return f"namespace inferred as {self.namespace} (no fiction cues)"


def choose_namespace(namespace: object, *texts: str | None) -> NamespaceChoice:
    """Raises UnknownNamespaceError for anything but None, `real_life` or `au`."""
    if namespace is not None:
        return NamespaceChoice(parse_namespace(namespace), explicit=True, cues=())
    rules = section("namespace")
    joined = normalise(" ".join(t for t in texts if t))
    cues = find_cues(joined, [*rules["au_cues"], *rules["au_names"]])
    chosen = Namespace.AU if cues else Namespace.REAL_LIFE
    return NamespaceChoice(chosen, explicit=False, cues=tuple(cues))
