"""Whether a turn involves another person: a name in a person-like spot, kin words, or he/she.

Names are never listed: a capitalised word counts as a person only where people appear ("Mina said",
"told Leo", "Hana's email", "with Jae") or next to he/she, so product names mostly stay out.
"""

import re
from collections.abc import Mapping, Sequence

from pandora_memory.policy.candidate_rules import (
    COMPANION,
    KIN,
    PRONOUN,
    REPORTING_ENDINGS,
    CandidateRules,
    PeopleRules,
)
from pandora_memory.policy.lexicon import Hit

NAMED_PERSON = "named person"
KIN_WORD = "family or partner"
THIRD_PERSON = "he/she"
COMPANION_PHRASE = "someone and I"
PERSON_SUBJECT = "person subject"
_CONTEXT = 24
_PUNCTUATION_AS_SPACE = str.maketrans(",.;:!?()", "        ")
# A statement opening on a name and who they are, in brackets: "jess (my associate) is going part time",
# "selin (baran's wife) does our stories".
_INTRODUCED = re.compile(r"([A-Za-z][a-z'\-]{1,20}) \((?:my|our|his|her|their|[a-z]+'s) [^()]{1,40}\)")


def person_cues(text: str, hits: Mapping[str, Sequence[Hit]], rules: CandidateRules) -> list[str]:
    """Cue labels (never the names themselves) for the people the case-kept `text` mentions."""
    cues: list[str] = []
    if (
        _has_korean_name(text, rules)
        or _has_named_person(text, rules, pronoun=PRONOUN in hits)
        or _has_lowercase_name(text, rules)
        or _INTRODUCED.match(text) is not None
    ):
        cues.append(NAMED_PERSON)
    if KIN in hits:
        cues.append(KIN_WORD)
    if PRONOUN in hits:
        cues.append(THIRD_PERSON)
    # "mina and I ..." opens a clause; "a privacy policy and I don't have one" pairs no one with the user.
    if any(hit.token_start <= rules.people.companion_max_start for hit in hits.get(COMPANION, ())):
        cues.append(COMPANION_PHRASE)
    return cues


def names_someone(text: str, rules: CandidateRules) -> bool:
    """A capitalised word that is not a known non-name (or a Korean name with its particle): enough when
    the cue itself is about people."""
    if _has_korean_name(text, rules):
        return True
    if not text.isascii() and rules.people.lowercase_companion.search(text) is not None:
        return True
    return any(match.group() not in rules.people.not_names for match in rules.people.name.finditer(text))


def _has_korean_name(text: str, rules: CandidateRules) -> bool:
    return not text.isascii() and rules.people.korean_name.search(text) is not None


def _has_lowercase_name(text: str, rules: CandidateRules) -> bool:
    """Names typed in lower case: by a verb only people do right after the sentence's first word
    ("felix apologised", "aurelio still owes me"), or as whom the user contacts ("i owe noor an answer")."""
    people = rules.people
    found = people.lowercase_name.finditer(text)
    if any(match.group(1) not in people.not_lowercase_names for match in found):
        return True
    return any(
        _names_someone_contacted(match.group(1), people) for match in people.contacted_name.finditer(text)
    )


def _names_someone_contacted(word: str, people: PeopleRules) -> bool:
    if word in people.not_contacted_names or word.endswith(people.contacted_thing_endings):
        return False
    return not (word.endswith("s") and not word.endswith(people.contacted_name_endings_in_s))


def _has_named_person(text: str, rules: CandidateRules, *, pronoun: bool) -> bool:
    people = rules.people
    padded = f" {text} "
    for match in people.name.finditer(padded):
        name = match.group()
        if name in people.not_names:
            continue
        after = padded[match.end() : match.end() + _CONTEXT].lower().translate(_PUNCTUATION_AS_SPACE) + " "
        if after.startswith(people.after) or after.startswith(people.possessed):
            return True
        before = " " + padded[max(0, match.start() - _CONTEXT) : match.start()].lower().translate(
            _PUNCTUATION_AS_SPACE
        )
        if before.endswith(people.before):
            return True
        # A capitalised word inside a sentence that also says he/she is most likely a person.
        if pronoun and match.start() > 1 and padded[match.start() - 2] not in ".!?":
            return True
    return False


def leads_with_person(text: str, hits: Sequence[Hit], rules: CandidateRules) -> bool:
    """The statement is about someone: it opens on them ("mum and i aren't speaking", "Dana said she'll
    cover Fridays", a Korean name with its particle), so what it says is the state between them and the
    user."""
    people = rules.people
    if any(hit.cue.family in (KIN, COMPANION) and hit.token_start <= 1 for hit in hits):
        return True
    # A lower-case word before "says" is as often a product ("aws says AccessDenied"): not read here.
    opening = text[: people.subject_reach]
    if not text.isascii() and people.korean_name.search(opening) is not None:
        return True
    if _INTRODUCED.match(text) is not None:
        return True
    lowercase = people.lowercase_name.match(text)
    if lowercase is not None and lowercase.group(1) not in people.not_lowercase_names:
        return not lowercase.group().endswith(REPORTING_ENDINGS)
    name = people.name.match(text)
    if name is None or name.group() in people.not_names:
        return False
    return _has_named_person(opening, rules, pronoun=False)
