"""Scores each memory type from its cue family in the clauses that may carry a memory.

Every type has one rule id (RULE_ID_BY_TYPE) and a weight in rules.toml, so a feedback loop can demote
a type that reviewers keep rejecting without touching its lexicon.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Final

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.candidate_rules import (
    COMMITMENT,
    CONFIG_RULE,
    WRITER_META,
    CandidateRules,
    TransferRules,
    type_family,
)
from pandora_memory.policy.clauses import Clause
from pandora_memory.policy.models import MemoryType
from pandora_memory.policy.shapes import opens_with_character

RULE_ID_BY_TYPE: Final[Mapping[MemoryType, str]] = MappingProxyType(
    {
        memory_type: f"candidate.type.{memory_type.value}"
        for memory_type in MemoryType
        if memory_type.value != "none"
    }
)
RULE_COMMITMENT: Final = "candidate.commitment"
RULE_CONFIG_KEY: Final = "candidate.transfer.config_key"
RULE_RISK_RULE: Final = "candidate.transfer.risk_rule"
CONFIG_KEY_PREFIX: Final = "config key: "
RISK_PREFIX: Final = "about the risk: "
RULE_RELATIONSHIP_AGREEMENT: Final = "candidate.transfer.relationship_agreement"
RELATIONSHIP_PREFIX: Final = "between people: "
RULE_BUSINESS_DECISION: Final = "candidate.transfer.business_decision"
BUSINESS_PREFIX: Final = "about the business: "
RULE_SETTING_DECISION: Final = "candidate.transfer.setting_decision"
SETTING_PREFIX: Final = "about the setting: "
RULE_CONFIG_RULE: Final = "candidate.transfer.config_rule"
CONFIG_RULE_PREFIX: Final = "setting kept: "
RULE_TASTE: Final = "candidate.transfer.taste"
TASTE_PREFIX: Final = "about the taste: "
# Cue-name prefixes of transferred evidence, and the rule each one cites.
TRANSFER_RULES: Final = (
    (CONFIG_KEY_PREFIX, RULE_CONFIG_KEY),
    (RISK_PREFIX, RULE_RISK_RULE),
    (RELATIONSHIP_PREFIX, RULE_RELATIONSHIP_AGREEMENT),
    (BUSINESS_PREFIX, RULE_BUSINESS_DECISION),
    (SETTING_PREFIX, RULE_SETTING_DECISION),
    (CONFIG_RULE_PREFIX, RULE_CONFIG_RULE),
    (TASTE_PREFIX, RULE_TASTE),
)
_FAMILY_TO_TYPE: Final = {type_family(t): t for t in RULE_ID_BY_TYPE}
_RULE_FAMILIES: Final = frozenset((COMMITMENT, CONFIG_RULE))


@dataclass(slots=True)
class TypeEvidence:
    """Evidence per memory type, with the distinct cues that produced it."""

    cue_weights: dict[MemoryType, dict[str, float]] = field(default_factory=dict)

    def add(self, memory_type: MemoryType, cue: str, weight: float) -> None:
        cues = self.cue_weights.get(memory_type)
        if cues is None:
            self.cue_weights[memory_type] = {cue: weight}
        elif weight > cues.get(cue, 0.0):
            cues[cue] = weight

    def raw(self, memory_type: MemoryType) -> float:
        return sum(self.cue_weights.get(memory_type, {}).values())

    def cues(self, memory_type: MemoryType) -> list[str]:
        return list(self.cue_weights.get(memory_type, {}))


@dataclass(frozen=True, slots=True)
class TypeScores:
    scores: Mapping[MemoryType, float]
    cues: Mapping[MemoryType, tuple[str, ...]]

    def ranked(self, priority: Sequence[MemoryType]) -> list[tuple[MemoryType, float]]:
        order = _priority_order(tuple(priority))
        unlisted = len(order)
        return sorted(self.scores.items(), key=lambda item: (-item[1], order.get(item[0], unlisted)))


@cache
def _priority_order(priority: tuple[MemoryType, ...]) -> dict[MemoryType, int]:
    """Built once per priority list (rules.toml has one), not on every turn."""
    return {memory_type: index for index, memory_type in enumerate(priority)}


def collect(clauses: Sequence[Clause], namespace: Namespace, rules: CandidateRules) -> TypeEvidence:
    """Cue hits, token shapes, clause labels and the few gated regexes, per memory type."""
    evidence = TypeEvidence()
    add = evidence.add
    type_of_family = _FAMILY_TO_TYPE.get
    shapes = rules.shapes
    transfer = rules.transfer
    for clause in clauses:
        for cue, _, _ in clause.hits:
            memory_type = type_of_family(cue.family)
            if memory_type is not None:
                add(memory_type, cue.text, cue.weight)
        if clause.shapes and not transfer.config_key_shapes.isdisjoint(clause.shapes):
            _config_key_transfer(clause, evidence, transfer.config_key_takes)
        if clause.shapes:
            # In rules.toml order: a set's iteration order changes between processes, and the cue
            # order (and the float sum of weights) must not.
            for shape, targets in shapes.evidence.items():
                if shape in clause.shapes:
                    for memory_type, weight in targets:
                        evidence.add(memory_type, shape.replace("_", " "), weight)
        labelled = shapes.label_types.get(clause.label) if clause.label else None
        if labelled is not None:
            evidence.add(labelled, f"{clause.label}:", shapes.label_weight)
        if namespace is Namespace.AU:
            if opens_with_character(clause.text, rules.people.not_names, rules.au.not_character_openers):
                evidence.add(MemoryType.AU_CANON, "character subject", rules.au.character_subject_weight)
            elif _opens_with_world_subject(clause.tokens, rules):
                evidence.add(MemoryType.AU_CANON, "world subject", rules.au.character_subject_weight)
    if clauses:
        lowered = "\n".join(clause.lowered for clause in clauses)
        for pattern in shapes.patterns:
            if pattern.search(lowered):
                for memory_type, cue in pattern.cues:
                    evidence.add(memory_type, cue.text, cue.weight)
    return evidence


def _opens_with_world_subject(tokens: Sequence[str], rules: CandidateRules) -> bool:
    """ "the harbour city sank in the long winter", "la plaza tiene dos torres", "등대는 폭풍 이후로 불이
    꺼졌어": a definite thing of the world, stated at some length."""
    au = rules.au
    if not tokens:
        return False
    first = tokens[0]
    if first.isascii() and len(tokens) > 2 and tokens[1] in au.world_subject_korean_particles:
        return True  # "MUNI는 ch.5에서 각성함": a name in Latin letters, then the Korean topic particle
    if first.isascii():
        return len(tokens) >= au.world_subject_min_words and first in au.world_subject_openers
    return (
        len(tokens) >= au.world_subject_korean_min_words
        and first.endswith(au.world_subject_korean_particles)
        and first not in au.not_world_subjects
    )


def _config_key_transfer(clause: Clause, evidence: TypeEvidence, takes: tuple[MemoryType, ...]) -> None:
    """A clause naming a config key ("decided LOG_LEVEL stays INFO"): its decision and deployment cues
    are about that key, so they count for env_config_decision too."""
    for cue, _, _ in clause.hits:
        memory_type = _FAMILY_TO_TYPE.get(cue.family)
        if memory_type in takes:
            evidence.add(MemoryType.ENV_CONFIG_DECISION, CONFIG_KEY_PREFIX + cue.text, cue.weight)


def _commits(clauses: Sequence[Clause]) -> bool:
    """A standing rule: "from now on", "never", "don't bump it", "in all my repos"."""
    return any(hit.cue.family in _RULE_FAMILIES for clause in clauses for hit in clause.hits)


def _holds(evidence: TypeEvidence, memory_type: MemoryType, at: float) -> bool:
    cues = evidence.cue_weights.get(memory_type)
    return cues is not None and sum(cues.values()) >= at


def _topic_transfer(
    evidence: TypeEvidence,
    topic: MemoryType,
    takes: tuple[MemoryType, ...],
    cues: frozenset[str],
    prefix: str,
    kept_by: tuple[MemoryType, ...] = (),
    kept_at: float = 0.0,
) -> None:
    """A turn plainly about a risk, a relationship or the business: its rules and agreements are about
    that topic ("card debt at 9k. rule: no new purchases", "Noor and I agreed on a no-phones dinner
    every thursday"). The `takes` types' cues among `cues` count for the topic too, unless a `kept_by`
    type holds a cue worth `kept_at` outside `cues`: the turn is about that, too."""
    found = evidence.cue_weights
    for memory_type in kept_by:
        if any(w >= kept_at and cue not in cues for cue, w in found.get(memory_type, {}).items()):
            return
    for memory_type in takes:
        for cue, weight in list(found.get(memory_type, {}).items()):
            if cue in cues:
                evidence.add(topic, prefix + cue, weight)


def _transfer_topics(
    evidence: TypeEvidence, clauses: Sequence[Clause], has_person: bool, transfer: TransferRules
) -> None:
    """The risk, relationship, business and config-rule transfers, added to `evidence` itself so the
    turn's cues show them."""
    generic = transfer.generic_decision_cues
    deployment = evidence.cue_weights.get(MemoryType.DEPLOYMENT_TRUTH)
    names_setting = deployment is not None and not transfer.config_rule_setting_cues.isdisjoint(deployment)
    if names_setting and _commits(clauses):
        _topic_transfer(
            evidence,
            MemoryType.ENV_CONFIG_DECISION,
            transfer.config_rule_takes,
            transfer.config_rule_setting_cues,
            CONFIG_RULE_PREFIX,
        )
    if _holds(evidence, MemoryType.RISK, transfer.risk_takes_at):
        _topic_transfer(evidence, MemoryType.RISK, transfer.risk_takes, transfer.risk_takes_cues, RISK_PREFIX)
    if has_person and MemoryType.PROJECT_DECISION in evidence.cue_weights:
        strong = _holds(evidence, MemoryType.RELATIONSHIP_LOOP, transfer.relationship_takes_at)
        _topic_transfer(
            evidence,
            MemoryType.RELATIONSHIP_LOOP,
            transfer.relationship_takes,
            generic,
            RELATIONSHIP_PREFIX,
            kept_by=transfer.relationship_kept_by,
            # With no relationship cue, a plan made with a person is kept by any cue of another topic.
            kept_at=transfer.relationship_takes_at if strong else 0.0,
        )
    if has_person:
        _relationship_state_transfer(evidence, transfer)
    _taste_transfer(evidence, transfer)
    # A setting or the business, named by one strong cue, takes the turn's generic decision wording.
    strong_topics = (
        (
            MemoryType.ENV_CONFIG_DECISION,
            transfer.setting_takes_at,
            transfer.setting_takes,
            transfer.setting_kept_by,
            SETTING_PREFIX,
        ),
        (
            MemoryType.BUSINESS_PRIORITY,
            transfer.business_takes_at,
            transfer.business_takes,
            transfer.business_kept_by,
            BUSINESS_PREFIX,
        ),
    )
    for topic, takes_at, takes, kept_by, prefix in strong_topics:
        if _holds(evidence, topic, takes_at):
            _topic_transfer(evidence, topic, takes, generic, prefix, kept_by=kept_by, kept_at=takes_at)


def _relationship_state_transfer(evidence: TypeEvidence, transfer: TransferRules) -> None:
    """A turn about a strained relationship with someone named ("Priyanka and I still aren't talking
    since the argument"): what the user still has to do ("I need to message her before friday") is the
    relationship's loop, so its open-loop cues count for the relationship too."""
    loops = evidence.cue_weights.get(MemoryType.OPEN_LOOP)
    state = evidence.cue_weights.get(MemoryType.RELATIONSHIP_LOOP)
    if loops and state and not transfer.relationship_state_cues.isdisjoint(state):
        relationship = MemoryType.RELATIONSHIP_LOOP
        _topic_transfer(
            evidence, relationship, (MemoryType.OPEN_LOOP,), frozenset(loops), RELATIONSHIP_PREFIX
        )


def _taste_transfer(evidence: TypeEvidence, transfer: TransferRules) -> None:
    """A turn with a strong preference cue: its standing-rule words are the taste's ("i'd rather you
    never invent named characters", "always use the Irish spellings"). They move: in the fiction they
    no longer also count for its canon."""
    if not _holds(evidence, MemoryType.PREFERENCE, transfer.taste_takes_at):
        return
    cues = transfer.taste_takes_cues
    _topic_transfer(evidence, MemoryType.PREFERENCE, transfer.taste_takes, cues, TASTE_PREFIX)
    for memory_type in transfer.taste_takes:
        found = evidence.cue_weights.get(memory_type)
        if found:
            for cue in cues.intersection(found):
                del found[cue]


def score(
    evidence: TypeEvidence,
    clauses: Sequence[Clause],
    namespace: Namespace,
    has_person: bool,
    rules: CandidateRules,
) -> TypeScores:
    """Turns raw evidence into capped, weighted scores for the types allowed in this namespace, after
    the topic transfers."""
    _transfer_topics(evidence, clauses, has_person, rules.transfer)
    scores: dict[MemoryType, float] = {}
    cues: dict[MemoryType, tuple[str, ...]] = {}
    meta = namespace is Namespace.AU and any(
        hit.cue.family == WRITER_META for clause in clauses for hit in clause.hits
    )
    folded = 0.0
    folded_cues: list[str] = []
    found = evidence.cue_weights
    for memory_type, type_rules in rules.types.items():
        # Inlined evidence.raw / evidence.cues: this runs for every type on every turn.
        type_cues = found.get(memory_type)
        raw = sum(type_cues.values()) if type_cues else 0
        if type_rules.needs_person and not has_person:
            raw = 0.0
        writing = meta and memory_type in rules.au.writing_types
        if namespace is Namespace.AU and memory_type in rules.real_life_only_types and not writing:
            if not meta:  # a turn about the writing says nothing of the fiction through these cues
                folded += raw * rules.au_fold_factor
                folded_cues.extend(type_cues if raw and type_cues else [])
            continue
        if namespace is Namespace.REAL_LIFE and memory_type is MemoryType.AU_CANON:
            continue
        scores[memory_type] = raw
        cues[memory_type] = tuple(type_cues) if raw and type_cues else ()
    if namespace is Namespace.AU:
        canon = (
            scores.get(MemoryType.AU_CANON, 0.0) + folded - (rules.au.writer_meta_penalty if meta else 0.0)
        )
        scores[MemoryType.AU_CANON] = max(canon, 0.0)
        cues[MemoryType.AU_CANON] = (*cues.get(MemoryType.AU_CANON, ()), *folded_cues)
    for memory_type in scores:
        scores[memory_type] = min(scores[memory_type], rules.type_cap) * rules.types[memory_type].weight
    return TypeScores(scores, cues)


def commitment(clauses: Iterable[Clause]) -> tuple[float, tuple[str, ...]]:
    """General commitment and finality ("from now on", "no exceptions", "always"): distinct cues summed."""
    weights: dict[str, float] = {}
    for clause in clauses:
        for hit in clause.hits:
            if hit.cue.family == COMMITMENT:
                weights[hit.cue.text] = hit.cue.weight
    return sum(weights.values()), tuple(weights)
