"""Which clauses of a turn may carry a durable memory, and what vetoes the turn as a whole.

A durable statement is a declarative about the user's world. Questions, ideas floated, one-off work
requests, statements the user takes back ("scratch that") and turns the user disclaims ("just
brainstorming", "don't save it") carry none. The assistant's reply only counts when the user accepted it.
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from pandora_memory.policy.candidate_rules import (
    ACCEPTANCE,
    ASSISTANT_OFFER,
    CHOICE,
    COMMITMENT,
    CONFIRMATION,
    CORRECTION,
    DISCLAIMER,
    OFFERED_CHANGE,
    REJECTION,
    RETRACTION,
    RETRACTION_REASON,
    STANDING_SCOPE,
    UNCERTAINTY,
    CandidateRules,
)
from pandora_memory.policy.clauses import DURABLE_MOODS, Clause, Mood, distinct_cues, read_clause
from pandora_memory.policy.lexicon import TOKEN_PATTERN, Hit

RULE_RETRACTION = "candidate.durability.retraction"
RULE_CORRECTION = "candidate.durability.correction"
_TAKING_BACK = (RETRACTION, CORRECTION)
RULE_DISCLAIMER = "candidate.durability.disclaimer"
RULE_UNCERTAIN = "candidate.durability.uncertain"
RULE_REFUSAL = "candidate.durability.refusal"
_STANDING = frozenset((COMMITMENT, STANDING_SCOPE))
# An accepted offer is the user's decision when it offers a standing rule or a change to their own
# setup or plan ("I can add an Airflow pool with 3 slots", "want me to remind you on the 1st"), not
# when it offers words (a draft, an explanation, a rewrite).
_OFFERS_KEPT = frozenset((*_STANDING, OFFERED_CHANGE))
RULE_SKIPPED_MOOD = {
    Mood.QUESTION: "candidate.mood.question",
    Mood.HYPOTHETICAL: "candidate.mood.hypothetical",
    Mood.REQUEST: "candidate.mood.request",
    Mood.RECALL: "candidate.mood.recall",
    Mood.REPORTED: "candidate.mood.reported",
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
    picks_option: bool = False


def _after_retraction(clauses: Sequence[Clause], rules: CandidateRules) -> tuple[list[Clause], bool]:
    """What is left once the user took something back, and whether it was a correction.

    A retraction ("scratch that", "jk", "..., ignore") drops everything up to its cue. What follows
    still counts unless it only explains the retraction ("Tomás hasn't agreed", "I'm mixing it up",
    "we're staying on X"). A correction ("no wait, it's 29/month") restates: when a new statement
    follows, the turn stays whole (the corrected value is the topic, the new one is read last);
    otherwise it is a retraction too."""
    for index in range(len(clauses) - 1, -1, -1):
        clause = clauses[index]
        if _retracts_alone(clause, rules):
            return _without_reasons(clauses[index + 1 :]), False
        taking_back = [hit for hit in clause.hits if hit.cue.family in _TAKING_BACK]
        if not taking_back:
            continue
        last = max(taking_back, key=lambda hit: hit.token_end)
        tail = _text_after_token(clause.text, last.token_end, rules.statement.intensifiers).lstrip(" ,.:;!-")
        if tail.split(" ", 1)[0].lower() in rules.retracted_topic_words:
            # "ignore what I said about the price, it's 29/month now": up to the comma names what was
            # taken back; only what comes after it is new.
            tail = tail.partition(", ")[2]
        kept = _without_reasons([read_clause(tail, rules)] if tail else [])
        if last.cue.family == CORRECTION and any(c.mood in DURABLE_MOODS for c in kept):
            return [*clauses[: index + 1], *_without_reasons(clauses[index + 1 :])], True
        return kept + _without_reasons(clauses[index + 1 :]), False
    return list(clauses), False


def _users_hedges(clauses: Sequence[Clause], rules: CandidateRules) -> Iterator[Hit]:
    """Uncertainty cues that are the user's own indecision (see hedges_of_the_user_only)."""
    for clause in clauses:
        for hit in clause.hits:
            if hit.cue.family != UNCERTAINTY:
                continue
            if hit.cue.text in rules.hedges_of_the_user_only and hit.token_start > 1:
                tokens = clause.tokens
                beside = (
                    *tokens[hit.token_start - 2 : hit.token_start],
                    *tokens[hit.token_end : hit.token_end + 1],
                )
                if rules.first_person.isdisjoint(beside):
                    continue
            yield hit


def _retracts_alone(clause: Clause, rules: CandidateRules) -> bool:
    """ "..., ignore", "jk", "lol. not really": a clause that ends on a retraction or is nothing else."""
    tokens = clause.tokens
    return bool(tokens) and (tokens[-1] in rules.retraction_final or tokens in rules.retraction_alone)


def _without_reasons(clauses: Sequence[Clause]) -> list[Clause]:
    return [c for c in clauses if not any(hit.cue.family == RETRACTION_REASON for hit in c.hits)]


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
    if RETRACTION in hits or CORRECTION in hits or any(_retracts_alone(c, rules) for c in clauses):
        kept, corrected = _after_retraction(clauses, rules)
        applied.append(RULE_CORRECTION if corrected else RULE_RETRACTION)
        taken_back = [*hits.get(RETRACTION, ()), *hits.get(CORRECTION, ())]
        cues.extend(
            distinct_cues(taken_back) or [" ".join(c.tokens) for c in clauses if _retracts_alone(c, rules)]
        )
    evidence = tuple(clause for clause in kept if clause.mood in DURABLE_MOODS)
    for clause in kept:
        rule = RULE_SKIPPED_MOOD.get(clause.mood)
        if rule and rule not in applied:
            applied.append(rule)
    uncertain = distinct_cues(_users_hedges(kept, rules)) if UNCERTAINTY in hits else []
    if uncertain:
        applied.append(RULE_UNCERTAIN)
        cues.extend(uncertain)
    short = sum(len(c.tokens) for c in clauses) <= rules.acceptance_max_tokens
    # "no, don't do that" holds "do that": a refusal accepts nothing. A short one that sets no rule
    # ("no thanks, not now"; unlike "no, never suggest that again") states nothing either.
    if REJECTION in hits and short and not any(family in hits for family in _STANDING):
        evidence = ()
        applied.append(RULE_REFUSAL)
    picks = len(clauses) <= 2 and rules.option_pick.match(" ".join(c.lowered for c in clauses)) is not None
    if not picks and sum(len(c.tokens) for c in clauses) <= rules.option_pick_max_tokens:
        # "A. keep sqlite", "B, the 2yr one": a capital option letter, then a few words about it.
        picks = rules.option_pick_with_words.match(" ".join(c.text for c in clauses)) is not None
    if picks:  # "ok option 2 then": the words of a pick say nothing of what was picked
        evidence = ()
    # A short choice accepts on its own ("sent it like that", "going with that one").
    accepts = (ACCEPTANCE in hits or CHOICE in hits or picks) and REJECTION not in hits and short
    return Durability(
        evidence=evidence,
        vetoed=False,
        rules=tuple(applied),
        cues=tuple(cues),
        uncertainty=rules.uncertainty_penalty if uncertain else 0.0,
        accepts_proposal=accepts,
        picks_option=picks,
    )


def proposal_clauses(clauses: Sequence[Clause], standing_offers: bool = False) -> tuple[Clause, ...]:
    """The assistant's statements and suggestions a user can accept. An offer to do work is none,
    unless `standing_offers` and it offers a standing rule ("want me to pin python to 3.11 for all
    your repos?") or a change to the user's setup ("I can add a pool with 3 slots"): a yes to that is
    the user's decision."""
    usable = {Mood.STATEMENT, Mood.LABELLED, Mood.HYPOTHETICAL, Mood.QUESTION}
    kept = _OFFERS_KEPT if standing_offers else frozenset()
    return tuple(
        clause
        for clause in clauses
        if clause.mood in usable
        and (
            not any(hit.cue.family == ASSISTANT_OFFER for hit in clause.hits)
            or any(hit.cue.family in kept for hit in clause.hits)
        )
    )


def offers_change(clause: Clause) -> bool:
    return any(hit.cue.family == OFFERED_CHANGE for hit in clause.hits)


def confirmation_cues(clauses: Sequence[Clause]) -> list[str]:
    return distinct_cues(hit for clause in clauses for hit in clause.hits if hit.cue.family == CONFIRMATION)
