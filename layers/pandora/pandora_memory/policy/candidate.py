"""Decides after a turn whether it holds a durable memory worth queueing for the user's review.

Order matters: credentials are redacted first and everything after reads only the redacted text, so no
cue, summary or reason can echo a secret. A turn with a credential is `blocked_secret`: surfaced (so the
user sees something was held back) and always gated on review.
"""

import re
from collections.abc import Mapping, Sequence

from pandora_memory.namespaces import Namespace
from pandora_memory.policy import sensitivity
from pandora_memory.policy.candidate_rules import CandidateRules, candidate_rules, type_family
from pandora_memory.policy.clauses import Clause, hits_by_family, read_text
from pandora_memory.policy.learned_words import ORDINARY, SENSITIVE, learned_words
from pandora_memory.policy.lexicon import Hit
from pandora_memory.policy.memory_types import RULE_ID_BY_TYPE
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity
from pandora_memory.policy.namespace_inference import NamespaceChoice, choose_namespace
from pandora_memory.policy.reading import Reading, quoted, read_turn
from pandora_memory.policy.rules import policy_version
from pandora_memory.policy.summary import summarise, truncate
from pandora_memory.secrets import redact

__all__ = ["RULE_ID_BY_TYPE", "should_auto_create_memory_candidate"]

RULE_SECRET_BLOCKED = "candidate.secret.blocked"  # noqa: S105 - a rule id, not a credential
RULE_REVIEW_SENSITIVE = "candidate.review.sensitive"
RULE_REVIEW_LOW_CONFIDENCE = "candidate.review.low_confidence"
RULE_REVIEW_PERSONAL = "candidate.review.personal"
RULE_REVIEW_OTHER_PERSON = "candidate.review.other_person"
RULE_REVIEW_MONEY = "candidate.review.money"
RULE_REVIEW_ACCEPTED_REPLY = "candidate.review.accepted_reply"
RULE_REVIEW_LEARNED = "candidate.review.learned_sensitive"
RULE_NAMESPACE_INFERRED = "candidate.namespace.inferred"
# Only a plain identifier is echoed back: the caller's string is not ours to repeat.
_SOURCE_NAME = re.compile(r"[a-z0-9_.-]{1,32}")
_REVIEWED_LEVELS = frozenset({Sensitivity.HIGH, Sensitivity.PRIVATE})


def _about_relationships(
    reading: Reading, user_hits: Mapping[str, Sequence[Hit]], choice: NamespaceChoice, rules: CandidateRules
) -> bool:
    """A real-life memory of a review type, or of any type with relationship cues and a person in it
    ("Hana still hasn't forgiven me... I need to call her" is an open loop about a relationship)."""
    if choice.namespace is not Namespace.REAL_LIFE:
        return False
    if reading.evidence_type in rules.review_types:
        return True
    return bool(reading.people) and any(user_hits.get(type_family(t)) for t in rules.review_types)


def _names_another_person(reading: Reading, choice: NamespaceChoice, rules: CandidateRules) -> bool:
    """Fiction's characters are not people whose details need guarding."""
    return (
        rules.review_when_person
        and reading.is_candidate
        and choice.namespace is Namespace.REAL_LIFE
        and bool(reading.people)
    )


def _names_own_money(
    reading: Reading, about: Sequence[Clause], choice: NamespaceChoice, rules: CandidateRules
) -> bool:
    """A sum of the user's own money spent, lost, owed, lent or moved ("spent $640 on booster boxes",
    "fronted $2,500 for the bail"); a price set for customers ("$120/hr for the audit") is business."""
    if not (
        rules.review_when_money
        and reading.is_candidate
        and choice.namespace is Namespace.REAL_LIFE
        and any(_names_a_sum(clause, rules) for clause in about)
    ):
        return False
    words = rules.own_money_words
    return any(not words.isdisjoint(clause.tokens) for clause in about) or any(
        stem in clause.lowered for clause in about for stem in rules.own_money_stems
    )


def _reads_as_sensitive(words: str, rules: CandidateRules) -> list[str] | None:
    """The words that make a turn read like those labeled high or private, when it does."""
    counts = learned_words("sensitivity", rules.learned_smoothing)
    among = (SENSITIVE, ORDINARY)
    if (
        counts.probabilities(words, Namespace.REAL_LIFE.value, among)[SENSITIVE]
        < rules.learned_sensitive_probability
    ):
        return None
    return counts.telling_words(words, Namespace.REAL_LIFE.value, SENSITIVE, ORDINARY)


def _names_a_sum(clause: Clause, rules: CandidateRules) -> bool:
    """A currency amount ("$640", "30만원"), or a bare one beside what holds money ("pulled 5k out of the
    shop acct", "moved 800 out of the doula account")."""
    if rules.money_pattern.search(clause.lowered):
        return True
    return not rules.money_nouns.isdisjoint(clause.tokens) and bool(rules.bare_amount.search(clause.lowered))


def should_auto_create_memory_candidate(
    user_message: str,
    assistant_response: str | None = None,
    namespace: str | Namespace | None = None,
    source: str = "chatgpt",
) -> CandidateDecision:
    """Raises UnknownNamespaceError for a namespace other than None, `real_life` or `au`."""
    rules = candidate_rules()
    user_redaction = redact(user_message or "")
    assistant_redaction = redact(assistant_response) if assistant_response else None
    secret_kinds = sorted(
        {*user_redaction.kinds, *(assistant_redaction.kinds if assistant_redaction else ())}
    )
    assistant_text = assistant_redaction.text if assistant_redaction else None
    choice = choose_namespace(namespace, user_redaction.text, assistant_text)

    user = read_text(user_redaction.text, rules)
    user_hits = hits_by_family(user)
    # Without a reply, the same text the lookup decision reads: its features are found once per turn.
    words = f"{user_redaction.text} {assistant_text}" if assistant_text else user_redaction.text
    reading = read_turn(user, user_hits, assistant_text, choice.namespace, rules, words)

    # What the user accepted or affirmed from the reply is part of what the memory is about.
    about = reading.about_clauses
    sensitive_hits = hits_by_family(about) if reading.reply_counts else user_hits
    level = sensitivity.assess(
        about,
        sensitive_hits,
        choice.namespace,
        reading.people,
        reading.evidence_type,
        bool(secret_kinds),
        rules,
    )
    reading.cite(sensitivity.rule_id(level.level), level.cues)

    blocked = bool(secret_kinds)
    requires_review = blocked or level.level in _REVIEWED_LEVELS
    if requires_review and not blocked:
        reading.cite(RULE_REVIEW_SENSITIVE)
    personal = reading.is_candidate and _about_relationships(reading, user_hits, choice, rules)
    if personal and not requires_review:
        requires_review = True
        reading.cite(RULE_REVIEW_PERSONAL, note="about the user's relationships, needs review")
    if not requires_review and _names_another_person(reading, choice, rules):
        requires_review = True
        reading.cite(RULE_REVIEW_OTHER_PERSON, note="names another person, needs review")
    if not requires_review and _names_own_money(reading, about, choice, rules):
        requires_review = True
        reading.cite(RULE_REVIEW_MONEY, note="names a sum of money, needs review")
    if not requires_review and reading.is_candidate and choice.namespace is Namespace.REAL_LIFE:
        telling = _reads_as_sensitive(words, rules)
        if telling is not None:
            requires_review = True
            note = f"reads like turns labeled sensitive ({quoted(telling)}), needs review"
            reading.cite(RULE_REVIEW_LEARNED, telling, note)
    if reading.is_candidate and not requires_review and reading.confidence < rules.review_below_confidence:
        requires_review = True
        reading.cite(RULE_REVIEW_LOW_CONFIDENCE, note="low confidence, needs review")
    if reading.from_assistant and not requires_review:
        # The memory is in the assistant's words; the user only said yes to it.
        requires_review = True
        reading.cite(RULE_REVIEW_ACCEPTED_REPLY, note="taken from the reply, needs review")
    if not choice.explicit:
        reading.cite(RULE_NAMESPACE_INFERRED)

    summary = ""
    if reading.is_candidate:
        label = rules.types[reading.memory_type].label
        summary = summarise(
            f"{label} (accepted)" if reading.from_assistant else label, reading.summary_clauses, rules
        )
    if blocked:
        reading.cite(
            RULE_SECRET_BLOCKED, note=f"credential found ({', '.join(secret_kinds)}); everything redacted"
        )
        reading.rules.insert(0, reading.rules.pop())
        held = summary or summarise("", reading.summary_clauses or user, rules)
        summary = truncate(f"Blocked ({', '.join(secret_kinds)}): {held}", rules.summary_max_chars)

    status = (
        CandidateStatus.BLOCKED_SECRET
        if blocked
        else CandidateStatus.CANDIDATE
        if reading.is_candidate
        else CandidateStatus.NOT_CANDIDATE
    )
    verdict = {
        CandidateStatus.BLOCKED_SECRET: "blocked: turn holds a credential",
        CandidateStatus.CANDIDATE: f"candidate: {reading.memory_type.value}",
        CandidateStatus.NOT_CANDIDATE: "not a candidate",
    }[status]
    details = [*reading.notes, f"sensitivity {level.level.value}"]
    if level.cues:
        details[-1] += f" ({quoted(level.cues)})"
    # A blocked turn is certain to need the user's eyes, whatever the classifier thought of it.
    confidence = 1.0 if blocked else round(reading.confidence, 3)
    shown_source = source if _SOURCE_NAME.fullmatch(source) else "other"
    details += [f"confidence {confidence:.2f}", choice.explain(), f"source {shown_source}"]
    return CandidateDecision(
        namespace=choice.namespace,
        reason=f"{verdict}; " + "; ".join(details),
        rules=reading.rules,
        policy_version=policy_version(),
        should_create_candidate=blocked or reading.is_candidate,
        requires_review=requires_review,
        sensitivity=level.level,
        memory_type=reading.memory_type if reading.is_candidate else MemoryType.NONE,
        confidence=confidence,
        status=status,
        summary=summary,
        cues=reading.cues,
        secret_kinds=secret_kinds,
    )
