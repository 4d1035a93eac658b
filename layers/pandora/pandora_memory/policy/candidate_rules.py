"""The `[candidate]` section of rules.toml, compiled once per process into one phrase index and a few
gated regexes. Nothing here decides anything; it only gives the policy modules fast, typed access.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pandora_memory.policy.lexicon import Cue, PhraseIndex, cue_texts
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.policy.rules import section
from pandora_memory.policy.text import cue_pattern

TIERS = ("strong", "medium", "weak")

# Families of cues in the one phrase index; type families are "type.<memory_type>".
COMMITMENT = "commitment"
RETRACTION = "retraction"
CORRECTION = "correction"
RETRACTION_REASON = "retraction_reason"
DISCLAIMER = "disclaimer"
UNCERTAINTY = "uncertainty"
ACCEPTANCE = "acceptance"
REJECTION = "rejection"
CHOICE = "choice"
GRATITUDE = "gratitude"
CONFIG_RULE = "config_rule"
CONFIRMATION = "confirmation"
ASSISTANT_OFFER = "assistant_offer"
OFFERED_CHANGE = "offered_change"
RECALL = "recall"
STANDING_SCOPE = "standing_scope"
HYPOTHETICAL = "hypothetical"
HEARSAY = "hearsay"
REQUEST = "request"
KIN = "kin"
COMPANION = "companion"
PERSON_IMPLIED = "person_implied"
PRONOUN = "pronoun"
WRITER_META = "writer_meta"
STABILITY = "stability"
MOMENTARY = "momentary"
MOMENTARY_TIME = "momentary_time"
DATE_WORD = "date_word"
SENSITIVITY_FAMILIES = {
    "private_any_namespace": "sens.private_any",
    "private": "sens.private",
    "high": "sens.high",
    "medium": "sens.medium",
}


def type_family(memory_type: MemoryType) -> str:
    return f"type.{memory_type.value}"


@dataclass(frozen=True, slots=True)
class GatedPattern:
    """A regex for what tokens cannot show, and the cues its match gives (one per memory type).

    The regex runs only when one of the `needs` substrings is in the text: a few substring tests
    cost far less than a regex scan (or a regex alternation of the needles). rules.toml entries
    with the same regex and needs share one GatedPattern, so that regex runs once per text."""

    regex: re.Pattern[str]
    needs: tuple[str, ...]
    cues: tuple[tuple[MemoryType, Cue], ...]

    def search(self, lowered: str) -> bool:
        return any(map(lowered.__contains__, self.needs)) and self.regex.search(lowered) is not None


@dataclass(frozen=True, slots=True)
class TypeRules:
    memory_type: MemoryType
    label: str
    weight: float
    needs_person: bool


@dataclass(frozen=True, slots=True)
class MoodRules:
    fillers: frozenset[str]
    wh_always: frozenset[str]
    wh_maybe: frozenset[str]
    aux: frozenset[str]
    aux_always: frozenset[str]
    subjects: frozenset[str]
    addressees: frozenset[str]
    aux_before_determiner: frozenset[str]
    determiners: frozenset[str]
    aux_before_alternatives: frozenset[str]
    question_tags: frozenset[str]
    own_world: frozenset[str]
    hearsay_words: frozenset[str]
    label_prefix: re.Pattern[str]
    request_openers: frozenset[str]
    polite_openers: frozenset[str]
    material_pointers: frozenset[str]
    request_endings: tuple[str, ...]
    question_endings: tuple[str, ...]
    korean_question_words: frozenset[str]
    korean_question_endings: tuple[str, ...]
    pasted_lead_max_words: int


@dataclass(frozen=True, slots=True)
class ShapeRules:
    top_level_domains: frozenset[str]
    evidence: Mapping[str, tuple[tuple[MemoryType, float], ...]]
    patterns: tuple[GatedPattern, ...]
    label_types: Mapping[str, MemoryType]
    label_weight: float


@dataclass(frozen=True, slots=True)
class StatementRules:
    base: float
    min_tokens: int
    specific: float
    max_specifics: int
    stability_cap: float
    min_type_evidence: float
    momentary_penalty: float
    momentary_time_weight: float
    specific_shapes: frozenset[str]
    intensifiers: frozenset[str]
    plain_breaking_words: frozenset[str]
    plain_breaking_marks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PeopleRules:
    """Context that shows a capitalised word names a person: words after it, before it, or what it owns."""

    name: re.Pattern[str]
    after: tuple[str, ...]
    before: tuple[str, ...]
    possessed: tuple[str, ...]
    not_names: frozenset[str]
    companion_max_start: int
    korean_name: re.Pattern[str]
    lowercase_companion: re.Pattern[str]  # "matilde랑": a name only where the cue is about people
    lowercase_name: re.Pattern[str]
    not_lowercase_names: frozenset[str]
    contacted_name: re.Pattern[str]
    not_contacted_names: frozenset[str]
    contacted_thing_endings: tuple[str, ...]
    contacted_name_endings_in_s: tuple[str, ...]
    subject_weight: float
    subject_reach: int


@dataclass(frozen=True, slots=True)
class AuRules:
    character_subject_weight: float
    not_character_openers: frozenset[str]  # lower-cased common words that open sentences
    world_subject_openers: frozenset[str]
    world_subject_min_words: int
    world_subject_korean_particles: tuple[str, ...]
    world_subject_korean_min_words: int
    not_world_subjects: frozenset[str]
    writer_meta_penalty: float
    writing_types: frozenset[MemoryType]


@dataclass(frozen=True, slots=True)
class TransferRules:
    """Context in which one type's evidence also counts for another (see [candidate.transfer])."""

    config_key_shapes: frozenset[str]
    config_key_takes: tuple[MemoryType, ...]
    risk_takes_at: float
    risk_takes: tuple[MemoryType, ...]
    risk_takes_cues: frozenset[str]
    generic_decision_cues: frozenset[str]
    relationship_takes_at: float
    relationship_takes: tuple[MemoryType, ...]
    relationship_kept_by: tuple[MemoryType, ...]
    relationship_state_cues: frozenset[str]
    business_takes_at: float
    business_takes: tuple[MemoryType, ...]
    business_kept_by: tuple[MemoryType, ...]
    setting_takes_at: float
    setting_takes: tuple[MemoryType, ...]
    setting_kept_by: tuple[MemoryType, ...]
    config_rule_takes: tuple[MemoryType, ...]
    config_rule_setting_cues: frozenset[str]
    taste_takes_at: float
    taste_takes: tuple[MemoryType, ...]
    taste_takes_cues: frozenset[str]


@dataclass(frozen=True, slots=True)
class SensitivityRules:
    private_shapes: frozenset[str]
    type_floor: Mapping[MemoryType, Sensitivity]
    secret_floor: Sensitivity
    person_level: Sensitivity
    health_min_chars: int
    health_suffixes: tuple[str, ...]
    not_health_words: frozenset[str]
    street_address: re.Pattern[str]
    own_identifier: re.Pattern[str]
    address_words: frozenset[str]
    address_suffixes: tuple[str, ...]
    identifier_words: frozenset[str]


@dataclass(frozen=True, slots=True)
class CandidateRules:
    phrases: PhraseIndex
    mood: MoodRules
    statement: StatementRules
    shapes: ShapeRules
    people: PeopleRules
    au: AuRules
    transfer: TransferRules
    sensitivity: SensitivityRules
    types: Mapping[MemoryType, TypeRules]
    type_priority: tuple[MemoryType, ...]
    learned_smoothing: float
    learned_type_weight: float
    learned_type_min_probability: float
    learned_type_without_evidence: float
    learned_sensitive_probability: float
    learned_candidate_log_odds: float
    learned_candidate_lift: float
    real_life_only_types: frozenset[MemoryType]
    fallback_type: Mapping[str, MemoryType]
    chosen_type: Mapping[str, MemoryType]
    proposal_words: re.Pattern[str]
    chosen_type_with_person: MemoryType
    summary_fillers: re.Pattern[str]
    summary_filler_words: frozenset[str]
    threshold: float
    plain_statement_threshold: float
    type_cap: float
    confidence_at_threshold: float
    confidence_slope: float
    ambiguity_penalty: float
    assistant_derived_penalty: float
    review_below_confidence: float
    review_types: frozenset[MemoryType]
    review_when_person: bool
    review_when_money: bool
    money_pattern: GatedPattern
    own_money_words: frozenset[str]
    own_money_stems: tuple[str, ...]
    money_nouns: frozenset[str]
    bare_amount: re.Pattern[str]
    veto_confidence: float
    uncertainty_penalty: float
    hedges_of_the_user_only: frozenset[str]
    first_person: frozenset[str]
    accepted_assistant_factor: float
    acceptance_bonus: float
    assistant_support_factor: float
    confirmation_bonus: float
    acceptance_max_tokens: int
    option_pick: re.Pattern[str]
    option_pick_with_words: re.Pattern[str]
    option_pick_max_tokens: int
    retraction_final: frozenset[str]
    retraction_alone: frozenset[tuple[str, ...]]
    retracted_topic_words: frozenset[str]
    max_classified_chars: int
    summary_max_chars: int
    au_fold_factor: float


def _alternation(words: Iterable[str]) -> str:
    ordered = sorted({w.lower() for w in words}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


# The name patterns open on a character class, with the word-start check as a lookbehind after it:
# the regex engine then skips ahead to candidate characters instead of testing a lookbehind at every
# position of the message (several times faster on Korean text). Latin letters run possessively:
# the particles after them are Hangul, so giving letters back never helps.


# Tools "say" things too ("python says the module is missing", "aws says AccessDenied"): a lower-case
# word before these is read as no name.
REPORTING_ENDINGS = (" says", " said")


def lowercase_name_pattern(verbs: Iterable[str]) -> re.Pattern[str]:
    """At a sentence start: a word, maybe an adverb, then a verb only people do ("felix apologised",
    "jens wants me to"): a name typed in lower case, in group 1."""
    return re.compile(
        r"(?:^|[.!?] )([a-z][a-z'\-]{2,}) (?:(?:still|just|finally|also|already|never|really) )?"
        rf"(?:{_alternation(verbs)})\b"
    )


def contacted_name_pattern(verbs: Iterable[str], then: Iterable[str]) -> re.Pattern[str]:
    """A verb of contact, a lower-case word (group 1), then a word that goes on from a person or the
    clause's end ("owe noor an answer", "chase ruairi for", "ring dougie.")."""
    return re.compile(
        rf"\b(?:{_alternation(verbs)}) ([a-z][a-z'\-]{{2,14}}?)(?:'s)?(?: (?:{_alternation(then)})\b|[.,!]?$)"
    )


def _hangul_name(particles: Iterable[str], syllables: tuple[int, int] = (2, 3), suffix: str = "") -> str:
    """A regex for a Korean name of `syllables` syllables with a particle glued on ("수아랑"), or
    after `suffix` ("여사님께는")."""
    fewest, most = syllables
    return (
        rf"[가-힣](?<![가-힣][가-힣])[가-힣]{{{fewest - 1},{most - 1}}}{suffix}"
        rf"(?:{_alternation(particles)})(?![가-힣])"
    )


def _latin_name(first: str, rest: str, particles: Iterable[str]) -> str:
    """A regex for a name in Latin letters (`first` then `rest`) with a Korean particle glued on
    ("Marisol이랑")."""
    return rf"{first}(?<![A-Za-z]{first}){rest}(?:{_alternation(particles)})(?![가-힣])"


def _types(names: Iterable[str]) -> tuple[MemoryType, ...]:
    return tuple(MemoryType(name) for name in names)


def _cue_text_set(phrases: Iterable[str]) -> frozenset[str]:
    """Phrases as the texts their hits carry, so that `a|b` and `^` entries compare with hit cues; each
    phrase also as written, for the cue names that are no phrase ("rule:" of a clause label)."""
    return frozenset(text for phrase in phrases for text in (phrase, *cue_texts(phrase)))


def _gate_words(phrases: Iterable[str]) -> frozenset[str]:
    """One word every match of each phrase must hold (its longest, so the rarest): a clause with none
    of them cannot match any of the phrases. Alternatives of that word are all included."""
    words: set[str] = set()
    for phrase in phrases:
        parts = [part.split("|") for part in phrase.lower().split() if part not in ("…", "...")]
        words.update(max(parts, key=lambda alternatives: min(map(len, alternatives))))
    return frozenset(words)


_UPPER = "A-ZÀ-ÖØ-Þ"
_LOWER = "a-zß-öø-ÿ"


def _people_rules(table: Mapping[str, Any]) -> PeopleRules:
    return PeopleRules(
        # \b[A-Z]...: the capital comes first (the boundary is checked looking back) so the scan skips
        # straight to capitals instead of testing a word boundary at every character. Accented Latin
        # letters count ("Lucía", "Zoë", "Émile").
        name=re.compile(rf"[{_UPPER}](?<!\w[{_UPPER}])[{_LOWER}]+(?:-[{_UPPER}][{_LOWER}]+)?\b"),
        after=tuple(f" {phrase} " for phrase in table["verbs_after"]),
        before=tuple(f" {phrase} " for phrase in table["words_before"]),
        possessed=tuple(f"'s {noun} " for noun in table["possessed"]),
        not_names=frozenset(table["not_names"]),
        companion_max_start=int(table["companion_max_start"]),
        korean_name=re.compile(
            rf"{_hangul_name(table['korean_name_particles'])}"
            rf"|{_hangul_name(table['korean_honorific_particles'], (1, 4), '님')}"
            rf"|{_hangul_name(table['korean_companion_particles'])}"
            rf"(?=[^.!?\n]{{0,40}}?(?:{_alternation(table['korean_together_words'])}))"
            rf"|{_latin_name('[A-Z]', '[a-z]++', table['latin_name_particles'])}"
            rf"|{_latin_name('[a-z]', '[a-z]{2,}+', table['latin_lowercase_name_particles'])}"
        ),
        lowercase_companion=re.compile(
            _latin_name("[a-z]", "[a-z]{2,}+", table["latin_lowercase_companion_particles"])
        ),
        lowercase_name=lowercase_name_pattern(table["lowercase_name_verbs"]),
        not_lowercase_names=frozenset(table["not_lowercase_names"]),
        contacted_name=contacted_name_pattern(table["contact_verbs"], table["contacted_then"]),
        not_contacted_names=frozenset(table["not_contacted_names"]),
        contacted_thing_endings=tuple(table["contacted_thing_endings"]),
        contacted_name_endings_in_s=tuple(table["contacted_name_endings_in_s"]),
        subject_weight=float(table["subject_weight"]),
        subject_reach=int(table["subject_reach"]),
    )


def _gated_patterns(
    entries: Iterable[Mapping[str, Any]], weights: Mapping[str, float]
) -> tuple[GatedPattern, ...]:
    """One GatedPattern per distinct (regex, needs), in order of first appearance, with its cues in
    rules.toml order: evidence is added in the same order as one pattern per entry would add it."""
    cues: dict[tuple[str, tuple[str, ...]], list[tuple[MemoryType, Cue]]] = {}
    for entry in entries:
        memory_type = MemoryType(entry["type"])
        cue = Cue(type_family(memory_type), entry["cue"], weights[entry["tier"]])
        cues.setdefault((entry["regex"], tuple(entry["needs"])), []).append((memory_type, cue))
    return tuple(
        GatedPattern(regex=re.compile(regex), needs=needs, cues=tuple(found))
        for (regex, needs), found in cues.items()
    )


def _pattern_giving(patterns: Iterable[GatedPattern], cue_text: str) -> GatedPattern:
    return next(pattern for pattern in patterns if any(cue.text == cue_text for _, cue in pattern.cues))


def _shape_rules(table: Mapping[str, Any], weights: Mapping[str, float]) -> ShapeRules:
    evidence: dict[str, tuple[tuple[MemoryType, float], ...]] = {}
    for shape, targets in table.items():
        if isinstance(targets, dict) and shape != "label_types":
            evidence[shape] = tuple((MemoryType(t), weights[tier]) for t, tier in targets.items())
    return ShapeRules(
        top_level_domains=frozenset(table["top_level_domains"]),
        evidence=evidence,
        patterns=_gated_patterns(table["patterns"], weights),
        label_types={label: MemoryType(name) for label, name in table["label_types"].items()},
        label_weight=weights[table["label_tier"]],
    )


@cache
def candidate_rules() -> CandidateRules:
    """Everything the candidate policy needs, compiled once; rules.toml is the only source."""
    table = section("candidate")
    weights: dict[str, float] = dict(table["weights"])
    lexicons: dict[str, list[tuple[str, float]]] = {}

    def add(family: str, phrases: Iterable[str], weight: float = 1.0) -> None:
        lexicons.setdefault(family, []).extend((phrase, weight) for phrase in phrases)

    types: dict[MemoryType, TypeRules] = {}
    for name, spec in table["types"].items():
        memory_type = MemoryType(name)
        for tier in TIERS:
            add(type_family(memory_type), spec.get(tier, []), weights[tier])
        types[memory_type] = TypeRules(
            memory_type=memory_type,
            label=spec["label"],
            weight=float(spec.get("weight", 1.0)),
            needs_person=bool(spec.get("needs_person", False)),
        )

    mood, durability, people, sens = table["mood"], table["durability"], table["people"], table["sensitivity"]
    statement, shapes, transfer = table["statement"], table["shapes"], table["transfer"]
    au_table = table["types"]["au_canon"]
    add(COMMITMENT, durability["commitment_strong"], weights["strong"])
    add(COMMITMENT, durability["commitment_medium"], weights["medium"])
    for family, words in (
        (RETRACTION, durability["retraction"]),
        (CORRECTION, durability["correction"]),
        (RETRACTION_REASON, durability["retraction_reason"]),
        (DISCLAIMER, durability["disclaimer"]),
        (UNCERTAINTY, durability["uncertainty"]),
        (ACCEPTANCE, durability["acceptance"]),
        (REJECTION, durability["rejection"]),
        (CHOICE, durability["choice"]),
        (GRATITUDE, durability["gratitude"]),
        (CONFIG_RULE, transfer["config_rule_cues"]),
        (CONFIRMATION, durability["confirmation"]),
        (ASSISTANT_OFFER, durability["assistant_offer"]),
        (OFFERED_CHANGE, durability["offered_change"]),
        (RECALL, mood["recall"]),
        (HEARSAY, mood["hearsay"]),
        (STANDING_SCOPE, mood["standing_scope"]),
        # Hypotheticals and requests only count where a clause opens.
        (HYPOTHETICAL, [f"^ {phrase}" for phrase in mood["hypothetical"]]),
        (REQUEST, [*(f"^ {phrase}" for phrase in mood["request"]), *mood["request_anywhere"]]),
        # "mum's birthday": a possessive keeps the apostrophe inside the token, so it is listed too.
        (KIN, [*people["kin"], *(f"{w}'s" for w in people["kin"] if w.isascii() and " " not in w)]),
        (COMPANION, people["companions"]),
        (PERSON_IMPLIED, people["implied_by"]),
        (PRONOUN, people["pronouns"]),
        (WRITER_META, au_table["writer_meta"]),
        (MOMENTARY, statement["momentary"]),
        (MOMENTARY_TIME, statement["momentary_time"]),
        (DATE_WORD, statement["date_words"]),
    ):
        add(family, words)
    add(STABILITY, statement["stability"], float(statement["stability_weight"]))
    for key, family in SENSITIVITY_FAMILIES.items():
        add(family, sens[key])
    labels = [*shapes["label_types"], *shapes["plain_labels"]]

    return CandidateRules(
        phrases=PhraseIndex(lexicons),
        mood=MoodRules(
            fillers=frozenset(mood["fillers"]),
            wh_always=frozenset(mood["wh_always"]),
            wh_maybe=frozenset(mood["wh_maybe"]),
            aux=frozenset(mood["aux"]),
            aux_always=frozenset(mood["aux_always"]),
            subjects=frozenset(mood["subjects"]),
            addressees=frozenset(mood["addressees"]),
            aux_before_determiner=frozenset(mood["aux_before_determiner"]),
            determiners=frozenset(mood["determiners"]),
            aux_before_alternatives=frozenset(mood["aux_before_alternatives"]),
            question_tags=frozenset(mood["question_tags"]),
            own_world=frozenset(mood["own_world"]),
            # The words hearsay cues open with: a clause with none of them cannot hold one.
            hearsay_words=_gate_words(mood["hearsay"]),
            label_prefix=re.compile(rf"^({_alternation(labels)})\s*:", re.IGNORECASE),
            # "summarise this pls:", "convert to yaml:": the lines after such a lead are pasted material.
            request_openers=frozenset(
                alternative for phrase in mood["request"] for alternative in phrase.split()[0].split("|")
            ),
            pasted_lead_max_words=int(mood["pasted_lead_max_words"]),
            polite_openers=frozenset(mood["polite_openers"]),
            material_pointers=frozenset(mood["material_pointers"]),
            request_endings=tuple(mood["request_endings"]),
            question_endings=tuple(mood["question_endings"]),
            korean_question_words=frozenset(mood["korean_question_words"]),
            korean_question_endings=tuple(mood["korean_question_endings"]),
        ),
        statement=StatementRules(
            base=float(statement["base"]),
            min_tokens=int(statement["min_tokens"]),
            specific=float(statement["specific"]),
            max_specifics=int(statement["max_specifics"]),
            stability_cap=float(statement["stability_cap"]),
            min_type_evidence=float(statement["min_type_evidence"]),
            momentary_penalty=float(statement["momentary_penalty"]),
            momentary_time_weight=float(statement["momentary_time_weight"]),
            specific_shapes=frozenset(statement["specific_shapes"]),
            intensifiers=frozenset(statement["intensifiers"]),
            plain_breaking_words=frozenset(statement["plain_breaking_words"]),
            plain_breaking_marks=tuple(statement["plain_breaking_marks"]),
        ),
        shapes=(shape_rules := _shape_rules(shapes, weights)),
        people=_people_rules(people),
        au=AuRules(
            character_subject_weight=weights[au_table["character_subject_tier"]],
            # "Just a thought", "No, I'm only wondering": a capital that only opens the sentence. The
            # common openers are the ones the retrieve policy's name reader already skips.
            not_character_openers=frozenset(section("retrieve")["names"]["sentence_starters"]),
            world_subject_openers=frozenset(au_table["world_subject_openers"]),
            world_subject_min_words=int(au_table["world_subject_min_words"]),
            world_subject_korean_particles=tuple(au_table["world_subject_korean_particles"]),
            world_subject_korean_min_words=int(au_table["world_subject_korean_min_words"]),
            not_world_subjects=frozenset(au_table["not_world_subjects"]),
            writer_meta_penalty=float(au_table["writer_meta_penalty"]),
            writing_types=frozenset(MemoryType(name) for name in au_table["writing_types"]),
        ),
        transfer=TransferRules(
            config_key_shapes=frozenset(transfer["config_key_shapes"]),
            config_key_takes=_types(transfer["config_key_takes"]),
            risk_takes_at=float(transfer["risk_takes_at"]),
            risk_takes=_types(transfer["risk_takes"]),
            risk_takes_cues=_cue_text_set(transfer["risk_takes_cues"]),
            relationship_takes_at=float(transfer["relationship_takes_at"]),
            relationship_takes=_types(transfer["relationship_takes"]),
            generic_decision_cues=_cue_text_set(transfer["generic_decision_cues"]),
            relationship_kept_by=_types(transfer["relationship_kept_by"]),
            relationship_state_cues=_cue_text_set(transfer["relationship_state_cues"]),
            business_takes_at=float(transfer["business_takes_at"]),
            business_takes=_types(transfer["business_takes"]),
            business_kept_by=_types(transfer["business_kept_by"]),
            setting_takes_at=float(transfer["setting_takes_at"]),
            setting_takes=_types(transfer["setting_takes"]),
            setting_kept_by=_types(transfer["setting_kept_by"]),
            config_rule_takes=_types(transfer["config_rule_takes"]),
            config_rule_setting_cues=_cue_text_set(transfer["config_rule_setting_cues"]),
            taste_takes_at=float(transfer["taste_takes_at"]),
            taste_takes=_types(transfer["taste_takes"]),
            taste_takes_cues=_cue_text_set(transfer["taste_takes_cues"]),
        ),
        sensitivity=SensitivityRules(
            private_shapes=frozenset(sens["private_shapes"]),
            type_floor={MemoryType(k): Sensitivity(v) for k, v in sens["type_floor"].items()},
            secret_floor=Sensitivity(sens["secret_floor"]),
            person_level=Sensitivity(sens["person_level"]),
            health_min_chars=int(sens["health_min_chars"]),
            health_suffixes=tuple(sens["health_suffixes"]),
            not_health_words=frozenset(sens["not_health_words"]),
            street_address=re.compile(sens["street_address"]),
            own_identifier=re.compile(sens["own_identifier"]),
            address_words=frozenset(sens["address_words"]),
            address_suffixes=tuple(sens["address_suffixes"]),
            identifier_words=frozenset(sens["identifier_words"]),
        ),
        types=types,
        type_priority=tuple(MemoryType(name) for name in table["type_priority"]),
        learned_smoothing=float(table["learned_smoothing"]),
        learned_type_weight=float(table["learned_type_weight"]),
        learned_type_min_probability=float(table["learned_type_min_probability"]),
        learned_type_without_evidence=float(table["learned_type_without_evidence"]),
        learned_sensitive_probability=float(table["learned_sensitive_probability"]),
        learned_candidate_log_odds=float(table["learned_candidate_log_odds"]),
        learned_candidate_lift=float(table["learned_candidate_lift"]),
        real_life_only_types=frozenset(MemoryType(name) for name in table["real_life_only_types"]),
        fallback_type={ns: MemoryType(name) for ns, name in table["fallback_type"].items()},
        chosen_type={ns: MemoryType(name) for ns, name in table["chosen_type"].items()},
        proposal_words=cue_pattern(tuple(durability["proposal"])),
        chosen_type_with_person=MemoryType(table["chosen_type_with_person"]),
        summary_fillers=re.compile(
            rf"(?i)(?<![\w\[:])(?:{_alternation(table['summary_fillers'])})(?![\w\]]),?\s*"
        ),
        summary_filler_words=frozenset(
            word for phrase in table["summary_fillers"] for word in phrase.split()
        ),
        threshold=float(table["threshold"]),
        plain_statement_threshold=float(table["plain_statement_threshold"]),
        type_cap=float(table["type_cap"]),
        confidence_at_threshold=float(table["confidence_at_threshold"]),
        confidence_slope=float(table["confidence_slope"]),
        ambiguity_penalty=float(table["ambiguity_penalty"]),
        assistant_derived_penalty=float(table["assistant_derived_penalty"]),
        review_below_confidence=float(table["review_below_confidence"]),
        review_types=frozenset(MemoryType(name) for name in table["review_types"]),
        review_when_person=bool(table["review_when_person"]),
        review_when_money=bool(table["review_when_money"]),
        money_pattern=_pattern_giving(shape_rules.patterns, str(table["money_cue"])),
        own_money_words=frozenset(table["own_money_words"]),
        own_money_stems=tuple(table["own_money_stems"]),
        money_nouns=frozenset(table["money_nouns"]),
        bare_amount=re.compile(table["bare_amount"]),
        veto_confidence=float(table["veto_confidence"]),
        uncertainty_penalty=float(table["uncertainty_penalty"]),
        hedges_of_the_user_only=frozenset(table["hedges_of_the_user_only"]),
        first_person=frozenset(table["first_person"]),
        accepted_assistant_factor=float(table["accepted_assistant_factor"]),
        acceptance_bonus=float(table["acceptance_bonus"]),
        assistant_support_factor=float(table["assistant_support_factor"]),
        confirmation_bonus=float(table["confirmation_bonus"]),
        acceptance_max_tokens=int(table["acceptance_max_tokens"]),
        option_pick=re.compile(table["option_pick"]),
        option_pick_with_words=re.compile(table["option_pick_with_words"]),
        option_pick_max_tokens=int(table["option_pick_max_tokens"]),
        retraction_final=frozenset(durability["retraction_final"]),
        retraction_alone=frozenset(tuple(text.split()) for text in durability["retraction_alone"]),
        retracted_topic_words=frozenset(durability["retracted_topic_words"]),
        max_classified_chars=int(table["max_classified_chars"]),
        summary_max_chars=int(table["summary_max_chars"]),
        au_fold_factor=float(table["au_fold_factor"]),
    )
