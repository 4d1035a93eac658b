"""How sensitive a turn is: low work facts, medium business and third parties, high money/legal/health,
private intimate and identifying details. Read over the whole turn, questions included: a hypothetical
about a break-up is still private. Inside the fiction (`au`) dark themes stay low; only sexual content
and personal identifiers count there.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.candidate_rules import SENSITIVITY_FAMILIES, CandidateRules, SensitivityRules
from pandora_memory.policy.clauses import Clause
from pandora_memory.policy.lexicon import Hit
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.policy.shapes import NUMBER

_ORDER = (Sensitivity.LOW, Sensitivity.MEDIUM, Sensitivity.HIGH, Sensitivity.PRIVATE)
_RANK = {level: rank for rank, level in enumerate(_ORDER)}
_PRIVATE_ANY = SENSITIVITY_FAMILIES["private_any_namespace"]
_LEVEL_OF_FAMILY = {
    SENSITIVITY_FAMILIES["private"]: Sensitivity.PRIVATE,
    SENSITIVITY_FAMILIES["high"]: Sensitivity.HIGH,
    SENSITIVITY_FAMILIES["medium"]: Sensitivity.MEDIUM,
}


_NON_WORD = re.compile(r"\W+")


def _illness(clauses: Sequence[Clause], rules: SensitivityRules) -> str:
    """The first word named like an illness ("narcolepsy", "tendinitis"), or ""."""
    shortest = rules.health_min_chars
    for clause in clauses:
        # The clause's own tokens (a word glued to a Korean particle stands apart in them), each run of
        # word characters whole; the suffix test is str.endswith over a tuple, faster than any regex.
        for token in clause.tokens:
            if len(token) < shortest:
                continue
            for word in (token,) if token.isalnum() else _NON_WORD.split(token):
                if (
                    len(word) >= shortest
                    and word.endswith(rules.health_suffixes)
                    and word not in rules.not_health_words
                ):
                    return word
    return ""


# Every address and identifier form holds a number within this many characters of its start or end:
# the long patterns are searched only in such windows (a few per message), not at every position.
_BEFORE_NUMBER = 90
_AFTER_NUMBER = 40
_NUMBER_RUN = re.compile(r"\d+")


def _around_numbers(text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    for match in _NUMBER_RUN.finditer(text):
        start, end = max(0, match.start() - _BEFORE_NUMBER), match.end() + _AFTER_NUMBER
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


def _may_state(tokens: Sequence[str], text: str, rules: SensitivityRules) -> tuple[bool, bool]:
    """Whether an address, and an own identifier, can be in the text at all: their long patterns run
    only then. A text in another script may hold a Korean or accented form: it is always searched."""
    if not text.isascii():
        return True, True
    address = identifier = False
    for token in tokens:
        if not address and (
            token in rules.address_words or token.endswith(rules.address_suffixes) or _postcode_part(token)
        ):
            address = True
        if not identifier and (token in rules.identifier_words or _iban_start(token)):
            identifier = True
        if address and identifier:
            break
    return address, identifier


def _postcode_part(token: str) -> bool:
    """ "m5v", "2t6": a half of a Canadian postcode."""
    return len(token) == 3 and (token[0].isdigit() != token[1].isdigit() != token[2].isdigit())


def _iban_start(token: str) -> bool:
    return len(token) >= 4 and token[:2].isalpha() and token[2:4].isdigit()


def _found_in(pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]]) -> bool:
    # search(text, pos, endpos) keeps the text before pos visible to lookbehinds and \b.
    return any(pattern.search(text, start, end) is not None for start, end in windows)


def rule_id(level: Sensitivity) -> str:
    return f"candidate.sensitivity.{level.value}"


def at_least(level: Sensitivity, floor: Sensitivity) -> Sensitivity:
    return level if _RANK[level] >= _RANK[floor] else floor


@dataclass(frozen=True, slots=True)
class SensitivityReading:
    level: Sensitivity
    cues: tuple[str, ...]


def assess(
    clauses: Sequence[Clause],
    hits: Mapping[str, Sequence[Hit]],
    namespace: Namespace,
    person_cues: Sequence[str],
    memory_type: MemoryType,
    has_secret: bool,
    rules: CandidateRules,
) -> SensitivityReading:
    """`hits` is hits_by_family(clauses): the whole turn, questions included."""
    level = Sensitivity.LOW
    cues: list[str] = []

    def raise_to(candidate: Sensitivity, cue: str) -> None:
        nonlocal level
        level = at_least(level, candidate)
        if cue not in cues:
            cues.append(cue)

    real_life = namespace is Namespace.REAL_LIFE
    for hit in hits.get(_PRIVATE_ANY, ()):
        raise_to(Sensitivity.PRIVATE, hit.cue.text)
    if real_life:
        for family, family_level in _LEVEL_OF_FAMILY.items():
            for hit in hits.get(family, ()):
                raise_to(family_level, hit.cue.text)
    if real_life:
        illness = _illness(clauses, rules.sensitivity)
        if illness:
            raise_to(Sensitivity.HIGH, illness)
        # Every form of address holds a number: a turn without one is not searched. The clauses are read
        # joined, since an abbreviation's full stop may have split one ("Kopenhagener Str. 41").
        if any(NUMBER in clause.shapes for clause in clauses):
            joined = " ".join(clause.text for clause in clauses)
            tokens = [token for clause in clauses for token in clause.tokens]
            address, identifier = _may_state(tokens, joined, rules.sensitivity)
            windows = _around_numbers(joined) if address or identifier else []
            if address and _found_in(rules.sensitivity.street_address, joined, windows):
                raise_to(Sensitivity.PRIVATE, "street address")
            if identifier and _found_in(rules.sensitivity.own_identifier, joined, windows):
                raise_to(Sensitivity.PRIVATE, "identifying number")
    if any(clause.shapes & rules.sensitivity.private_shapes for clause in clauses):
        raise_to(Sensitivity.PRIVATE, "identifying number")
    if real_life and person_cues:
        raise_to(rules.sensitivity.person_level, person_cues[0])
    floor = rules.sensitivity.type_floor.get(memory_type)
    if floor is not None:
        level = at_least(level, floor)
    if has_secret:
        raise_to(rules.sensitivity.secret_floor, "credential")
    return SensitivityReading(level, tuple(cues))
