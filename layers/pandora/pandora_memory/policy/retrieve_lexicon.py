"""Compiles the `[retrieve]` rules once per process into cue indexes and regexes.

Cue families are indexed by word and by word pair rather than compiled into one regex per family:
a message's words are then matched against every lexicon at once by set intersection, whatever the
size of the lexicons. Question-shape regexes are only tried at clause starts.
"""

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pandora_memory.policy.candidate_rules import lowercase_name_pattern
from pandora_memory.policy.retrieve_patterns import clause_shapes, digit_led_any_of, underscore_join
from pandora_memory.policy.rules import section
from pandora_memory.policy.text import split_scripts


def _ascii_punctuation_to_spaces() -> bytes:
    punctuation = bytes(c for c in range(128) if not (chr(c).isalnum() or chr(c).isspace() or chr(c) == "'"))
    return bytes.maketrans(punctuation, b" " * len(punctuation))


# Punctuation and underscores split words, and contraction tails go ("what's" -> "what", "kael's"
# -> "kael", "didn't" -> "didn"). Cues are split the same way as messages. ASCII text takes
# bytes.translate with a table (a C loop, several times faster than str.translate); other text
# str.replace for underscores, then a regex for the rest of the punctuation, written to open on a
# character set so that the search skips from one punctuation mark to the next. Only where the
# spaces fall matters, not how many there are.
_PUNCTUATION_RUN = re.compile(r"[^\w\s'][^\w\s']*")
_ASCII_PUNCTUATION = _ascii_punctuation_to_spaces()
_APOSTROPHE = re.compile(r"'(?:s|t|m|d|ll|re|ve)\b|'")
NEUTRAL_FAMILY = "neutral"
CASUAL_FAMILY = "casual"


@dataclass(frozen=True, slots=True)
class Cue:
    family: str
    text: str
    rest: tuple[str, ...]  # words after the first; a trailing "*" on the last means "starts with"
    rank: int  # order in the rules file: reasons list cues in this stable order
    # What follows the first word when the message's words are joined by single spaces: " a b "
    # for the rest "a b", " a st" (open end) for "a st*". A substring test then finds a phrase.
    following: str

    def rest_matches(self, words: list[str], start: int) -> bool:
        if start + len(self.rest) > len(words):
            return False
        for offset, expected in enumerate(self.rest):
            word = words[start + offset]
            if expected.endswith("*"):
                if not word.startswith(expected[:-1]):
                    return False
            elif word != expected:
                return False
        return True


@dataclass(frozen=True)
class CueIndex:
    """Cues keyed by how their first word is matched: whole word, or (for scripts that glue
    particles onto words) word start, word end, or anywhere in the text. Phrases are keyed by their
    first two words, so a common first word ("i", "what") costs one lookup, not a dozen checks."""

    # Hits are (rank, cue, matched word) tuples; those of single words and two-word phrases never
    # vary, so they are built once here and only copied per message.
    single_hits: Mapping[str, tuple[tuple[int, Cue, str], ...]]
    single_keys: frozenset[str]
    pair_hits: Mapping[tuple[str, str], tuple[tuple[int, Cue, str], ...]]
    phrases: Mapping[tuple[str, str], tuple[Cue, ...]]  # three words or more, keyed by the first two
    phrase_keys: frozenset[tuple[str, str]]  # first two words of every phrase
    loose_phrases: Mapping[str, tuple[Cue, ...]]  # second word matched by its start ("몇 장*")
    prefix: Mapping[str, tuple[tuple[str, Cue], ...]]  # keyed by the stem's first character
    suffix: Mapping[str, tuple[tuple[str, Cue], ...]]  # keyed by the ending's last character
    infix: tuple[tuple[str, Cue], ...]
    infix_any: re.Pattern[str]  # any infix fragment: most texts hold none, and then one search does
    # The keys above whose cues include a neutral phrase: a message matching none of them has no
    # neutral phrase to mask other cues with.
    neutral_words: frozenset[str]
    neutral_pairs: frozenset[tuple[str, str]]

    def glued_cues(self, word: str) -> list[Cue]:
        """Cues whose first word is matched by its start or its end; the caller checks the rest."""
        by_start, by_end = self.prefix.get(word[0]), self.suffix.get(word[-1])
        if by_start is None and by_end is None:  # most words: two dictionary misses
            return []
        found = [cue for stem, cue in by_start or () if word.startswith(stem)]
        found.extend(cue for ending, cue in by_end or () if word.endswith(ending))
        return found


def split_words(text: str, *, scripts_apart: bool = True) -> list[str]:
    """`scripts_apart`: a Latin word and the Korean or Japanese particle glued to it are two words."""
    if text.isascii():
        text = text.encode("ascii").translate(_ASCII_PUNCTUATION).decode("ascii")
    else:
        text = _PUNCTUATION_RUN.sub(" ", text.replace("_", " "))
        if scripts_apart:
            text = split_scripts(text)
    if "'" in text:
        text = _APOSTROPHE.sub(" ", text)
    return text.split()


def cue_words(cue: str) -> list[str]:
    """Split a cue into words like the message is split, keeping the `*` markers at either end."""
    cue = unicodedata.normalize("NFKC", cue).lower().strip()
    if "*" in cue.strip("*"):
        raise ValueError(f"cue {cue!r}: `*` goes only at the ends (word start or word end)")
    if "|" in cue:  # the candidate lexicon's `a|b` alternatives; here each form is its own entry
        raise ValueError(f"cue {cue!r}: list each alternative as its own cue")
    leading, trailing = cue.startswith("*"), cue.endswith("*") and len(cue) > 1
    words = split_words(cue.strip("*"))
    if words and leading:
        words[0] = "*" + words[0]
    if words and trailing:
        words[-1] += "*"
    return words


def _following(rest: tuple[str, ...]) -> str:
    joined = "".join(f" {word}" for word in rest)
    return joined[:-1] if joined.endswith("*") else f"{joined} "


def build_index(families: Mapping[str, Iterable[str]]) -> CueIndex:
    single: dict[str, list[Cue]] = {}
    pairs: dict[tuple[str, str], list[Cue]] = {}
    phrases: dict[tuple[str, str], list[Cue]] = {}
    loose: dict[str, list[Cue]] = {}
    prefix: dict[str, list[tuple[str, Cue]]] = {}
    suffix: dict[str, list[tuple[str, Cue]]] = {}
    infix: list[tuple[str, Cue]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for family, cues in families.items():
        for text in cues:
            words = cue_words(text)
            if not words or (family, tuple(words)) in seen:
                continue  # "what's next" and "what next" split alike: keep the first
            seen.add((family, tuple(words)))
            first, rest = words[0], tuple(words[1:])
            cue = Cue(family, text, rest, len(seen), _following(rest))
            if first.strip("*") != first and first.isascii():
                raise ValueError(f"cue {text!r}: `*` forms are for non-Latin scripts; list the words")
            if first.startswith("*") and first.endswith("*") and not rest:
                infix.append((first.strip("*"), cue))
            elif first.startswith("*"):
                ending = first[1:]
                suffix.setdefault(ending[-1], []).append((ending, cue))
            elif first.endswith("*") and not rest:
                stem = first[:-1]
                prefix.setdefault(stem[0], []).append((stem, cue))
            elif not rest:
                single.setdefault(first, []).append(cue)
            elif rest[0].endswith("*"):
                loose.setdefault(first, []).append(cue)
            elif len(rest) == 1:
                pairs.setdefault((first, rest[0]), []).append(cue)
            else:
                phrases.setdefault((first, rest[0]), []).append(cue)
    neutral = [(words, cue) for words, cue in _keyed(single, pairs, phrases) if cue.family == NEUTRAL_FAMILY]
    return CueIndex(
        single_hits={k: tuple((c.rank, c, k) for c in v) for k, v in single.items()},
        single_keys=frozenset(single),
        pair_hits={k: tuple((c.rank, c, k[0]) for c in v) for k, v in pairs.items()},
        phrases={k: tuple(v) for k, v in phrases.items()},
        phrase_keys=frozenset([*pairs, *phrases]),
        loose_phrases={k: tuple(v) for k, v in loose.items()},
        prefix={k: tuple(v) for k, v in prefix.items()},
        suffix={k: tuple(v) for k, v in suffix.items()},
        infix=tuple(infix),
        infix_any=re.compile("|".join(re.escape(fragment) for fragment, _ in infix) or r"(?!x)x"),
        neutral_words=frozenset(key for key, _ in neutral if isinstance(key, str)),
        neutral_pairs=frozenset(key for key, _ in neutral if isinstance(key, tuple)),
    )


def _keyed(
    single: Mapping[str, list[Cue]],
    pairs: Mapping[tuple[str, str], list[Cue]],
    phrases: Mapping[tuple[str, str], list[Cue]],
) -> Iterable[tuple[str | tuple[str, str], Cue]]:
    for word, cues in single.items():
        yield from ((word, cue) for cue in cues)
    for mapping in (pairs, phrases):
        for pair, cues in mapping.items():
            yield from ((pair, cue) for cue in cues)


def _words(values: Iterable[str]) -> frozenset[str]:
    """A word list split like messages are ("let's" -> "let")."""
    return frozenset(w for v in values for w in split_words(unicodedata.normalize("NFKC", v).lower()))


@dataclass(frozen=True)
class RetrieveRules:
    threshold: float
    short_message_max_words: int
    medium_message_max_words: int
    max_analysed_chars: int
    weights: Mapping[str, float]
    largest_penalty: float  # the most negative single shape penalty
    signal_weights: Mapping[str, float]
    # family -> (weight, cues): a family weighs more when one of these cues is among its hits
    strong_signals: Mapping[str, tuple[float, frozenset[str]]]
    domains: tuple[str, ...]
    index: CueIndex
    casual_index: CueIndex  # consulted only for messages short enough to be small talk
    past_subjects: frozenset[str]
    past_adverbs: frozenset[str]
    past_conditionals: frozenset[str]
    past_ending: str
    not_past: frozenset[str]
    irregular_past: frozenset[str]
    dropped_subject_leads: frozenset[str]
    not_dropped_subject: frozenset[str]
    dropped_subject_followers: frozenset[str]
    balance_words: frozenset[str]
    balance_families: tuple[str, ...]
    korean_past_statement: re.Pattern[str]
    artifact_edit: re.Pattern[str]
    topic_thing: re.Pattern[str]
    weak_anchors: frozenset[str]
    definite_words: frozenset[str]
    not_topic_words: frozenset[str]
    that_after: frozenset[str]
    clause_shapes: re.Pattern[str]
    math_with_digits: re.Pattern[str]
    word_problem_questions: re.Pattern[str]
    word_problem_reach: int
    range_nouns: frozenset[str]
    split_figures: re.Pattern[str]
    continuation_fragment: re.Pattern[str]
    bare_continuation: re.Pattern[str]
    units: frozenset[str]
    ownership_words: frozenset[str]
    numbered_unit: re.Pattern[str]  # "3장": a number glued to a unit word
    numbered_suffixes: tuple[str, ...]  # the unit words of numbered_unit: without one, no match
    file_extensions: frozenset[str]
    snake_case: re.Pattern[str]  # only ever searched for whether it occurs
    casual_max_words: int
    never_names: frozenset[str]  # listed not-names, and capitalised tools and platforms
    sentence_starters: frozenset[str]
    habit_words: frozenset[str]
    person_verbs: frozenset[str]
    writing_words: frozenset[str]
    addressed_before: frozenset[str]
    name_titles: frozenset[str]
    eponym_nouns: frozenset[str]
    not_possessive_names: frozenset[str]
    lowercase_subject: re.Pattern[str]
    not_lowercase_names: frozenset[str]
    story_determiners: frozenset[str]
    news_max_words: int
    news_bare_max_words: int
    news_openers: frozenset[str]
    news_fillers: frozenset[str]
    story_indefinites: frozenset[str]
    generic_story_openers: frozenset[str]
    either_or: re.Pattern[str]  # a choice between two answers, searched in the au namespace only
    spelling_choice_similarity: float
    task_stopwords: frozenset[str]
    task_followup_max_words: int
    task_followup_not_words: frozenset[str]
    task_judgement_words: frozenset[str]
    offhand_task_words: frozenset[str]
    ongoing_conversation_types: frozenset[str]
    casual_conversation_types: frozenset[str]
    conversation_type_weight: float


def _product_words(domains: Mapping[str, Any], families: Iterable[str]) -> frozenset[str]:
    words: set[str] = set()
    for family in families:
        for cue in domains[family]["cues"]:
            words.update(w.strip("*") for w in cue_words(cue))
    return frozenset(words)


def _strong_signals(signals: Mapping[str, Any]) -> dict[str, tuple[float, frozenset[str]]]:
    strong: dict[str, tuple[float, frozenset[str]]] = {}
    for family, table in signals.items():
        if "strong" not in table:
            continue
        unknown = set(table["strong"]) - set(table["cues"])
        if unknown:
            raise ValueError(f"retrieve.signal.{family}: strong cues not among its cues: {sorted(unknown)}")
        strong[family] = (float(table["strong_weight"]), frozenset(table["strong"]))
    return strong


@cache
def retrieve_rules() -> RetrieveRules:
    raw: dict[str, Any] = section("retrieve")
    signals: dict[str, Any] = raw["signal"]
    domains: dict[str, Any] = raw["domain"]
    shape: dict[str, Any] = raw["shape"]
    past: dict[str, Any] = raw["past_tense"]
    names: dict[str, Any] = raw["names"]
    context: dict[str, Any] = raw["context"]
    specific: dict[str, Any] = raw["specific"]
    people: dict[str, Any] = section("candidate")["people"]
    families = {name: table["cues"] for name, table in signals.items()}
    families.update({name: table["cues"] for name, table in domains.items()})
    families.update({name: table["cues"] for name, table in raw["marker"].items()})
    return RetrieveRules(
        threshold=float(raw["threshold"]),
        short_message_max_words=int(raw["short_message_max_words"]),
        medium_message_max_words=int(raw["medium_message_max_words"]),
        max_analysed_chars=int(raw["max_analysed_chars"]),
        weights={k: float(v) for k, v in raw["weights"].items()},
        largest_penalty=min(float(raw["weights"][k]) for k in ("shape_penalty", "shape_penalty_anchored")),
        signal_weights={k: float(t["weight"]) for k, t in signals.items() if "weight" in t},
        strong_signals=_strong_signals(signals),
        domains=tuple(domains),
        index=build_index(families),
        casual_index=build_index({CASUAL_FAMILY: raw["casual"]["words"]}),
        past_subjects=_words(past["subjects"]),
        past_adverbs=_words(past["adverbs"]),
        past_conditionals=_words(past["conditionals"]),
        past_ending=str(past["ending"]),
        not_past=_words(past["not_past"]),
        irregular_past=_words(past["irregular"]),
        dropped_subject_leads=_words(past["dropped_subject_leads"]),
        not_dropped_subject=_words(past["not_dropped_subject"]),
        dropped_subject_followers=_words(past["dropped_subject_followers"]),
        balance_words=_words(past["balance_words"]),
        balance_families=tuple(past["balance_families"]),
        korean_past_statement=re.compile(past["korean_past_statement"]),
        that_after=_words(signals["anaphoric_reference"]["that_after"]),
        news_max_words=int(signals["outcome"]["news_max_words"]),
        news_bare_max_words=int(signals["outcome"]["news_bare_max_words"]),
        news_openers=_words(signals["outcome"]["news_openers"]),
        news_fillers=_words(signals["outcome"]["news_fillers"]),
        clause_shapes=clause_shapes(shape),
        math_with_digits=digit_led_any_of(shape["math_with_digits"]),
        word_problem_questions=re.compile("|".join(f"(?:{p})" for p in shape["word_problem_questions"])),
        word_problem_reach=int(shape["word_problem_reach"]),
        range_nouns=_words(shape["range_nouns"]),
        split_figures=re.compile(shape["split_figures"]),
        continuation_fragment=re.compile(shape["continuation_fragment"]),
        bare_continuation=re.compile(shape["bare_continuation"]),
        units=_words(specific["units"]),
        ownership_words=_words(c for c in signals["ownership"]["cues"] if "*" not in c),
        numbered_unit=re.compile(rf"\d+(?:{'|'.join(map(re.escape, specific['numbered_suffixes']))})"),
        numbered_suffixes=tuple(specific["numbered_suffixes"]),
        file_extensions=_words(specific["file_extensions"]),
        snake_case=underscore_join(specific["snake_case"]),
        casual_max_words=int(raw["casual"]["max_words"]),
        never_names=_words(names["not_names"]) | _product_words(domains, names["product_families"]),
        sentence_starters=_words(names["sentence_starters"]),
        habit_words=_words(names["habit_words"]),
        person_verbs=_words(names["person_verbs"]),
        writing_words=_words(names["writing_words"]),
        addressed_before=_words(names["addressed_before"]),
        name_titles=_words(names["name_titles"]),
        eponym_nouns=_words(names["eponym_nouns"]),
        not_possessive_names=_words(names["not_possessive_names"]),
        # The candidate policy's people rules: one list of the verbs only people do.
        lowercase_subject=lowercase_name_pattern(people["lowercase_name_verbs"]),
        not_lowercase_names=_words(people["not_lowercase_names"]),
        story_determiners=_words(context["story_determiners"]),
        story_indefinites=_words(context["story_indefinites"]),
        generic_story_openers=_words(context["generic_story_openers"]),
        artifact_edit=re.compile(context["artifact_edit"]),
        topic_thing=re.compile(context["topic_thing"]),
        weak_anchors=frozenset(context["weak_anchors"]),
        definite_words=_words(context["definite_words"]),
        not_topic_words=_words(context["not_topic_words"]),
        either_or=re.compile("|".join(f"(?:{pattern})" for pattern in context["either_or"])),
        spelling_choice_similarity=float(context["spelling_choice_similarity"]),
        task_stopwords=_words(context["task_stopwords"]),
        task_followup_max_words=int(context["task_followup_max_words"]),
        task_followup_not_words=_words(context["task_followup_not_words"]),
        task_judgement_words=_words(context["task_judgement_words"]),
        offhand_task_words=_words(context["offhand_task_words"]),
        ongoing_conversation_types=_words(context["ongoing_conversation_types"]),
        casual_conversation_types=_words(context["casual_conversation_types"]),
        conversation_type_weight=float(context["conversation_type_weight"]),
    )
