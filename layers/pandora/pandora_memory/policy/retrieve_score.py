"""Turns a message reading plus the turn's context into weighted, named contributions.

Each contribution is one rule that fired, with its weight and the cue words behind it, so the
decision's reason can say exactly why. Weights live in rules.toml under `[retrieve.*]`.
"""

from difflib import SequenceMatcher
from typing import NamedTuple

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.retrieve_details import read_details, read_shapes
from pandora_memory.policy.retrieve_lexicon import RetrieveRules, split_words
from pandora_memory.policy.retrieve_signals import BARE_GO_ON, MessageReading

_PERSONAL = "personal_reference"
_OWNERSHIP = "ownership"
_PERSON_HABIT = "person_habit"
_PERSON_ADDRESSED = "person_addressed"
_OWN_EVENT = "own_event"
_ARTIFACT_EDIT = "artifact_edit"
_TOPIC_THING = "topic_thing"
_STORY_FAMILY = "fiction_canon"
# Families that tie a generic-looking question back to the user's own context; a matter called by the
# user's shorthand ("the kofi vs patreon thing") is one of theirs whatever the question's shape.
_ANCHORS = (_OWNERSHIP, "past_reference", _PERSON_HABIT, _PERSON_ADDRESSED, "own_response", _TOPIC_THING)
# Advice about "someone" in general: only the user's own "my" or "I" lightens it.
_THIRD_PERSON = "third_person"
_THIRD_PERSON_ANCHORS = (_OWNERSHIP, _PERSONAL)
# What a continuity ask in the au namespace needs to be about: a recalled event (names and
# definite story items are checked besides).
_RECALLED = ("past_reference", "recall_question")
# Cues that make a short message lean on context it does not contain.
_SHORT_CONTEXT = ("anaphoric_reference", "continuation", "past_reference", "open_loop")
_TRIVIA = "trivia"
_RELAYED = "relayed_question"
_CONCEPT = "concept_question"
# What a recalled event or the user's own situation anchors where "my" does not: a relayed question,
# the meaning of a term.
_RECALL_ANCHORS = ("past_reference", "own_situation", "recall_question")
_CONCEPT_ANCHORS = ("past_reference", "own_situation")
_SHAPE_ORDER = ("generic_question", _CONCEPT, _THIRD_PERSON, _RELAYED, "math", _TRIVIA)
# Families whose retrieval mode depends on whether the message also names something.
_MODE_FAMILIES = ("continuation", "open_loop")
_MAX_ECHOED = 4


class Contribution(NamedTuple):
    rule: str
    weight: float
    cues: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"{self.rule}({', '.join(self.cues[:_MAX_ECHOED])})" if self.cues else self.rule


def _signal_weight(family: str, found: list[str], rules: RetrieveRules) -> float:
    strong = rules.strong_signals.get(family)
    if strong is not None and not strong[1].isdisjoint(found):
        return strong[0]
    return rules.signal_weights[family]


def _message_contributions(reading: MessageReading, rules: RetrieveRules) -> list[Contribution]:
    weights, cues = rules.weights, reading.cues
    short = reading.word_count <= rules.short_message_max_words
    # "I" adds nothing once "my"/"our" has already tied the message to the user.
    counted = [f for f in rules.signal_weights if f in cues and not (f == _PERSONAL and _OWNERSHIP in cues)]
    out = [
        Contribution(family, _signal_weight(family, cues[family], rules), tuple(cues[family]))
        for family in counted
    ]
    if "anaphoric_reference" in cues:
        if short:
            weight = weights["anaphor_short"]
        elif reading.word_count <= rules.medium_message_max_words:
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
    for family in (_PERSON_HABIT, _PERSON_ADDRESSED, _OWN_EVENT, _ARTIFACT_EDIT, _TOPIC_THING):
        if family in cues:
            out.append(Contribution(family, weights[family], tuple(cues[family])))
    if reading.specific_items:
        shown = tuple(dict.fromkeys(reading.specific_items))
        out.append(Contribution("specific_item", weights["specific_item"], shown))
    if short and any(family in cues for family in _SHORT_CONTEXT):
        out.append(Contribution("short_message", weights["short_context"], (f"{reading.word_count} words",)))
    if short and "status_check" in cues and "outcome" in cues:
        out.append(Contribution("short_status_check", weights["short_status_check"], tuple(cues["outcome"])))
    if reading.word_count <= rules.news_max_words and "outcome" in cues and _opens_on_news(reading, rules):
        out.append(Contribution("short_news", weights["short_news"], tuple(cues["outcome"])))
    return out


def _opens_on_news(reading: MessageReading, rules: RetrieveRules) -> bool:
    """ "the letter came", "so. the store called", "letter came.": a thing or person the user knows,
    then what it did."""
    if reading.word_count <= rules.news_bare_max_words:
        return True
    for word in reading.words:
        if word not in rules.news_fillers:
            return word in rules.news_openers
    return False


def _opener(words: list[str], position: int, determiners: frozenset[str], indefinites: frozenset[str]) -> int:
    """Where the nearest determiner or indefinite word stands, up to three words before `position`; -1
    when there is none."""
    for back in range(position - 1, max(-1, position - 4), -1):
        if words[back] in determiners or words[back] in indefinites:
            return back
    return -1


def _story_item(reading: MessageReading, rules: RetrieveRules) -> str | None:
    """A story word the message points at as a known item: "the prophecy", "that tavern scene".
    Looks back up to three words for a determiner; an indefinite word ("a scene") stops it."""
    words, determiners = reading.words, rules.story_determiners
    for cue in reading.cues.get(_STORY_FAMILY, ()):
        for position in reading.places.of(cue):
            back = _opener(words, position, determiners, rules.story_indefinites)
            if back >= 0 and words[back] in determiners:
                return " ".join(words[back : position + 1])
    return None


def _under_an_indefinite(words: list[str], position: int, rules: RetrieveRules) -> bool:
    """The nearest opener up to three words back is indefinite: "a fantasy novel chapter"."""
    back = _opener(words, position, rules.story_determiners, rules.generic_story_openers)
    return back >= 0 and words[back] not in rules.story_determiners


def _only_generic_story(reading: MessageReading, rules: RetrieveRules) -> bool:
    """Every story word of the message is under an indefinite: the craft, not the user's canon. A phrase
    cue ("magic system") is not placed word by word, so it is never judged generic."""
    for cue in reading.cues.get(_STORY_FAMILY, ()):
        places = reading.places.of(cue)
        if not places or not all(_under_an_indefinite(reading.words, at, rules) for at in places):
            return False
    return True


def _canon_item(reading: MessageReading, rules: RetrieveRules, namespace: Namespace) -> bool:
    return namespace is Namespace.AU and _story_item(reading, rules) is not None


def _asks_after_own(reading: MessageReading) -> bool:
    """ "what did I decide about X vs Y", "status check on Larkspur, what's done vs not": the user's own
    history or named thing, whatever generic word the question also holds."""
    cues = reading.cues
    recalls_own = "recall_question" in cues and "own_situation" in cues
    return recalls_own or ("status_check" in cues and bool(reading.names))


def _shape_penalties(
    reading: MessageReading, rules: RetrieveRules, namespace: Namespace
) -> list[Contribution]:
    weights, cues = rules.weights, reading.cues
    light, full = weights["shape_penalty_anchored"], weights["shape_penalty"]
    # In the au namespace a character's name ties even a trivia-shaped question to the canon.
    au_names = namespace is Namespace.AU and bool(reading.names)
    # A weak anchor ("again") counts only beside a name or a definite thing ("the staging box"): without
    # one, "how do i run a github action again" asks to be reminded of general knowledge.
    definite = bool(reading.names) or not rules.definite_words.isdisjoint(reading.wordset)
    weak = rules.weak_anchors
    strongly = any(family in cues and not weak.issuperset(cues[family]) for family in _ANCHORS)
    weakly = definite and any(family in cues for family in _ANCHORS)
    own = au_names or _asks_after_own(reading)
    penalty = light if own or strongly or weakly else full
    if reading.in_chat_followup:
        # A name or a definite story item anchors a chat edit: "rewrite it in Seren's voice" and
        # "the scene with the letter. rewrite it" still need the canon; "ok that worked. next?" goes
        # on with the work under way. A weak anchor does not: in "try it again, shorter" the "again"
        # asks to redo.
        canon = reading.names or _canon_item(reading, rules, namespace)
        goes_on = BARE_GO_ON in cues.get("continuation", ())
        return [Contribution("in_chat_followup", light if canon or goes_on or own or strongly else full)]
    # "does Tomás usually": the habit word is the person's, not the mark of a generic question.
    habits = {cue.rsplit(" ", 1)[-1] for cue in cues.get(_PERSON_HABIT, ())}
    # "the etsy vs shopify thing": a shape word inside the user's shorthand for a matter is part of its name.
    named = {word for thing in cues.get(_TOPIC_THING, ()) for word in thing.split()}
    shapes = [
        name
        for name in _SHAPE_ORDER
        if name in reading.shapes and reading.shapes[name] not in habits and reading.shapes[name] not in named
    ]
    if not shapes:
        return []
    weight = {name: penalty for name in shapes}
    if _THIRD_PERSON in weight:
        weight[_THIRD_PERSON] = light if au_names or any(f in cues for f in _THIRD_PERSON_ANCHORS) else full
    for shape, anchors in ((_RELAYED, _RECALL_ANCHORS), (_CONCEPT, _CONCEPT_ANCHORS)):
        if shape in weight:
            weight[shape] = light if au_names or any(f in cues for f in anchors) else full
    if _TRIVIA in weight and _PERSONAL in cues:
        # "who was the contact that kept changing the schema without telling me": trivia about the
        # world never needs the asker in it.
        weight[_TRIVIA] = light
    worst = min(shapes, key=weight.__getitem__)  # min keeps the first of equals: the reading order
    return [Contribution(worst, weight[worst], tuple(reading.shapes[s] for s in shapes))]


def _follows_up_the_task(reading: MessageReading, rules: RetrieveRules) -> bool:
    """ "revert to the old one" while a task is under way: short, pointing at a definite thing, no question
    word or choice of its own; or short and judging what the task produced."""
    words = reading.wordset
    if reading.word_count > rules.task_followup_max_words or reading.all_casual:
        return False
    # "is friday realistic?", "too harsh?", "what about the trailer then": a judgement of the plan or
    # draft under way, or an ellipsis that only the task completes.
    if not rules.task_judgement_words.isdisjoint(words) or reading.lowered.rstrip(" ?!.").endswith(" then"):
        return True
    return not rules.definite_words.isdisjoint(words) and rules.task_followup_not_words.isdisjoint(words)


def _spelling_choice(choice: str, rules: RetrieveRules) -> bool:
    """ "lightning or lightening", "affect or effect": a question of spelling, not of what the canon says."""
    first, separator, second = choice.partition(" or ")
    spelled = bool(separator) and first.isalpha() and second.isalpha()  # "0417 or 0471" asks the canon
    return spelled and SequenceMatcher(None, first, second).ratio() >= rules.spelling_choice_similarity


def _tips_towards_retrieval(current_task: str, rules: RetrieveRules) -> bool:
    """A task under way, unless it is study, trivia or quick questions: those hold nothing of the user's."""
    return bool(current_task.strip()) and rules.offhand_task_words.isdisjoint(
        split_words(current_task.lower())
    )


def _task_words(current_task: str, rules: RetrieveRules) -> set[str]:
    return {w for w in split_words(current_task.lower()) if len(w) > 2 and w not in rules.task_stopwords}


def _context_contributions(
    reading: MessageReading,
    rules: RetrieveRules,
    namespace: Namespace,
    task: str | None,
    conversation_type: str | None,
) -> list[Contribution]:
    """`task` is the current task when it tips a message towards retrieval (see _tips_towards_retrieval)."""
    weights, out = rules.weights, []
    # In the fiction, a name, a story word or a recalled thing ("what currency do they use again") is
    # a question about the canon.
    recalled = any(family in reading.cues for family in _RECALLED)
    story = _STORY_FAMILY in reading.cues and not _only_generic_story(reading, rules)
    if namespace is Namespace.AU and (reading.names or story or recalled):
        out.append(Contribution("au_canon_lookup", weights["au_canon_lookup"]))
    # "Corin's rank": a character's own detail is a continuity ask of its own.
    lowercase_owners = reading.cues.get("lowercase_possessive", ())
    asks = [*reading.cues.get("canon_check", ()), *reading.cues.get("possessive_name", ()), *lowercase_owners]
    if namespace is Namespace.AU and asks:
        about = reading.names or recalled or lowercase_owners or _story_item(reading, rules) is not None
        if about:
            out.append(Contribution("au_continuity_check", weights["au_continuity_check"], tuple(asks)))
    choice = rules.either_or.search(reading.lowered) if namespace is Namespace.AU else None
    if choice is not None and not _spelling_choice(choice.group(), rules):
        out.append(Contribution("au_either_or", weights["au_either_or"], (choice.group(),)))
    if task is not None:
        out.append(Contribution("current_task", weights["current_task"]))
        # "numbers look ok this month?" while tracking a budget: a short check on the task under way.
        if reading.word_count <= rules.short_message_max_words and "status_check" in reading.cues:
            out.append(Contribution("task_status_check", weights["task_status_check"]))
        shared = sorted(_task_words(task, rules).intersection(reading.words))
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

    # Resolved once: the context is collected up to twice and the follow-up rule asks again.
    task = current_task if current_task is not None and _tips_towards_retrieval(current_task, rules) else None

    def collect() -> list[Contribution]:
        return [
            *_message_contributions(reading, rules),
            *_context_contributions(reading, rules, namespace, task, conversation_type),
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
    score = sum(c.weight for c in fired)
    # Only a message that would not retrieve on its own: a short follow-up on the task under way.
    if score < rules.threshold and task is not None and _follows_up_the_task(reading, rules):
        followup = Contribution("task_followup", rules.weights["task_followup"])
        fired.append(followup)
        score += followup.weight
    if rules.threshold <= score < certain:
        read_shapes(reading, rules)
        fired.extend(_shape_penalties(reading, rules, namespace))
    return fired
