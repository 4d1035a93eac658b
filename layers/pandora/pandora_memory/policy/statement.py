"""How much a clause reads like a lasting statement about the user's world, whatever its topic.

Cue lexicons say what a memory is about; this says whether it is a memory at all: a declarative of some
length, with concrete details (names, numbers, identifiers, dates) and time-stable wording ("now",
"since", "every week"), counts for more than a bare remark; feelings of the moment ("ugh", "so tired
today") count against.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pandora_memory.policy.candidate_rules import (
    DATE_WORD,
    MOMENTARY,
    MOMENTARY_TIME,
    STABILITY,
    CandidateRules,
)
from pandora_memory.policy.clauses import Clause, distinct_cues
from pandora_memory.policy.lexicon import Hit

RULE_STATEMENT = "candidate.statement"
RULE_MOMENTARY = "candidate.momentary"
CONCRETE_DETAIL = "concrete detail"


@dataclass(frozen=True, slots=True)
class StatementSupport:
    score: float
    cues: tuple[str, ...]


def support(clauses: Iterable[Clause], rules: CandidateRules) -> StatementSupport:
    """The best clause's support: base for a declarative, plus details and stability cues."""
    settings = rules.statement
    best = StatementSupport(0.0, ())
    for clause in clauses:
        if len(clause.tokens) < settings.min_tokens:
            continue
        details = len(clause.shapes & settings.specific_shapes)
        stable: dict[str, float] = {}
        dated = False
        for hit in clause.hits:
            family = hit.cue.family
            if family == STABILITY:
                stable[hit.cue.text] = hit.cue.weight
            elif family == DATE_WORD:
                dated = True
        details += dated
        score = (
            settings.base
            + settings.specific * min(details, settings.max_specifics)
            + min(sum(stable.values()), settings.stability_cap)
        )
        if score > best.score:
            cues = ((CONCRETE_DETAIL,) if details else ()) + tuple(stable)
            best = StatementSupport(score, cues)
    return best


def momentary(hits: Mapping[str, Sequence[Hit]], rules: CandidateRules) -> tuple[float, list[str]]:
    """The penalty for feelings and happenings of the moment, and the cues behind it."""
    feelings = distinct_cues(hits.get(MOMENTARY, ()))
    times = distinct_cues(hits.get(MOMENTARY_TIME, ()))
    settings = rules.statement
    penalty = settings.momentary_penalty if feelings else settings.momentary_time_weight * len(times)
    return min(penalty, settings.momentary_penalty), feelings + times
