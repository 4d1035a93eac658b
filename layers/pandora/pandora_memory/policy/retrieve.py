"""Auto-retrieve policy: should this turn pull the user's memory in, from which namespace, and how.

Deterministic and explainable: the message is read into cue families (retrieve_signals), each
family that fires adds a weight from rules.toml (retrieve_score), generic question shapes, small
talk and a disclaimer ("not about anything of mine") subtract, and the total is compared with a
threshold. The reason names every rule and cue.
"""

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.learned_words import RETRIEVE, SKIP, learned_words, retrieve_text
from pandora_memory.policy.models import RetrievalMode, RetrieveDecision
from pandora_memory.policy.namespace_inference import NamespaceChoice, ReadText, choose_namespace
from pandora_memory.policy.retrieve_lexicon import RetrieveRules, retrieve_rules
from pandora_memory.policy.retrieve_score import Contribution, contributions
from pandora_memory.policy.retrieve_signals import MessageReading, read_message
from pandora_memory.policy.rules import policy_version

# Turns that ask to go on are best served by the context pack (open loops, recent decisions) unless
# they also name something specific to search for.
_CONTEXT_PACK_FAMILIES = ("continuation", "open_loop")


def _retrieval_mode(reading: MessageReading) -> RetrievalMode:
    asks_to_go_on = any(family in reading.cues for family in _CONTEXT_PACK_FAMILIES)
    names_something = bool(reading.names or reading.specific_items)
    return RetrievalMode.CONTEXT_PACK if asks_to_go_on and not names_something else RetrievalMode.HYBRID


def _reason(
    verdict: str, fired: list[Contribution], score: float, threshold: float, choice: NamespaceChoice
) -> str:
    positive = " + ".join(c.describe() for c in fired if c.weight > 0) or "no retrieval cues"
    negative = "".join(f" - {c.describe()}" for c in fired if c.weight < 0)
    comparison = ">=" if score >= threshold else "<"
    return (
        f"{verdict}: {positive}{negative}; score {score:.2f} {comparison} {threshold:.2f}; {choice.explain()}"
    )


def _learned_nudge(
    fired: list[Contribution],
    user_message: str,
    current_task: str | None,
    namespace: Namespace,
    rules: RetrieveRules,
) -> Contribution | None:
    """The learned word counts' say on a score near the threshold (rules.toml), where it carries the
    score across: lifted only where the rules saw a cue and penalised none, never lowered where a name
    or a cue that retrieves on its own fired, not at all where the counts know too few of the words.
    The counts are read only for a score they may settle."""
    weights = rules.weights
    lift, lower, score = weights["learned_lift"], weights["learned_lower"], sum(c.weight for c in fired)
    if score < rules.threshold:
        liftable = any(c.weight > 0 for c in fired) and all(c.weight >= 0 for c in fired)
        if score < rules.threshold - lift or not liftable:
            return None
    elif (
        score >= rules.threshold + lower
        or any(c.rule == "named_entity" for c in fired)
        or any(c.weight >= rules.threshold for c in fired)
    ):
        return None
    text = retrieve_text(user_message, current_task)
    counts = learned_words("retrieve", weights["learned_smoothing"])
    if counts.known_share(text) < weights["learned_min_known"]:
        return None
    log_odds = counts.log_odds(text, namespace.value, RETRIEVE, SKIP)
    nudge = max(-lower, min(lift, weights["learned_log_odds"] * log_odds))
    if (score + nudge >= rules.threshold) == (score >= rules.threshold):
        return None
    favoured, other = (RETRIEVE, SKIP) if nudge > 0 else (SKIP, RETRIEVE)
    return Contribution(
        "learned_words", nudge, tuple(counts.telling_words(text, namespace.value, favoured, other))
    )


def should_auto_retrieve_memory(
    user_message: str,
    conversation_type: str | None = None,
    namespace: str | Namespace | None = None,
    current_task: str | None = None,
) -> RetrieveDecision:
    """Raises UnknownNamespaceError (a ValueError) for a namespace other than real_life or au."""
    if not user_message or not user_message.strip():
        choice = choose_namespace(namespace, user_message, current_task)
        return RetrieveDecision(
            should_retrieve=False,
            namespace=choice.namespace,
            reason=f"skip: empty message; {choice.explain()}",
            rules=["empty_message"],
            policy_version=policy_version(),
            retrieval_mode=RetrievalMode.NONE,
        )
    rules = retrieve_rules()
    reading = read_message(user_message, rules)
    # Namespace inference looks for fiction cue words: the reading has the message's words already.
    read = ReadText(reading.lowered, reading.wordset) if reading.whole else None
    choice = choose_namespace(namespace, user_message, current_task, first_read=read)
    fired = contributions(reading, rules, choice.namespace, current_task, conversation_type)
    learned = _learned_nudge(fired, user_message, current_task, choice.namespace, rules)
    if learned is not None:
        fired.append(learned)
    score = round(sum(c.weight for c in fired), 4)
    retrieve = score >= rules.threshold
    return RetrieveDecision(
        should_retrieve=retrieve,
        namespace=choice.namespace,
        reason=_reason("retrieve" if retrieve else "skip", fired, score, rules.threshold, choice),
        rules=[c.rule for c in fired] or ["no_retrieval_cues"],
        policy_version=policy_version(),
        retrieval_mode=_retrieval_mode(reading) if retrieve else RetrievalMode.NONE,
    )
