"""Splits a message into clauses and reads each one's mood: statement, question, hypothetical, request,
reported.

Only statements (and labelled notes such as "todo: ...") can carry a durable memory; a question or an
idea floated "what if..." never does, unless it asks for a standing behaviour ("can you use British
spelling from now on?"). Hearsay and received wisdom ("I read that...", "people say...") is reported,
not the user's own memory, unless the clause brings it into the user's world ("...so we're moving").
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import NamedTuple

from pandora_memory.policy.candidate_rules import (
    HEARSAY,
    HYPOTHETICAL,
    RECALL,
    REQUEST,
    STANDING_SCOPE,
    UNCERTAINTY,
    CandidateRules,
    MoodRules,
)
from pandora_memory.policy.lexicon import Hit, tokenize
from pandora_memory.policy.shapes import token_shapes
from pandora_memory.policy.spelling import respelling
from pandora_memory.policy.text import unify_typography

# Text is normalised first (single spaces, no blank lines), so plain separators are enough. Every
# branch opens with a literal (the space after .!? is checked looking back), so the scan skips ahead.
# A comma after a Korean sentence ending closes a sentence ("참고로 나 채식주의자야, 고기 빼줘", "추천해줘,
# 바다 느낌으로"); after a connective ending ("바빠서,", "했는데,") the sentence goes on.
# A full stop ends a sentence, except that of a title or an abbreviation ("Dr. Okafor", "Kopenhagener
# Str. 41", "i.e. the gate code"): one fixed-width lookbehind each, as the engine requires.
_ABBREVIATIONS = (
    "e.g.", "i.e.", "Dr.", "dr.", "Mr.", "mr.", "Mrs.", "mrs.", "Ms.", "ms.", "St.", "Str.", "str.",
    "vs.", "approx.", "ca.", "z.B.", "Prof.", "prof.",
)  # fmt: skip
_NOT_AFTER_ABBREVIATION = "".join(rf"(?<!\b{re.escape(word)} )" for word in _ABBREVIATIONS)
# "No. 5", "Nr. 12" go on; "No. Cut it entirely." is an answer and a new sentence.
_NOT_A_NUMBER_SIGN = r"(?!(?<=\b[Nn][or]\. )\d)"
_SENTENCE_BREAK = re.compile(
    rf" (?<=[.!?] ){_NOT_AFTER_ABBREVIATION}{_NOT_A_NUMBER_SIGN}|\n| - |; |, (?<=[야요음함줘], )"
)
# Inside a clause ending in "?", the statement before the question ("we use X, can you...?").
_SEGMENT_BREAK = re.compile(r", | but ")
# Quoted or fenced material is pasted content (to rewrite, translate...), not the user's own statement.
# Each pattern starts with its literal quote so the scan is fast; an opening single quote must not
# follow a letter (that is an apostrophe: "don't ... it's"). The runs are possessive: a shorter run
# could only end before a character that is not a quote, so giving characters back never helps.
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_DOUBLE_QUOTED = re.compile(r"\"[^\"\n]{16,}+\"")
_SINGLE_QUOTED = re.compile(r"'[^'\n]{16,}+'(?!\w)")


class Mood(StrEnum):
    STATEMENT = "statement"
    LABELLED = "labelled"
    QUESTION = "question"
    HYPOTHETICAL = "hypothetical"
    REQUEST = "request"
    RECALL = "recall"
    REPORTED = "reported"


DURABLE_MOODS = frozenset({Mood.STATEMENT, Mood.LABELLED})


class Clause(NamedTuple):
    text: str
    lowered: str
    tokens: tuple[str, ...]
    hits: tuple[Hit, ...]
    mood: Mood
    shapes: frozenset[str]
    label: str | None


def normalise_keep_case(text: str) -> str:
    """text.normalise without lower-casing: summaries and name detection need the user's casing."""
    if not text.isascii():
        text = unify_typography(unicodedata.normalize("NFKC", text))
    if "\n" not in text:
        return " ".join(text.split())
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def without_quotes(text: str) -> str:
    if "```" in text:
        text = _FENCED.sub(_PLACEHOLDER, text)
    if '"' in text:
        text = _DOUBLE_QUOTED.sub(_PLACEHOLDER, text)
    if "'" in text:
        text = _SINGLE_QUOTED.sub(_unless_apostrophe, text)
    return text


_PLACEHOLDER = '"…"'
# Words before which a name's contracted 's reads as "is", and words whose 's is "is" already read.
_OWN = frozenset({"my", "our"})
_NOT_NAMES = frozenset({"it's", "that's", "this's", "there's", "here's", "what's", "who's", "he's", "she's"})
# The colon that ends a request lead, before a line break or on the same line.
_PASTE_LEAD = re.compile(r":[\n ]")
_PUNCTUATION = re.compile(r"[^\w\s]")


def _unless_apostrophe(match: re.Match[str]) -> str:
    start = match.start()
    after_letter = start > 0 and match.string[start - 1].isalnum()
    return match.group() if after_letter else _PLACEHOLDER


def _request_lead(lead: str, rules: CandidateRules) -> bool:
    """A short lead that asks for work on material ("summarise this pls", "이 문장 고쳐줘"), past a polite
    "can you" ("can you turn this into a markdown table"), and sets no standing rule."""
    words = lead.split()
    mood = rules.mood
    if not words or "\n" in lead or len(words) > mood.pasted_lead_max_words:
        return False
    opening = next((word for word in words if word.lower() not in mood.polite_openers), "")
    # Korean puts the request verb last ("이 문장 고쳐줘: ...").
    if opening.lower() not in mood.request_openers and not words[-1].endswith(mood.request_endings):
        return False
    lowered = lead.lower()
    return not any(
        hit.cue.family == STANDING_SCOPE for hit in rules.phrases.match(tokenize(lowered), lowered)
    )


def without_pasted(text: str, rules: CandidateRules) -> str:
    """Keeps only the lead of "summarise this pls:\n<article>" or "translate to korean: <text>": what
    follows a short request lead is the material to work on, not the user's own statement. A lead that
    sets a standing rule ("from now on send parcels here: <address>") introduces the rule's content.
    A first line asking for work on "this" ("can you turn this into a table\n<rows>") or asking about it
    ("does this paragraph drag?\n<prose>") leads the same way."""
    colon = _PASTE_LEAD.search(text)
    if colon is not None and _request_lead(text[: colon.start()], rules):
        return f"{text[: colon.start()]}: {_PLACEHOLDER}"
    line_end = text.find("\n")
    if line_end > 0 and (colon is None or line_end < colon.start()):
        lead = text[:line_end]
        pointing = not rules.mood.material_pointers.isdisjoint(_PUNCTUATION.sub(" ", lead.lower()).split())
        # "does this paragraph drag?\n> <prose>": a question about the material leads it as a request does.
        asks = lead.rstrip().endswith("?") and len(lead.split()) <= rules.mood.pasted_lead_max_words
        if pointing and (asks or _request_lead(lead, rules)):
            return f"{lead}: {_PLACEHOLDER}"
    return text


# A line of an error dump or stack trace: pasted output, not the user's words ("panic: runtime error",
# "TypeError: Cannot read properties...", "  at POST (app/api/route.ts:42:31)", 'File "x.py", line 3').
_ERROR_LINE = re.compile(
    r"^\s*(?:Traceback \(most recent call last\)|[A-Z]\w*(?:Error|Exception)\b|panic:|fatal:|FATAL\b|"
    r"at [\w.$<>]+ \(|File \".+\", line \d+|goroutine \d+ \[)",
    re.MULTILINE,
)


def _without_error_lines(text: str) -> str:
    if _ERROR_LINE.search(text) is None:
        return text
    return "\n".join(line for line in text.split("\n") if _ERROR_LINE.match(line) is None)


def read_text(text: str | None, rules: CandidateRules) -> tuple[Clause, ...]:
    """Raw (already redacted) message text to clauses: normalised, pasted material, error dumps and
    quotes set aside, capped in length."""
    if not text:
        return ()
    normalised = normalise_keep_case(_without_error_lines(text[: rules.max_classified_chars]))
    if ":" in normalised or "\n" in normalised:
        normalised = without_pasted(normalised, rules)
    return read_clauses(without_quotes(normalised), rules)


def read_clauses(text: str, rules: CandidateRules) -> tuple[Clause, ...]:
    """`text` must already be normalised; pieces are read in order."""
    clauses: list[Clause] = []
    for piece in _SENTENCE_BREAK.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if piece.endswith("?"):
            clauses.extend(_read_question(piece, rules))
        else:
            clauses.append(read_clause(piece, rules))
    return tuple(clauses)


def read_clause(text: str, rules: CandidateRules, *, ends_question: bool | None = None) -> Clause:
    lowered = text.lower()
    tokens = tokenize(lowered)
    spelling = respelling()
    if spelling.needed(tokens):
        tokens, lowered = spelling.tokens(tokens), spelling.text(lowered)
    if "'s my " in lowered or "'s our " in lowered:
        tokens = _with_is_spelled_out(tokens)
    skipped = rules.statement.intensifiers
    if not skipped.isdisjoint(tokens):
        tokens = [token for token in tokens if token not in skipped]
    start = _content_start(tokens, rules.mood)
    hits = tuple(rules.phrases.match(tokens, lowered, start))
    labelled = rules.mood.label_prefix.match(lowered) if ":" in lowered else None
    label = labelled.group(1) if labelled else None
    asks = text.endswith("?") if ends_question is None else ends_question
    mood = Mood.LABELLED if label else _mood(tokens, start, hits, asks, rules.mood)
    # The word test runs in C and is almost always false; only then are the hits looked through.
    # Glued-script cues ("다던데") are no word of their own: such clauses look at the hits directly.
    hearsay = not rules.mood.hearsay_words.isdisjoint(tokens) or not lowered.isascii()
    if hearsay and mood is Mood.STATEMENT and any(hit.cue.family == HEARSAY for hit in hits):
        if _only_reported(tokens, hits, rules.mood):
            mood = Mood.REPORTED
        else:
            hits = _without_words_of(hits, HEARSAY)
    if any(hit.cue.family == UNCERTAINTY for hit in hits):
        hits = _without_words_of(hits, UNCERTAINTY)
    shapes = token_shapes(text, lowered, tokens, rules.shapes.top_level_domains)
    return Clause(text, lowered, tuple(tokens), hits, mood, shapes, label)


def _with_is_spelled_out(tokens: Sequence[str]) -> list[str]:
    """ "moira's my accountant" as "moira is my accountant": before "my" or "our", a name's 's is "is"
    (a possessive would be "moira's accountant")."""
    spelled: list[str] = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if following in _OWN and token.endswith("'s") and len(token) > 2 and token not in _NOT_NAMES:
            spelled.extend((token[:-2], "is"))
        else:
            spelled.append(token)
    return spelled


def hits_by_family(clauses: Iterable[Clause]) -> dict[str, list[Hit]]:
    """Every hit of a turn grouped by cue family: each policy module reads only its families."""
    index: dict[str, list[Hit]] = {}
    for clause in clauses:
        for hit in clause.hits:
            family = hit.cue.family
            if family in index:
                index[family].append(hit)
            else:
                index[family] = [hit]
    return index


def distinct_cues(hits: Iterable[Hit]) -> list[str]:
    found: list[str] = []
    for hit in hits:
        if hit.cue.text not in found:
            found.append(hit.cue.text)
    return found


def _read_question(piece: str, rules: CandidateRules) -> list[Clause]:
    """Statements before the first asking segment stay statements; the rest is one question.

    "we use X, can you write the migration?" keeps "we use X"; a question that asks for a standing
    behaviour anywhere ("can you use British spelling, from now on?") is a statement as a whole.
    """
    segments = _SEGMENT_BREAK.split(piece)
    if len(segments) == 1:
        return [read_clause(piece, rules)]
    clauses = [read_clause(segment, rules, ends_question=False) for segment in segments]
    tag = clauses[-1].tokens
    if tag and all(token in rules.mood.question_tags for token in tag):
        # "I prefer English answers, ok?": a tag asks for agreement, it does not make the statement a
        # question; the tag itself is dropped.
        return clauses[:-1]
    asking = next((i for i, clause in enumerate(clauses) if _asks(clause, rules.mood)), None)
    if asking != 0 and _opens_on_auxiliary(clauses[0].tokens, rules.mood):
        asking = 0  # "Is landlord insurance worth it, would you say?" asks from its first word
    first = 0 if asking is None else asking
    asked = Mood.QUESTION if asking is None else clauses[asking].mood
    mood = Mood.QUESTION if asked in DURABLE_MOODS else asked
    standing = any(hit.cue.family == STANDING_SCOPE for clause in clauses[first:] for hit in clause.hits)
    if standing and mood in (Mood.QUESTION, Mood.REQUEST):
        mood = Mood.STATEMENT
    # Clause(...) rather than clause._replace(mood=...): the same tuple without _replace's overhead.
    return clauses[:first] + [
        Clause(c.text, c.lowered, c.tokens, c.hits, mood, c.shapes, c.label) for c in clauses[first:]
    ]


def _opens_on_auxiliary(tokens: Sequence[str], mood: MoodRules) -> bool:
    """In a sentence that ends with "?", a first segment opening on an auxiliary asks even without a
    subject after it ("Is landlord insurance worth having, would you say?"); "will do, ...?" accepts."""
    if len(tokens) < 2 or tokens[1] in ("do", "so"):
        return False
    return tokens[0] in mood.aux_always or tokens[0] in mood.aux


_ALTERNATIVES = frozenset({"or", "vs", "versus"})
_SINGULAR_OBJECTS = frozenset({"that", "this", "it"})


def _asks(clause: Clause, mood: MoodRules) -> bool:
    """A segment of a question that asks: one not durable, or alternatives set side by side with no
    subject of the user's ("firebase or supabase for a side project, which is cheaper?")."""
    if clause.mood not in DURABLE_MOODS:
        return True
    return not _ALTERNATIVES.isdisjoint(clause.tokens) and mood.subjects.isdisjoint(clause.tokens)


def _content_start(tokens: list[str], mood: MoodRules) -> int:
    index = 0
    while index < len(tokens) and tokens[index] in mood.fillers:
        index += 1
    return index


def _mood(tokens: list[str], start: int, hits: tuple[Hit, ...], asks: bool, mood: MoodRules) -> Mood:
    families = {hit.cue.family for hit in hits}
    if RECALL in families:
        return Mood.RECALL
    if HYPOTHETICAL in families:
        return Mood.HYPOTHETICAL
    standing = STANDING_SCOPE in families
    if tokens and tokens[-1].endswith(mood.question_endings):  # "전부 vercel로 할까": asks, sets no rule
        return Mood.QUESTION
    if (
        tokens
        and tokens[-1].endswith(mood.korean_question_endings)
        and not mood.korean_question_words.isdisjoint(tokens)
    ):
        return Mood.QUESTION
    if asks or _opens_question(tokens, start, mood):
        sets_a_rule = standing and not _asks_about_the_world(tokens, start, mood)
        return Mood.STATEMENT if sets_a_rule else Mood.QUESTION
    if REQUEST in families or _ends_with(tokens, mood.request_endings):
        return Mood.STATEMENT if standing else Mood.REQUEST
    return Mood.STATEMENT


# Korean laughter and tears (ㅋㅋ, ㅎㅎ, ㅠㅠ), as typed and as NFKC normalisation spells the same jamo.
_LAUGHTER = frozenset("ㅋㅎㅠㅜ" + unicodedata.normalize("NFKC", "ㅋㅎㅠㅜ"))


def _ends_with(tokens: list[str], endings: tuple[str, ...]) -> bool:
    """The clause's last word, past laughter ("농담 하나 해줘 ㅋㅋ"), ends in one of `endings`."""
    for token in reversed(tokens):
        if not _LAUGHTER.issuperset(token):
            return token.endswith(endings)
    return False


def _without_words_of(hits: tuple[Hit, ...], family: str) -> tuple[Hit, ...]:
    """The words of a hearsay or an uncertainty cue ("I read that...", "not decided yet") say nothing
    about what kind of memory the clause holds: other cues inside them are dropped."""
    spans = [(hit.token_start, hit.token_end) for hit in hits if hit.cue.family == family]
    return tuple(
        hit
        for hit in hits
        if hit.cue.family == family
        or not any(start <= hit.token_start and hit.token_end <= end for start, end in spans)
    )


def _only_reported(tokens: list[str], hits: tuple[Hit, ...], mood: MoodRules) -> bool:
    """Hearsay with nothing of the user's own around it: "I read that X is out", "people say you should...".

    The cue's own words and the word before it (its subject, fillers skipped: "I just read that...")
    do not count."""
    spans = []
    for hit in hits:
        if hit.cue.family == HEARSAY:
            start = hit.token_start - 1
            while start > 0 and tokens[start] in mood.fillers:
                start -= 1
            spans.append((start, hit.token_end))
    if not spans:
        return False
    return not any(
        token in mood.own_world and not any(start <= index < end for start, end in spans)
        for index, token in enumerate(tokens)
    )


def _opening(tokens: list[str], start: int) -> tuple[str, str]:
    """The clause's first content word and the word after it ("" where there is none)."""
    first = tokens[start] if start < len(tokens) else ""
    following = tokens[start + 1] if start + 1 < len(tokens) else ""
    return first, following


def _opens_question(tokens: list[str], start: int, mood: MoodRules) -> bool:
    if start >= len(tokens):
        return False
    first, following = _opening(tokens, start)
    if first == "do" and following in _SINGULAR_OBJECTS:
        return False  # "do that, lock it in": an order; a question would say "does that"
    if first in mood.wh_always or first in mood.aux_always:
        return True
    if first in mood.wh_maybe:
        if following in mood.aux or following in mood.aux_always:
            return True
        # "what font do most apps use", "what time is the call": a wh-word with its noun, then the
        # auxiliary. "what we decided is..." opens on a subject and states.
        # "what env vars does next.js expose": a two-word noun, then "does" or "did".
        third = tokens[start + 2] if start + 2 < len(tokens) else ""
        fourth = tokens[start + 3] if start + 3 < len(tokens) else ""
        return following not in mood.subjects and (
            third in mood.aux or third in mood.aux_always or fourth in mood.aux_always
        )
    if first in mood.aux and following in mood.subjects:
        return True
    # "is poker a skill game or luck" asks between alternatives ("don't put odds or lines in" orders).
    if first in mood.aux_before_alternatives and "or" in tokens:
        return True
    # "is 6 hours of sleep enough": an auxiliary before a number asks as it does before "the".
    return first in mood.aux_before_determiner and (following in mood.determiners or following[:1].isdigit())


def _asks_about_the_world(tokens: list[str], start: int, mood: MoodRules) -> bool:
    """A yes/no question whose subject is not the assistant ("should PIN_REQUIRED be on by default?",
    "do we always deploy on fridays?") asks about a rule; it does not set one, as "can you always..." does.
    So does a wh-question that does not address it ("how do people deal with a roommate who's always
    late?"), unless it proposes ("how about you always...")."""
    first, following = _opening(tokens, start)
    if first in mood.aux or first in mood.aux_always:
        return following not in mood.addressees
    if first in mood.wh_always and following in mood.aux:
        subject = tokens[start + 2] if start + 2 < len(tokens) else ""
        return subject not in mood.addressees
    return False
