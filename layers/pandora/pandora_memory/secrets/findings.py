"""What the detector reports: where a secret sits and what kind it is, never the secret itself."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """A secret's span in the scanned text. Holds no copy of the value, so it is safe to log."""

    kind: str
    start: int
    end: int
    rule: str


@dataclass(frozen=True)
class Redaction:
    """Text with every secret span replaced by ``[REDACTED:<kind>]``, plus what was replaced."""

    text: str
    findings: tuple[SecretFinding, ...]

    @property
    def kinds(self) -> list[str]:
        """Distinct kinds, in order of first appearance."""
        return list(dict.fromkeys(finding.kind for finding in self.findings))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A finding before overlaps are merged; lower priority numbers win the kind of a merged span."""

    kind: str
    start: int
    end: int
    rule: str
    priority: int


class Coverage:
    """Spans already claimed by specific rules: later generic layers skip values inside them."""

    def __init__(self, candidates: list[Candidate]) -> None:
        self._spans = sorted((c.start, c.end) for c in candidates)

    def covers(self, start: int, end: int) -> bool:
        return any(span_start <= start and end <= span_end for span_start, span_end in self._spans)
