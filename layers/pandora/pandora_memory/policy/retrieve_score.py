"""Turns a message reading plus the turn's context into weighted, named contributions.

Each contribution is one rule that fired, with its weight and the cue words behind it, so the
decision's reason can say exactly why. Weights live in rules.toml under `[retrieve.*]`.
"""

from typing import NamedTuple

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.retrieve_details import read_details, read_shapes
from pandora_memory.policy.retrieve_lexicon import RetrieveRules, split_words
from pandora_memory.policy.retrieve_signals import MessageReading

_PERSONAL = "personal_reference"
_OWNERSHIP = "ownership"
# Families that tie a generic-looking question back to the user's own context.
_ANCHORS = (_OWNERSHIP, "past_reference")
# Cues that make a short message lean on context it does not contain.
_SHORT_CONTEXT = ("anaphoric_reference", "continuation", "past_reference", "open_loop")
_SHAPE_ORDER = ("generic_question", "math", "trivia")
# Families whose retrieval mode depends on whether the message also names something.
_MODE_FAMILIES = ("continuation", "open_loop")
_MAX_ECHOED = 4


class Contribution(NamedTuple):
    rule: str
    weight: float
    cues: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"{self.rule}({', '.join(self.cues[:_MAX_ECHOED])})" if self.cues else self.rule


def _message_contributions(reading: MessageReading, rules: RetrieveRules) -> list[Contribution]:
    weights, cues = rules.weights, reading.cues
    short = len(reading.words) <= rules.short_message_max_words
    # "I" adds nothing once "my"/"our" has already tied the message to the user.
    counted = [f for f in rules.signal_weights if f in cues and not (f == _PERSONAL and _OWNERSHIP in cues)]
    out = [Contribution(family, rules.signal_weights[family], tuple(cues[family])) for family in counted]
    if "anaphoric_reference" in cues:
        if short:
            weight = weights["anaphor_short"]
        elif len(reading.words) <= rules.medium_message_max_words:
            weight = weights["anaphor_medium"]
        else:
            weight = weights["anaphor_long"]
        out.append(Contribution("anaphoric_reference", weight, tuple(cues["anaphoric_reference"])))
    present_domains = [d for d in rules.domains if d in cues]
    room = weights["domain_cap"]
    for rank, domain in enumerate(present_domains):
        weight = min(room, weights["first_domain"] if rank == 0 else weights["additional_domain"])
        room -= weight
        if weight > 0:
            out.append(Contribution(domain, weight, tuple(cues[domain])))
    if present_domains and _OWNERSHIP in cues:
        out.append(Contribution("owned_domain", weights["owned_domain"]))
    elif present_domains and _PERSONAL in cues:
        out.append(Contribution("personal_domain", weights["personal_domain"]))
    if reading.names:
        out.append(Contribution("named_entity", weights["named_entity"], tuple(reading.names)))
    if reading.specific_items:
        shown = tuple(dict.fromkeys(reading.specific_items))
        out.append(Contribution("specific_item", weights["specific_item"], shown))
    if short and any(family in cues for family in _SHORT_CONTEXT):
        out.append(Contribution("short_message", weights["short_context"], (f"{len(reading.words)} words",)))
    return out


def _shape_penalties(
    reading: MessageReading, rules: RetrieveRules, namespace: Namespace
) -> list[Contribution]:
    weights = rules.weights
    # In the au namespace a character's name ties even a trivia-shaped question to the canon.
    anchored = any(family in reading.cues for family in _ANCHORS) or (
        namespace is Namespace.AU and bool(reading.names)
    )
    penalty = weights["shape_penalty_anchored"] if anchored else weights["shape_penalty"]
    if reading.in_chat_followup:
        # A name also anchors a chat edit: "rewrite it in Seren's voice" still needs her canon.
        weight = weights["shape_penalty_anchored"] if reading.names else penalty
        return [Contribution("in_chat_followup", weight)]
    shapes = [name for name in _SHAPE_ORDER if name in reading.shapes]
    if not shapes:
        return []
    return [Contribution(shapes[0], penalty, tuple(reading.shapes[s] for s in shapes))]


def _task_words(current_task: str, rules: RetrieveRules) -> set[str]:
    return {w for w in split_words(current_task.lower()) if len(w) > 2 and w not in rules.task_stopwords}


def _context_contributions(
    reading: MessageReading,
    rules: RetrieveRules,
    namespace: Namespace,
    current_task: str | None,
    conversation_type: str | None,
) -> list[Contribution]:
    weights, out = rules.weights, []
    if namespace is Namespace.AU and (reading.names or "fiction_canon" in reading.cues):
        out.append(Contribution("au_canon_lookup", weights["au_canon_lookup"]))
    if current_task and current_task.strip():
        out.append(Contribution("current_task", weights["current_task"]))
        shared = sorted(_task_words(current_task, rules).intersection(reading.words))
        if shared:
            shown = tuple(w for w in shared if w.isalpha())
            out.append(Contribution("current_task_overlap", weights["current_task_overlap"], shown))
    if conversation_type:
        kinds = set(split_words(conversation_type.lower()))
        if kinds & rules.ongoing_conversation_types:
            out.append(Contribution("conversation_type", rules.conversation_type_weight))
        elif kinds & rules.casual_conversation_types:
            out.append(Contribution("conversation_type", -rules.conversation_type_weight))
    return out


def contributions(
    reading: MessageReading,
    rules: RetrieveRules,
    namespace: Namespace,
    current_task: str | None,
    conversation_type: str | None,
) -> list[Contribution]:
    """The rules that fire, reading the message only as far as the decision needs.

    Later reading stages only add positive evidence (details) or one bounded penalty (shapes), so
    once the score clears the threshold by more than the largest penalty, the rest cannot change
    the decision and is skipped; names and numbered items are still read when they choose the
    retrieval mode of a "continue"-style turn.
    """

    def collect() -> list[Contribution]:
        return [
            *_message_contributions(reading, rules),
            *_context_contributions(reading, rules, namespace, current_task, conversation_type),
        ]

    if reading.all_casual:
        return [*collect(), Contribution("casual_chat", rules.weights["casual_penalty"])]
    certain = rules.threshold - rules.largest_penalty
    # With a "continue"-style cue the details are read whatever the score: no need to score first.
    if not any(f in reading.cues for f in _MODE_FAMILIES):
        fired = collect()
        if sum(c.weight for c in fired) >= certain:
            return fired
    read_details(reading, rules)
    fired = collect()
    if rules.threshold <= sum(c.weight for c in fired) < certain:
        read_shapes(reading, rules)
        fired.extend(_shape_penalties(reading, rules, namespace))
    return fired
