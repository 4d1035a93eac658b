"""Lists of codes (backup codes, one-time codes, a bank's numbered key list): runs of tokens shaped
alike, separated by blanks, commas or line breaks. A rule that finds one of them has found them all:
"backup codes: J8BFW YDNG3 QD4YF" leaks as much through its second code as through its first."""

import re

from pandora_memory.secrets.findings import Candidate

LIST_CODE_MAX = 12
RUN_MIN = 3
RULE = "code-list"
# One code of a list (three to LIST_CODE_MAX letters, digits and dashes), the separator between codes,
# and the characters that may not touch a code on either side.
_CODE = rf"[A-Za-z0-9][A-Za-z0-9\-]{{2,{LIST_CODE_MAX - 1}}}"
_GAP = r"[\s,;]{1,4}"
_ALONE_BEFORE, _ALONE_AFTER = r"(?<![A-Za-z0-9\-])", r"(?![A-Za-z0-9\-])"
_TOKEN = re.compile(_CODE)
_NEXT = re.compile(rf"{_GAP}(?P<token>{_CODE}){_ALONE_AFTER}")
_PREVIOUS = re.compile(rf"{_ALONE_BEFORE}(?P<token>{_CODE}){_GAP}$")
_FIRST = re.compile(rf"{_ALONE_BEFORE}{_CODE}{_ALONE_AFTER}")


def _shape(token: str) -> tuple[int, tuple[int, ...], bool]:
    """Length, where its dashes stand, and whether it could be a code rather than a word."""
    dashes = tuple(i for i, ch in enumerate(token) if ch == "-")
    coded = any(ch.isdigit() for ch in token) or (token.isupper() and len(token) >= 4)
    return len(token), dashes, coded


def _run_after(text: str, end: int, shape: tuple[int, tuple[int, ...], bool]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    while (after := _NEXT.match(text, end)) and _shape(after.group("token")) == shape:
        spans.append(after.span("token"))
        end = after.end()
    return spans


def list_neighbours(text: str, found: list[Candidate]) -> list[Candidate]:
    """The codes beside each found short code that are shaped like it. Each list is walked once,
    however many of its codes the rules found."""
    more: list[Candidate] = []
    listed: set[int] = set()
    for candidate in sorted(found, key=lambda c: c.start):
        value = text[candidate.start : candidate.end]
        shape = _shape(value)
        if candidate.start in listed or len(value) > LIST_CODE_MAX or _TOKEN.fullmatch(value) is None:
            continue
        if not shape[2]:
            continue
        spans = _run_after(text, candidate.end, shape)
        start = candidate.start
        while (before := _PREVIOUS.search(text, max(0, start - 20), start)) and _shape(
            before.group("token")
        ) == shape:
            if before.start("token") in listed:
                break
            spans.append(before.span("token"))
            start = before.start("token")
        listed.update(span[0] for span in spans)
        more.extend(Candidate(candidate.kind, *span, RULE, candidate.priority) for span in spans)
    return more


def first_code_run(text: str, start: int, limit: int) -> tuple[int, int] | None:
    """The first code of a run of at least RUN_MIN codes shaped alike in text[start:limit], where a word
    for backup or one-time codes was just read."""
    for match in _FIRST.finditer(text, start, limit):
        shape = _shape(match.group())
        if shape[2] and len(_run_after(text, match.end(), shape)) >= RUN_MIN - 1:
            return match.span()
    return None
