"""Which clauses of a turn may carry a durable memory, and what vetoes the turn as a whole.

A durable statement is a declarative about the user's world. Questions, ideas floated, one-off work
requests, statements the user takes back ("scratch that") and turns the user disclaims ("just
brainstorming", "don't save it") carry none. The assistant's reply only counts when the user accepted it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pandora_memory.policy.candidate_rules import (
    ACCEPTANCE,
    ASSISTANT_OFFER,
    CONFIRMATION,
    DISCLAIMER,
    RETRACTION,
    UNCERTAINTY,
    CandidateRules,
)
from pandora_memory.policy.clauses import DURABLE_MOODS, Clause, Mood, distinct_cues, read_clause
from pandora_memory.policy.lexicon import TOKEN_PATTERN, Hit

RULE_RETRACTION = "candidate.durability.retraction"
RULE_DISCLAIMER = "candidate.durability.disclaimer"
RULE_UNCERTAIN = "candidate.durability.uncertain"
RULE_SKIPPED_MOOD = {
    Mood.QUESTION: "candidate.mood.question",
    Mood.HYPOTHETICAL: "candidate.mood.hypothetical",
    Mood.REQUEST: "candidate.mood.request",
    Mood.RECALL: "candidate.mood.recall",
}


@dataclass(frozen=True, slots=True)
class Durability:
    """The clauses whose cues count, and why the others do not."""

    evidence: tuple[Clause, ...]
    vetoed: bool
    rules: tuple[str, ...]
    cues: tuple[str, ...]
    uncertainty: float
    accepts_proposal: bool


def _after_retraction(clauses: Sequence[Clause], rules: CandidateRules) -> list[Clause]:
    """Drops what the user took back: everything up to the last retraction cue."""
    for index in range(len(clauses) - 1, -1, -1):
        clause = clauses[index]
        retractions = [hit for hit in clause.hits if hit.cue.family == RETRACTION]
        if not retractions:
            continue
        last = max(hit.token_end for hit in retractions)
        tail = _text_after_token(clause.text, last, rules.statement.intensifiers).lstrip(" ,.:;!-")
        kept = [read_clause(tail, rules)] if tail else []
        return kept + list(clauses[index + 1 :])
    return list(clauses)


def _text_after_token(text: str, token_count: int, skipped: frozenset[str]) -> str:
    """The text after the first `token_count` tokens, counted as read_clause counts them."""
    seen = 0
    for match in TOKEN_PATTERN.finditer(text):
        if match.group().lower() in skipped:
            continue
        seen += 1
        if seen == token_count:
            return text[match.end() :]
    return ""


def assess_user(
    clauses: Sequence[Clause], hits: Mapping[str, Sequence[Hit]], rules: CandidateRules
) -> Durability:
    """`hits` is hits_by_family(clauses)."""
    if DISCLAIMER in hits:
        return Durability((), True, (RULE_DISCLAIMER,), tuple(distinct_cues(hits[DISCLAIMER])), 0.0, False)
    applied: list[str] = []
    cues: list[str] = []
    kept: Sequence[Clause] = clauses
    if RETRACTION in hits:
        kept = _after_retraction(clauses, rules)
        applied.append(RULE_RETRACTION)
        cues.extend(distinct_cues(hits[RETRACTION]))
    evidence = tuple(clause for clause in kept if clause.mood in DURABLE_MOODS)
    for clause in kept:
        rule = RULE_SKIPPED_MOOD.get(clause.mood)
        if rule and rule not in applied:
            applied.append(rule)
    if kept is clauses:  # nothing taken back: `hits` already holds them, in the same order
        uncertain = distinct_cues(hits.get(UNCERTAINTY, ()))
    else:
        uncertain = distinct_cues(
            hit for clause in kept for hit in clause.hits if hit.cue.family == UNCERTAINTY
        )
    if uncertain:
        applied.append(RULE_UNCERTAIN)
        cues.extend(uncertain)
    accepts = ACCEPTANCE in hits and sum(len(c.tokens) for c in clauses) <= rules.acceptance_max_tokens
    return Durability(
        evidence=evidence,
        vetoed=False,
        rules=tuple(applied),
        cues=tuple(cues),
        uncertainty=rules.uncertainty_penalty if uncertain else 0.0,
        accepts_proposal=accepts,
    )


def proposal_clauses(clauses: Sequence[Clause]) -> tuple[Clause, ...]:
    """The assistant's statements and suggestions a user can accept (not its offers to do work)."""
    usable = {Mood.STATEMENT, Mood.LABELLED, Mood.HYPOTHETICAL, Mood.QUESTION}
    return tuple(
        clause
        for clause in clauses
        if clause.mood in usable and not any(hit.cue.family == ASSISTANT_OFFER for hit in clause.hits)
    )


def confirmation_cues(clauses: Sequence[Clause]) -> list[str]:
    return distinct_cues(hit for clause in clauses for hit in clause.hits if hit.cue.family == CONFIRMATION)
