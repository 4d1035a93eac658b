"""The layered detector: providers, structures, JWT claims, base64 payloads, seed phrases, context,
entropy.

Cost control, since it runs on every message: provider, JWT and entropy layers only look at
messages holding a "long word" (16+ characters without whitespace, found with ``str.split``),
and their needles are searched in those long words only; structure rules are gated by literal
needles; context and entropy rules run only around credential nouns found by one trie regex.
Structure rules include positional code arguments (`calls`) and default-account pairs
(`user_pairs`). Last come the values that need no word beside them (`self_evident`) and the safety
net (`nearby`). Nothing inside an OpenSSH public key line is a finding: its words name nothing.
"""

from itertools import compress

from pandora_memory.secrets.allowlist import inside, public_regions, ssh_public_keys
from pandora_memory.secrets.code_lists import list_neighbours
from pandora_memory.secrets.context_rules import context_candidates
from pandora_memory.secrets.encoded import encoded_candidates
from pandora_memory.secrets.entropy import entropy_candidates
from pandora_memory.secrets.findings import Candidate, Coverage, SecretFinding
from pandora_memory.secrets.heads import find_heads
from pandora_memory.secrets.jwt_claims import JWT_NEEDLES, jwt_candidates
from pandora_memory.secrets.nearby import nearby_candidates
from pandora_memory.secrets.pattern_rule import RuleIndex
from pandora_memory.secrets.providers import PROVIDER_RULES
from pandora_memory.secrets.seed_phrase import mentions_seed_phrase, seed_phrase_candidates
from pandora_memory.secrets.self_evident import self_evident_candidates
from pandora_memory.secrets.structures import STRUCTURE_RULES

LONG_WORD = 16
# A docker config is base64 JSON whose "auth" is base64 again; deeper nesting is not a format.
MAX_DECODED_DEPTH = 2
_PROVIDERS = RuleIndex(PROVIDER_RULES)
# Every structure rule's needles in one flat tuple, beside the index of the rule each belongs to: one
# map() tests them all in C, where a loop over the rules pays a Python call and an any() per rule.
_STRUCTURE_NEEDLES = tuple(needle for structure in STRUCTURE_RULES for needle in structure.needles)
_STRUCTURE_OF_NEEDLE = tuple(
    index for index, structure in enumerate(STRUCTURE_RULES) for _ in structure.needles
)


def _same_length_lower(text: str) -> str:
    """text.lower() with offsets kept: a few characters (İ) lower-case to two code points."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def _candidates(text: str, depth: int = 0) -> list[Candidate]:
    """`depth` counts the base64 layers already decoded around `text`."""
    lowered = _same_length_lower(text)
    words = text.split()
    long_words = ""
    if max(map(len, words), default=0) >= LONG_WORD:  # map(len): C speed for the common no case
        long_words = " ".join([word for word in words if len(word) >= LONG_WORD])
    found: list[Candidate] = []
    if long_words:
        for provider in _PROVIDERS.triggered(long_words):
            found.extend(provider.candidates(text))
        if any(needle in long_words for needle in JWT_NEEDLES):
            found.extend(jwt_candidates(text))
        if depth < MAX_DECODED_DEPTH:
            found.extend(encoded_candidates(text, long_words, lambda inner: _candidates(inner, depth + 1)))
    triggered = set(compress(_STRUCTURE_OF_NEEDLE, map(lowered.__contains__, _STRUCTURE_NEEDLES)))
    for index in sorted(triggered):  # in rule order, as StructureRule.triggered would pick them
        found.extend(STRUCTURE_RULES[index].find(text))
    if mentions_seed_phrase(lowered):
        found.extend(seed_phrase_candidates(text))
    heads = find_heads(text, lowered)
    public_keys = ssh_public_keys(lowered, text)
    if public_keys:  # "deploy key = ssh-ed25519 AAAA... ci-token@host": words in a public key name nothing
        heads = [head for head in heads if not inside(public_keys, head.start, head.end)]
        found = [c for c in found if not inside(public_keys, c.start, c.start + 1)]
    if heads:
        covered = Coverage(found)
        found.extend(context_candidates(text, heads, covered))
        if long_words:
            covered = Coverage(found)
            found.extend(entropy_candidates(text, heads, public_regions(lowered, text), covered))
    # The safety net, last: only where no rule above found the value.
    nearby = [*self_evident_candidates(text), *nearby_candidates(text, lowered)]
    if nearby:
        covered = Coverage(found)
        found.extend(c for c in nearby if not covered.covers(c.start, c.end))
    if public_keys:
        found = [c for c in found if not inside(public_keys, c.start, c.start + 1)]
    return found


def merge(candidates: list[Candidate]) -> list[SecretFinding]:
    """Overlapping candidates become one span (their union); the most specific rule names it."""
    ordered = sorted(candidates, key=lambda c: (c.start, -c.end))
    merged: list[Candidate] = []
    for candidate in ordered:
        if merged and candidate.start < merged[-1].end:
            current = merged[-1]
            best = min((current, candidate), key=lambda c: (c.priority, -(c.end - c.start)))
            merged[-1] = Candidate(
                best.kind, current.start, max(current.end, candidate.end), best.rule, best.priority
            )
        else:
            merged.append(candidate)
    return [SecretFinding(c.kind, c.start, c.end, c.rule) for c in merged]


# A value shorter than this may be an ordinary number elsewhere in the text; a repeat of it is left.
REPEAT_MIN = 4


def _repeats(text: str, found: list[Candidate]) -> list[Candidate]:
    """Every other occurrence of a found value ("disarm 3917, arm 3917#"): a rule finds a value once,
    where it is introduced; its repeats leak it as much."""
    repeats: list[Candidate] = []
    starts = {candidate.start for candidate in found}
    seen: set[str] = set()
    for candidate in found:
        value = text[candidate.start : candidate.end]
        if len(value) < REPEAT_MIN or value in seen:
            continue
        seen.add(value)  # each value searched once, however often the rules found it
        at = text.find(value)
        while at >= 0:
            end = at + len(value)
            alone = not (at and text[at - 1].isalnum()) and not (end < len(text) and text[end].isalnum())
            if at not in starts and alone:
                repeats.append(Candidate(candidate.kind, at, end, "repeated-value", candidate.priority))
            at = text.find(value, end)
    return repeats


def find_secrets(text: str) -> list[SecretFinding]:
    """Secret spans in `text`, sorted and non-overlapping. The findings hold no secret value."""
    if not text:
        return []
    found = _candidates(text)
    if not found:
        return []
    found = [*found, *list_neighbours(text, found)]
    return merge([*found, *_repeats(text, found)])
