"""Reads an already-redacted turn into a verdict: candidate or not, which memory type, how sure.

Evidence is the winning type's cues plus general commitment, the declarative shape of the statement
and the assistant's confirmation, minus uncertainty and feelings of the moment; it must reach the
threshold, and confidence is a logistic curve of how far past it the evidence goes.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pandora_memory.namespaces import Namespace
from pandora_memory.policy import durability, memory_types, statement
from pandora_memory.policy.candidate_rules import (
    ASSISTANT_OFFER,
    CHOICE,
    GRATITUDE,
    PERSON_IMPLIED,
    SENSITIVITY_FAMILIES,
    CandidateRules,
)
from pandora_memory.policy.clauses import Clause, Mood, hits_by_family, read_text
from pandora_memory.policy.learned_words import CANDIDATE, NOT_CANDIDATE, choose, learned_words
from pandora_memory.policy.lexicon import Hit
from pandora_memory.policy.memory_types import RULE_ID_BY_TYPE, TypeEvidence
from pandora_memory.policy.models import MemoryType
from pandora_memory.policy.people import PERSON_SUBJECT, leads_with_person, names_someone, person_cues

RULE_NO_STATEMENT = "candidate.no_durable_statement"
RULE_BELOW_THRESHOLD = "candidate.below_threshold"
RULE_ASSISTANT_ACCEPTED = "candidate.assistant.accepted"
RULE_ASSISTANT_CONFIRMED = "candidate.assistant.confirmed"
RULE_ASSISTANT_IGNORED = "candidate.assistant.ignored"
RULE_FALLBACK_TYPE = "candidate.type.fallback"
RULE_CHOSEN = "candidate.assistant.chosen"
RULE_THANKED = "candidate.assistant.thanked"
RULE_LEARNED_TYPE = "candidate.type.learned"
RULE_LEARNED_CANDIDATE = "candidate.learned_lift"
_PRIVATE = SENSITIVITY_FAMILIES["private"]


@dataclass(slots=True)
class Reading:
    """What the classifier concluded about the (redacted) turn, before status and review."""

    memory_type: MemoryType = MemoryType.NONE
    # The type the rules' evidence points at (the counts' own where a lifted turn had none);
    # memory_type may differ where the learned words chose another. Review and sensitivity follow the
    # evidence, the label the choice.
    evidence_type: MemoryType = MemoryType.NONE
    is_candidate: bool = False
    confidence: float = 0.0
    from_assistant: bool = False
    rules: list[str] = field(default_factory=list)
    cues: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    summary_clauses: tuple[Clause, ...] = ()
    person_clauses: tuple[Clause, ...] = ()
    # The reply's proposals when they backed the user's own words ("yes, hold me to it" after "you
    # check the brokerage on Sundays only"): what the memory is about, so its sensitivity counts.
    supporting_clauses: tuple[Clause, ...] = ()
    people: list[str] = field(default_factory=list)

    @property
    def about_clauses(self) -> tuple[Clause, ...]:
        """The clauses the memory is about: the user's, and the reply's where it was accepted or
        backed the user's words."""
        return (*self.person_clauses, *self.supporting_clauses)

    @property
    def reply_counts(self) -> bool:
        return self.from_assistant or bool(self.supporting_clauses)

    def cite(self, rule: str, cues: Sequence[str] = (), note: str = "") -> None:
        if rule not in self.rules:
            self.rules.append(rule)
        known = self.cues
        for cue in cues:  # a plain loop: most calls pass no cues, and a generator costs a frame
            if cue not in known:
                known.append(cue)
        if note:
            self.notes.append(note)


@dataclass(slots=True)
class _Gathered:
    """Evidence from the user's durable clauses, and from the reply when it counts."""

    types: TypeEvidence
    commitment: float
    commitment_cues: tuple[str, ...]
    summary_clauses: tuple[Clause, ...]
    bonus: float = 0.0
    chosen: bool = False  # the user picked one of the assistant's proposals ("go with B")


def quoted(cues: Sequence[str]) -> str:
    return ", ".join(f"'{cue}'" for cue in cues)


def _sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


def _logit(probability: float) -> float:
    return math.log(probability / (1.0 - probability))


def read_turn(
    user: Sequence[Clause],
    user_hits: Mapping[str, Sequence[Hit]],
    assistant_text: str | None,
    namespace: Namespace,
    rules: CandidateRules,
    words: str,
) -> Reading:
    """`user_hits` is hits_by_family(user); the reply is read only when it can matter. `words` is the
    turn's text as the learned word counts read it (learned_words.py)."""
    reading = Reading(person_clauses=tuple(user))
    verdict = durability.assess_user(user, user_hits, rules)
    if verdict.vetoed:
        reading.people = person_cues(" ".join(c.text for c in user), user_hits, rules)
        reading.confidence = rules.veto_confidence
        reading.cite(
            durability.RULE_DISCLAIMER, verdict.cues, f"user disclaimed the turn ({quoted(verdict.cues)})"
        )
        return reading
    _note_verdict(reading, verdict)
    gathered = _gather(reading, verdict, user_hits, assistant_text, namespace, rules)
    about = reading.about_clauses
    person_hits = hits_by_family(about) if reading.reply_counts else user_hits
    reading.people = person_cues(" ".join(c.text for c in about), person_hits, rules)
    _conclude(reading, verdict, gathered, user_hits, namespace, rules, words)
    return reading


def _plain_statement(
    verdict: durability.Durability,
    momentary_penalty: float,
    gathered: _Gathered,
    clauses: Sequence[Clause],
    rules: CandidateRules,
) -> bool:
    """A statement the user made in their own words with nothing that weakens it: no hedge or
    retraction, nothing of the moment, no question, hypothetical, request or reported clause set aside,
    no reply it leans on, no banter. Writers file such facts even when few cue words back them."""
    if verdict.uncertainty or verdict.cues or momentary_penalty or gathered.bonus:
        return False
    if any(rule in _SKIPPED_MOOD_RULES for rule in verdict.rules):
        return False
    breaking = rules.statement.plain_breaking_words
    return all(breaking.isdisjoint(clause.tokens) for clause in clauses) and not any(
        mark in clause.lowered for clause in clauses for mark in rules.statement.plain_breaking_marks
    )


_SKIPPED_MOOD_RULES = frozenset(durability.RULE_SKIPPED_MOOD.values())


def _note_verdict(reading: Reading, verdict: durability.Durability) -> None:
    for rule in verdict.rules:
        reading.cite(rule)
    if verdict.cues:
        reading.cues.extend(cue for cue in verdict.cues if cue not in reading.cues)
        reading.notes.append(f"took back or unsure ({quoted(verdict.cues)})")
    skipped = [r.rsplit(".", 1)[1] for r in verdict.rules if r in durability.RULE_SKIPPED_MOOD.values()]
    if skipped:
        reading.notes.append(f"skipped {', '.join(skipped)} clauses")


def _gather(
    reading: Reading,
    verdict: durability.Durability,
    user_hits: Mapping[str, Sequence[Hit]],
    assistant_text: str | None,
    namespace: Namespace,
    rules: CandidateRules,
) -> _Gathered:
    types = memory_types.collect(verdict.evidence, namespace, rules)
    commitment, commitment_cues = memory_types.commitment(verdict.evidence)
    gathered = _Gathered(types, commitment, commitment_cues, verdict.evidence)
    # The largest TypeEvidence.raw over the types the namespace allows ("always" is an au_canon cue too,
    # which a real-life turn cannot be).
    barred = None if namespace is Namespace.AU else MemoryType.AU_CANON
    allowed = (sum(cues.values()) for kind, cues in types.cue_weights.items() if kind is not barred)
    own = max(allowed, default=0.0) + commitment
    has_signal = own > 0.0
    # A yes whose own words only say a decision was made ("lock it in", "that's the plan") still accepts
    # the proposal: what was decided is in the reply.
    decided_only = {kind for kind, cues in types.cue_weights.items() if kind is not barred and cues} == {
        MemoryType.PROJECT_DECISION
    }
    accepting = verdict.accepts_proposal and (own < rules.threshold or decided_only)
    if not assistant_text:
        return gathered
    if not (accepting or has_signal):
        reading.cite(RULE_ASSISTANT_IGNORED, note="the assistant's reply alone is not the user's memory")
        return gathered
    reply = read_text(assistant_text, rules)
    proposals = durability.proposal_clauses(reply)
    # A "yes" answers the whole reply, offers included ("want me to track your card spending?"): what
    # the memory is about, for its people and sensitivity, even where the offer adds no type evidence.
    affirmed = tuple(reply) if verdict.accepts_proposal else proposals
    if accepting and GRATITUDE in user_hits and not _proposes(reply, rules):
        accepting = False
        reading.cite(RULE_THANKED, note="thanks for an answer that proposed nothing")
        if not has_signal:
            return gathered
    accepted = durability.proposal_clauses(reply, standing_offers=True) if accepting else ()
    if verdict.picks_option:
        # "B" after "(A) ..., or (B) ...? Which one?": the options are the choice, not the asking.
        accepted = tuple(clause for clause in accepted if clause.mood is not Mood.QUESTION) or accepted
    if accepted:
        # The user said "yes, do that": the assistant's proposal is what they accepted.
        _add_scaled(types, memory_types.collect(accepted, namespace, rules), rules.accepted_assistant_factor)
        extra, extra_cues = memory_types.commitment(accepted)
        gathered.commitment += extra * rules.accepted_assistant_factor
        gathered.commitment_cues += extra_cues
        gathered.bonus += rules.acceptance_bonus
        gathered.summary_clauses = accepted
        gathered.chosen = (CHOICE in user_hits or verdict.picks_option) and any(
            rules.proposal_words.search(clause.lowered) or durability.offers_change(clause)
            for clause in accepted
        )
        reading.from_assistant = True
        reading.person_clauses = (*reading.person_clauses, *affirmed)
        reading.cite(RULE_ASSISTANT_ACCEPTED, note="user accepted the assistant's proposal")
    elif has_signal:
        # The reply only supports what the user already said ("Got it, short bullets from now on").
        _add_scaled(
            types, memory_types.collect(proposals, namespace, rules), rules.assistant_support_factor, "reply"
        )
        reading.supporting_clauses = affirmed
        confirmed = durability.confirmation_cues(reply)
        if confirmed:
            gathered.bonus += rules.confirmation_bonus
            reading.cite(RULE_ASSISTANT_CONFIRMED, confirmed, f"assistant confirmed ({quoted(confirmed)})")
    return gathered


def _learned_choice(
    ranked: Sequence[tuple[MemoryType, float]], words: str, namespace: Namespace, rules: CandidateRules
) -> MemoryType | None:
    # Fiction has one type of its own (au_canon) and the writing's: the rules tell them apart. A
    # real-life memory is never au_canon, so the probabilities are among the other types.
    if namespace is not Namespace.REAL_LIFE:
        return None
    probabilities = _real_life_type_probabilities(words, rules)
    chosen = choose(
        [(kind.value, score) for kind, score in ranked],
        probabilities,
        rules.learned_type_weight,
        rules.learned_type_without_evidence,
    )
    if chosen is None or probabilities[chosen] < rules.learned_type_min_probability:
        return None  # the words do not clearly say which
    return MemoryType(chosen)


def _real_life_type_probabilities(words: str, rules: CandidateRules) -> dict[str, float]:
    counts = learned_words("types", rules.learned_smoothing)
    real_life_types = [label for label in counts.labels if label != MemoryType.AU_CANON.value]
    return counts.probabilities(words, Namespace.REAL_LIFE.value, real_life_types)


def _likeliest_type(words: str, namespace: Namespace, rules: CandidateRules) -> MemoryType:
    """The type of a turn the rules saw no type in: the fiction's own, or the type counts' likeliest."""
    if namespace is not Namespace.REAL_LIFE:
        return rules.fallback_type[namespace.value]
    probabilities = _real_life_type_probabilities(words, rules)
    return MemoryType(max(probabilities, key=probabilities.__getitem__))


def _learned_lift(
    reading: Reading,
    verdict: durability.Durability,
    momentary: bool,
    short_by: float,
    words: str,
    namespace: Namespace,
    rules: CandidateRules,
) -> bool:
    """A plain statement (the rules' own reading) a little short of the threshold is a candidate when
    it reads like the turns labeled as holding a memory: the candidate counts add
    `learned_candidate_log_odds` times their log-odds, at most `learned_candidate_lift` (rules.toml).
    Not where anything was taken back, hedged, asked, refused or of the moment, nor where the reply was
    set aside."""
    reach = rules.learned_candidate_lift
    if short_by > reach or verdict.rules or momentary:
        return False
    if RULE_ASSISTANT_IGNORED in reading.rules or RULE_THANKED in reading.rules:
        return False
    counts = learned_words("candidate", rules.learned_smoothing)
    log_odds = counts.log_odds(words, namespace.value, CANDIDATE, NOT_CANDIDATE)
    if min(reach, rules.learned_candidate_log_odds * log_odds) < short_by:
        return False
    telling = counts.telling_words(words, namespace.value, CANDIDATE, NOT_CANDIDATE)
    reading.cite(RULE_LEARNED_CANDIDATE, telling, f"reads like turns labeled as memories ({quoted(telling)})")
    return True


def _proposes(reply: Sequence[Clause], rules: CandidateRules) -> bool:
    """The reply offers something to accept: a question to the user, an idea, an offer, a proposal's words."""
    return any(
        clause.mood in (Mood.QUESTION, Mood.HYPOTHETICAL)
        or clause.lowered.endswith("?")
        or any(hit.cue.family == ASSISTANT_OFFER for hit in clause.hits)
        or rules.proposal_words.search(clause.lowered)
        for clause in reply
    )


def _add_scaled(into: TypeEvidence, extra: TypeEvidence, factor: float, only_known: str = "") -> None:
    """Adds another reading's evidence at `factor`; with `only_known`, only to types already present,
    under cue names prefixed by it."""
    for memory_type, cues in extra.cue_weights.items():
        if only_known and memory_type not in into.cue_weights:
            continue
        for cue, weight in cues.items():
            into.add(memory_type, f"{only_known}: {cue}" if only_known else cue, weight * factor)


def _conclude(
    reading: Reading,
    verdict: durability.Durability,
    gathered: _Gathered,
    user_hits: Mapping[str, Sequence[Hit]],
    namespace: Namespace,
    rules: CandidateRules,
    words: str,
) -> None:
    # Only a type that needs a person makes the name check worth running.
    needs_person = any(rules.types[t].needs_person for t in gathered.types.cue_weights)
    summary_text = " ".join(c.text for c in gathered.summary_clauses) if needs_person else ""
    # An intimate detail ("said I love you") or a quarrel ("we had a big fight") involves someone even
    # unnamed.
    implied = _PRIVATE in user_hits or PERSON_IMPLIED in user_hits
    has_person = bool(reading.people) or implied or (needs_person and names_someone(summary_text, rules))
    # A statement about someone, unless what is left of it follows a take-back ("...but forget it, the
    # landlord handles it": the reason for dropping it is no memory).
    if (
        namespace is Namespace.REAL_LIFE
        and reading.people
        and gathered.summary_clauses
        and durability.RULE_RETRACTION not in verdict.rules
    ):
        lead = gathered.summary_clauses[0]
        if leads_with_person(lead.text, lead.hits, rules):
            gathered.types.add(MemoryType.RELATIONSHIP_LOOP, PERSON_SUBJECT, rules.people.subject_weight)
    scores = memory_types.score(gathered.types, verdict.evidence, namespace, has_person, rules)
    ranked = scores.ranked(rules.type_priority)
    best_type, best = ranked[0] if ranked else (MemoryType.NONE, 0.0)
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    weak = best < rules.statement.min_type_evidence
    fallback = weak and gathered.commitment >= rules.threshold
    chosen = weak and not fallback and gathered.chosen
    if fallback:
        best_type = rules.fallback_type[namespace.value]
    elif chosen:
        real_life = namespace is Namespace.REAL_LIFE
        by_person = real_life and has_person
        best_type = rules.chosen_type_with_person if by_person else rules.chosen_type[namespace.value]
    eligible = not weak or fallback or chosen
    declarative = statement.support(gathered.summary_clauses, rules)
    penalty, momentary = statement.momentary(user_hits, rules)
    earned = best + gathered.commitment + declarative.score + gathered.bonus if eligible else best
    total = earned - verdict.uncertainty - penalty
    plain = _plain_statement(verdict, penalty, gathered, reading.about_clauses, rules)
    threshold = rules.plain_statement_threshold if plain else rules.threshold
    if chosen:  # the choice itself is the memory: it reaches the threshold, no further
        total = max(total, threshold)
    if momentary:
        reading.cite(statement.RULE_MOMENTARY, momentary, f"of the moment ({quoted(momentary)})")
    reading.summary_clauses = gathered.summary_clauses
    base_logit = _logit(rules.confidence_at_threshold)

    lifted = (
        plain
        and (total < threshold or not eligible)
        and (total > 0.0 or bool(verdict.evidence))
        and _learned_lift(reading, verdict, bool(momentary), threshold - total, words, namespace, rules)
    )
    # Lifted without a type of the rules': the one the counts make likeliest.
    typed_by_counts = lifted and best <= 0.0
    if lifted:
        total, eligible = threshold, True
        if typed_by_counts:
            best_type = _likeliest_type(words, namespace, rules)
    if total < threshold or not eligible:
        reading.confidence = _sigmoid(base_logit + rules.confidence_slope * (threshold - total))
        if total <= 0.0 and not verdict.evidence:
            reading.cite(RULE_NO_STATEMENT, note="no durable statement")
        else:
            closest = f" (closest type {best_type.value})" if best > 0 else ""
            note = f"evidence {total:.2f} below threshold {threshold:.2f}{closest}"
            reading.cite(RULE_BELOW_THRESHOLD, note=note)
        return

    logit = base_logit + rules.confidence_slope * (total - threshold)
    if best > 0.0:
        logit -= rules.ambiguity_penalty * (runner_up / best)
    if fallback or chosen:
        logit -= rules.ambiguity_penalty
    if reading.from_assistant:
        logit -= rules.assistant_derived_penalty
    reading.is_candidate = True
    reading.evidence_type = best_type
    # A type the counts gave a lifted turn is their only contender: there is nothing left to choose.
    by_rules = not (fallback or chosen or typed_by_counts)
    learned = _learned_choice(ranked, words, namespace, rules) if by_rules else None
    if learned is not None and learned is not best_type:
        counts = learned_words("types", rules.learned_smoothing)
        telling = counts.telling_words(words, namespace.value, learned.value, best_type.value)
        note = f"learned words favour {learned.value} over {best_type.value} ({quoted(telling)})"
        reading.cite(RULE_LEARNED_TYPE, telling, note)
        best_type = learned
    reading.memory_type = best_type
    reading.confidence = _sigmoid(logit)
    type_cues = list(scores.cues.get(best_type, ()))
    if fallback:
        reading.cite(RULE_FALLBACK_TYPE, note=f"only commitment cues; filed as {best_type.value}")
    elif chosen:
        reading.cite(RULE_CHOSEN, note=f"user chose the assistant's proposal; filed as {best_type.value}")
    by_counts = learned is not None or typed_by_counts
    basis = "the user's choice" if chosen else "the learned words" if by_counts else "commitment alone"
    for prefix, rule in memory_types.TRANSFER_RULES:
        if any(cue.startswith(prefix) for cue in type_cues):
            reading.cite(rule)
    reading.cite(
        RULE_ID_BY_TYPE[best_type],
        type_cues,
        f"{best_type.value} from {quoted(type_cues) or basis} (evidence {total:.2f})",
    )
    if gathered.commitment_cues:
        commitment_note = f"commitment ({quoted(gathered.commitment_cues)})"
        reading.cite(memory_types.RULE_COMMITMENT, gathered.commitment_cues, commitment_note)
    if declarative.score:
        statement_note = f"declarative statement ({declarative.score:.2f})"
        reading.cite(statement.RULE_STATEMENT, declarative.cues, statement_note)
