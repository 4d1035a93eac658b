"""Reading stages two and three of the retrieve policy, run only when the score needs them.

Stage two (`read_details`) finds recalled events ("we picked", "Dana said", "lost 300 on the
horses" with its "I" dropped), names and what they ask about (someone's habits, a character's
detail), and specific things worth a search (numbered units, files, identifiers); it only adds
evidence. Stage three (`read_shapes`) finds generic-question, third-person, math and trivia shapes
and in-chat follow-ups, tried at clause starts; it only ever costs one penalty.
"""

import re

from pandora_memory.policy.candidate_rules import REPORTING_ENDINGS
from pandora_memory.policy.retrieve_lexicon import RetrieveRules
from pandora_memory.policy.retrieve_patterns import IN_CHAT_FOLLOWUP
from pandora_memory.policy.retrieve_signals import MessageReading
from pandora_memory.policy.text import CJK_LETTERS

_DIGIT = re.compile(r"\d")
_ASCII_DIGITS = "0123456789"
# Capitalised words, for names. Letters only: a token mixing digits is never echoed as a name.
# Not a word inside a word or an identifier (iPhone, TypeError, Foo2, Foo_bar): no letter or digit
# just before, no word character just after but a Korean or Japanese particle ("Gunnar랑"). The
# lookarounds let the regex engine drop those, which pasted tokens and code hold by the dozen, without
# a Python loop turn each; the lookbehind comes after the capital so that the search still jumps from
# one capital to the next.
_CAPITALISED = re.compile(rf"[A-ZÀ-ÖØ-Þ](?<![^\W_].)[a-zß-öø-ÿ]+(?![^\W{CJK_LETTERS}])")
_SENTENCE_END = ".!?:;"
_SENTENCE_MARK = re.compile(r"[.!?\n]")
# "would Kael ...", "should Wren be...": asking what a character would do or be, like "would he" among the
# canon checks.
_IN_CHARACTER = frozenset(("would", "wouldn", "should", "shouldn", "could", "couldn"))


def _holds_digit(text: str) -> bool:
    if text.isascii():  # ten memchr scans beat one regex step per character
        return any(map(text.__contains__, _ASCII_DIGITS))
    return _DIGIT.search(text) is not None


def _is_past(verb: str, rules: RetrieveRules) -> bool:
    return verb in rules.irregular_past or (
        verb.endswith(rules.past_ending) and len(verb) > 3 and verb not in rules.not_past
    )


def _read_past_tense(words: list[str], subject: int, reading: MessageReading, rules: RetrieveRules) -> None:
    """ "we picked", "they first met", "Dana said": the user recalling something that happened."""
    if subject > 0 and words[subject - 1] in rules.past_conditionals:
        return  # "if you had one", "even if we lost": a supposition, not a memory
    for offset in (1, 2):
        if subject + offset >= len(words):
            return
        verb = words[subject + offset]
        if _is_past(verb, rules):
            reading.add("past_reference", " ".join(words[subject : subject + offset + 1]))
            return
        if verb not in rules.past_adverbs:
            return


def _read_dropped_subject(words: list[str], reading: MessageReading, rules: RetrieveRules) -> None:
    """ "lost 300 on the horses", "ugh. finally paid the card": diary style drops the "I" before a
    past verb at the start of the message; it is the user's own event all the same. So is a
    balance: "down 500 on sports bets"."""
    start = 0
    while start < 2 and start < len(words) and words[start] in rules.dropped_subject_leads:
        start += 1
    balance = words[start : start + 2]
    if len(balance) == 2 and balance[0] in rules.balance_words and _holds_digit(balance[1]):
        if any(family in reading.cues for family in rules.balance_families):
            reading.add("own_event", f"(i) {' '.join(balance)}")
        return
    for position in (start, start + 1):
        if position >= len(words):
            return
        verb = words[position]
        if verb in rules.not_dropped_subject:
            return
        if _is_past(verb, rules):
            follower = words[position + 1] if position + 1 < len(words) else None
            if follower is None or follower in rules.dropped_subject_followers or _holds_digit(follower):
                reading.add("own_event", f"(i) {' '.join(words[start : position + 1])}")
            return
        if verb not in rules.past_adverbs:
            return


def _read_korean_own_event(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "배포했는데 프로덕션에서 결제창이 안 떠": a past statement with the subject dropped. Read only
    where a word of the user's affairs (a domain) is named."""
    for match in rules.korean_past_statement.finditer(reading.lowered):
        sentence_end = _SENTENCE_MARK.search(reading.lowered, match.end())
        if sentence_end is None or sentence_end.group() != "?":
            reading.add("own_event", f"(나) {match.group()}")
            return


def _read_artifact_edit(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "update the one-pager with the pilot numbers": a change asked of something the user has.
    Read only where a word of the user's affairs (a domain) is named."""
    match = rules.artifact_edit.match(reading.lowered)
    if match:
        reading.add("artifact_edit", match.group().strip(" ,.!"))


def _read_topic_thing(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "the deposit thing — yes or no", "that visa thing": a matter called by the user's own
    shorthand, which only their history explains ("the same thing", "the whole thing" are no topic)."""
    if "thing" not in reading.lowered:
        return
    for match in rules.topic_thing.finditer(reading.lowered):
        if rules.not_topic_words.isdisjoint(match.group("topic").split()):
            reading.add("topic_thing", match.group().strip())
            return


def _opens_sentence(text: str, start: int) -> bool:
    before = text[max(0, start - 4) : start].rstrip()
    return not before or before[-1] in _SENTENCE_END


def _speaks(after: str, words: list[str], position: int | None, rules: RetrieveRules) -> bool:
    """A sentence opener that owns something ("Mina's friend") or talks ("Arlo wants", "Jonah me
    dijo") is a person, not the first word of a sentence."""
    if after == "'s":
        return True
    return position is not None and position + 1 < len(words) and words[position + 1] in rules.person_verbs


def _read_names(reading: MessageReading, rules: RetrieveRules) -> None:
    """Capitalised words that are not openers, tools or calendar words. A sentence opener counts as
    a name only with a possessive ("Mina's friend", not "Here's"); either way it can be the subject
    of a recalled event ("Dana said yes") or of "did <Name>"."""
    text, words = reading.text, reading.words
    if text == reading.lowered:  # typed all in lower case: no names to spot but titled ones
        return
    never_names, openers, names = rules.never_names, rules.sentence_starters, reading.names
    joined: set[str] = set()  # names written next to another one: "Paul Graham"
    previous, previous_end = "", -2
    for match in _CAPITALISED.finditer(text):
        start, end = match.span()
        after = text[end : end + 2]
        if after[:1] == "." and after[1:].isalpha():
            continue  # Next.js, Node.js
        name = match.group()
        stem = name.lower()
        if stem in never_names:
            continue
        opener = stem in openers
        if not opener:
            if previous and start == previous_end + 1 and text[previous_end] == " ":
                joined.update((previous, name))
            previous, previous_end = name, end
        position = None if opener else reading.places.first(stem)  # None: not one of the words
        named = not _opens_sentence(text, start) or (not opener and _speaks(after, words, position, rules))
        if named and name not in names:
            names.append(name)
        if position is not None:
            if after == "'s" and named and rules.eponym_nouns.isdisjoint(words[position + 1 : position + 3]):
                reading.add("possessive_name", f"{name}'s")
            _read_past_tense(words, position, reading, rules)
            if position and words[position - 1] == "did":
                reading.add("status_check", f"did {stem}")
            elif position and words[position - 1] in _IN_CHARACTER:
                reading.add("canon_check", f"{words[position - 1]} {stem}")  # "would Kael forgive"
    if names and rules.habit_words.intersection(reading.wordset):
        _read_person_habits(reading, rules, joined)


_LOWER_POSSESSIVE = re.compile(r"(?<![\w'’])([a-z]{3,})['’]s\b")


def _read_lowercase_possessives(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "list every npc who knows pellam's secret": a name typed in lower case, owning something."""
    if "'" not in reading.text and "’" not in reading.text:
        return
    for match in _LOWER_POSSESSIVE.finditer(reading.text):
        stem = match.group(1)
        if stem not in rules.not_possessive_names and stem not in rules.never_names:
            reading.add("lowercase_possessive", f"{stem}'s")


def _read_lowercase_subjects(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "jens wants me to cover sunday", "noor wants to move in": a name typed in lower case, found by a
    verb only people do right after it."""
    for match in rules.lowercase_subject.finditer(reading.lowered):
        stem, shown = match.group(1), match.group(1).capitalize()
        if stem in rules.not_lowercase_names or stem in rules.never_names or shown in reading.names:
            continue
        if match.group().endswith(REPORTING_ENDINGS):
            continue
        reading.names.append(shown)


def _read_titled_names(reading: MessageReading, rules: RetrieveRules) -> None:
    """ "dr amaral", "Coach Reyes": the word after a title is a person's name, whatever its case."""
    words = reading.words
    for title in rules.name_titles.intersection(reading.wordset):
        for position in reading.places.of(title):
            if position + 1 < len(words) and words[position + 1].isalpha():
                name = words[position + 1]
                if name not in rules.never_names and name not in rules.sentence_starters:
                    shown = name.capitalize()
                    if shown not in reading.names:
                        reading.names.append(shown)


def _read_addressed(reading: MessageReading, rules: RetrieveRules) -> None:
    """A name the user writes to or for: "a note to Matilde", "draft a reply for dr amaral"."""
    if not reading.names or rules.writing_words.isdisjoint(reading.wordset):
        return
    words = reading.words
    for name in reading.names:
        position = reading.places.first(name.lower())
        if not position:
            continue
        before = position - 1
        if before and words[before] in rules.name_titles:
            before -= 1
        if words[before] in rules.addressed_before:
            reading.add("person_addressed", f"{words[before]} {name}")


def _read_person_habits(reading: MessageReading, rules: RetrieveRules, joined: set[str]) -> None:
    """A first name followed within two words by a habit word: "does Tomás usually", "Priya
    prefers". A full name ("Paul Graham usually says") reads as a public figure instead."""
    words = reading.words
    for name in reading.names:
        position = None if name in joined else reading.places.first(name.lower())
        if position is None:
            continue
        habit = next((w for w in words[position + 1 : position + 3] if w in rules.habit_words), None)
        if habit:
            reading.add("person_habit", f"{name} {habit}")


def _read_specific_items(reading: MessageReading, rules: RetrieveRules) -> None:
    """Numbered units ("chapter 6", "3장"), file names and snake_case identifiers: worth a search."""
    words, lowered = reading.words, reading.lowered
    if _holds_digit(lowered):
        for unit in reading.places.in_order(rules.units.intersection(reading.wordset)):
            for position in reading.places.of(unit):
                if position + 1 < len(words) and words[position + 1].isdigit():
                    after = words[position + 2 : position + 4]
                    if after[:1] == ["of"] and not rules.ownership_words.intersection(after):
                        # "chapter 1 of pride and prejudice": a published work, not "of my fic".
                        reading.shapes.setdefault("generic_question", f"{unit} {words[position + 1]} of")
                    else:
                        reading.specific_items.append(f"{unit} {words[position + 1]}")
        if not lowered.isascii() and any(unit in lowered for unit in rules.numbered_suffixes):
            reading.specific_items.extend(m.group(0) for m in rules.numbered_unit.finditer(lowered))
        if reading.word_count <= rules.short_message_max_words and rules.continuation_fragment.match(lowered):
            reading.add("continuation", "numbered part")
    for extension in reading.places.in_order(rules.file_extensions.intersection(reading.wordset)):
        if f".{extension}" in lowered:
            reading.specific_items.append(f"file .{extension}")
    if "_" in lowered and rules.snake_case.search(lowered):  # "feedback_events", "digest_cron"
        reading.specific_items.append("identifier")


def read_details(reading: MessageReading, rules: RetrieveRules) -> None:
    """Stage two: recalled events ("we picked"), names, and specific things to search for."""
    if reading.details_read or not reading.words:
        return
    reading.details_read = True
    words = reading.words
    subjects = rules.past_subjects.intersection(reading.wordset)
    if subjects:
        # One pass finds every subject: "i", "we" and "you" often all turn up, and each would scan
        # the words twice. Grouped by subject in order of first appearance, as reasons list them.
        places: dict[str, list[int]] = {}
        for position in [p for p, word in enumerate(words) if word in subjects]:
            places.setdefault(words[position], []).append(position)
        for subject_places in places.values():
            for position in subject_places:
                _read_past_tense(words, position, reading, rules)
    _read_dropped_subject(words, reading, rules)
    _read_topic_thing(reading, rules)
    if any(domain in reading.cues for domain in rules.domains):
        if not reading.lowered.isascii():
            _read_korean_own_event(reading, rules)
        _read_artifact_edit(reading, rules)
    _read_titled_names(reading, rules)
    _read_names(reading, rules)
    _read_lowercase_possessives(reading, rules)
    _read_lowercase_subjects(reading, rules)
    _read_addressed(reading, rules)
    _read_specific_items(reading, rules)


def _clauses(lowered: str) -> list[str]:
    for mark in "!?;:":
        lowered = lowered.replace(mark, ".")
    return lowered.split(".")


def read_shapes(reading: MessageReading, rules: RetrieveRules) -> None:
    """Stage three: generic-question, math and trivia shapes and in-chat follow-ups, tried at clause
    starts, plus the digit patterns when the message holds a digit."""
    for clause in _clauses(reading.lowered):
        match = rules.clause_shapes.match(clause.strip())
        if match and match.lastgroup:
            if match.lastgroup == IN_CHAT_FOLLOWUP:
                reading.in_chat_followup = True
            else:
                reading.shapes.setdefault(match.lastgroup, match.group(match.lastgroup).strip())
    if _holds_digit(reading.lowered):
        for found in rules.math_with_digits.finditer(reading.lowered):
            # "ch 6-8", "pages 12-14": a range of the user's own things, not arithmetic.
            if not _numbers_a_range(reading.lowered, found, rules):
                reading.shapes.setdefault("math", found.group(0).strip())
                break
        else:
            question = _word_problem(reading.lowered, rules)
            if question:
                reading.shapes.setdefault("math", question)


def _word_problem(lowered: str, rules: RetrieveRules) -> str:
    """The question of a word problem: one asking for a total or a margin, with a figure before it in
    its sentence ("2 chapters a week at 5500 each, how many total over 12 weeks"). Found question
    first, then the figure looked for behind it: a search from every digit forward costs far more."""
    for question in rules.word_problem_questions.finditer(lowered):
        start = question.start()
        before = lowered[max(0, start - rules.word_problem_reach) : start]
        since = max(before.rfind("?"), before.rfind("\n")) + 1
        if any(char.isdigit() for char in before[since:]):
            return question.group()
    return ""


def _numbers_a_range(lowered: str, found: re.Match[str], rules: RetrieveRules) -> bool:
    if "/" in found.group(0) and rules.split_figures.search(
        lowered, max(0, found.start() - 3), found.end() + 3
    ):
        return True  # "50/50 or 60/40", "24/7": a split or a schedule, not a division
    if "-" not in found.group(0):
        return False
    before = lowered[max(0, found.start() - 16) : found.start()].split()
    return bool(before) and before[-1].rstrip(".") in rules.range_nouns
