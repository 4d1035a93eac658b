"""Wallet seed phrases: 12 to 24 BIP39 words next to a mention of a seed / recovery phrase.

A run of consecutive BIP39 words (separated by spaces, commas or list numbering) of at least 12
words, starting near the context, is the phrase; a sentence *about* the phrase breaks on words
that are not in the list ("the", "and", "on", "wrote"). The whole run is redacted.

Next to the phrase's own name ("seed phrase", "mnemonic", "시드") the run may hold words outside
the list, as long as no word of a sentence breaks it and a third of it is BIP39: a phrase typed
from memory or with a typo is still the key to a wallet.
"""

import re
from collections.abc import Callable, Iterator

from pandora_memory.secrets.bip39_words import BIP39_WORDS
from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.lexicon import (
    PHRASE_BREAKING_WORDS,
    SEED_COIN_WORDS,
    SEED_CONTEXT_WORDS,
    SEED_PHRASE_NAMES,
)

MIN_WORDS = 12
# A phrase may repeat a word or two (a real one can), but "use use use ..." is not one. Loose on
# purpose: a missed phrase cannot be taken back, a false block costs one review.
MIN_DISTINCT_RATIO = 0.5
MIN_BIP39_SHARE_BY_NAME = 1 / 3
# Near a wallet or "the words are:" without the phrase's name, most of the run must be list words: a
# phrase a wallet app showed may still hold a word or two typed wrong ("pocket", "gravel").
MIN_BIP39_SHARE_BY_CONTEXT = 3 / 4
LOOK_BEHIND = 160
LOOK_AHEAD = 320


def _alternation(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        "|".join(
            re.escape(word).replace(r"\ ", r"[\s_\-]+") for word in sorted(words, key=len, reverse=True)
        ),
        re.IGNORECASE,
    )


_CONTEXT = _alternation(SEED_CONTEXT_WORDS)
_PHRASE_NAME = _alternation(SEED_PHRASE_NAMES)
_BREAKING = PHRASE_BREAKING_WORDS - BIP39_WORDS
_WORD = re.compile(r"(?<![A-Za-z0-9'])[A-Za-z][a-z]{2,7}(?![A-Za-z0-9'])")
_SEPARATOR = re.compile(r"(?:[\s,;\-]|\d{1,2}[.):])*")
NEEDLES = (
    *("seed", "mnemonic", "recovery", "phrase", "wallet", "words", "metamask", "ledger", "trezor"),
    *SEED_COIN_WORDS,
    *("phantom", "restore", "frase", "semilla", "palabras"),
    *("portfel", "slowa", "słowa", "wörter", "portefeuille", "mots", "portafoglio", "parole", "carteira"),
    *("palavras", "cüzdan", "kelime", "ví", "ウォレット", "単語"),
    *("시드", "구문", "니모닉", "복구", "助记词", "シード"),
)


_ASCII_NEEDLES = tuple(needle for needle in NEEDLES if needle.isascii())


def mentions_seed_phrase(lowered: str) -> bool:
    needles = _ASCII_NEEDLES if lowered.isascii() else NEEDLES  # ASCII text holds no other needle
    return any(map(lowered.__contains__, needles))  # map: no Python-level loop per needle


def _is_bip39(word: str) -> bool:
    return word in BIP39_WORDS


def _is_plain(word: str) -> bool:
    return word not in _BREAKING


def _runs(
    text: str, start: int, end: int, fits: Callable[[str], bool] = _is_bip39
) -> Iterator[tuple[int, int]]:
    """(first word start, last word end) of each run of 12+ words that `fits` (lower-cased) beginning
    in [start, end); a run that began in the window may continue past its end."""
    run_start = run_end = -1
    count = 0
    for match in _WORD.finditer(text, start):
        if count == 0 and match.start() > end:
            break
        joined = count > 0 and _SEPARATOR.fullmatch(text, run_end, match.start()) is not None
        if not joined:
            if count >= MIN_WORDS:
                yield run_start, run_end
            count = 0
        if not fits(match.group().lower()):
            if count >= MIN_WORDS:
                yield run_start, run_end
            count = 0
            continue
        if count == 0:
            run_start = match.start()
        run_end = match.end()
        count += 1
    if count >= MIN_WORDS:
        yield run_start, run_end


def _run_boundary(text: str, position: int) -> int:
    """Move a window start back to where a word run could begin, so no run is cut in two."""
    floor = max(0, position - 2 * LOOK_BEHIND)
    while position > floor and (text[position - 1].isalnum() or text[position - 1] in " \t\n,;.)-"):
        position -= 1
    return position


def _windows(text: str, context_pattern: re.Pattern[str] = _CONTEXT) -> list[tuple[int, int]]:
    """Merged [start, end) windows around every context mention."""
    windows: list[tuple[int, int]] = []
    for context in context_pattern.finditer(text):
        start = _run_boundary(text, max(0, context.start() - LOOK_BEHIND))
        end = min(len(text), context.end() + LOOK_AHEAD)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
        else:
            windows.append((start, end))
    return windows


def _words_between(text: str, start: int, end: int) -> list[str]:
    return [match.group().lower() for match in _WORD.finditer(text, start, end)]


def _varied(words: list[str]) -> bool:
    return len(set(words)) >= MIN_DISTINCT_RATIO * len(words)


def _may_hold_run(text: str) -> bool:
    """Whether MIN_WORDS BIP39 words stand one after another among the text's words, separators
    aside: every run `_runs` yields is such a streak (its words are the whole text's words from the
    window start on), so without one there is nothing to find. Counted in C, one byte per word."""
    in_list = map(BIP39_WORDS.__contains__, map(str.lower, _WORD.findall(text)))
    return b"\x01" * MIN_WORDS in bytes(in_list)


def _bip39_runs(text: str) -> Iterator[tuple[int, int]]:
    if not _may_hold_run(text):  # most texts that mention a seed phrase only talk about one
        return
    for start, end in _windows(text):
        for run_start, run_end in _runs(text, start, end):
            if _varied(_words_between(text, run_start, run_end)):
                yield run_start, run_end


def _plain_runs(text: str, context: re.Pattern[str], min_share: float) -> Iterator[tuple[int, int]]:
    """Runs of plain words next to `context`, at least `min_share` of them BIP39 words."""
    for start, end in _windows(text, context):
        for run_start, run_end in _runs(text, start, end, _is_plain):
            words = _words_between(text, run_start, run_end)
            in_list = sum(map(BIP39_WORDS.__contains__, words))
            if _varied(words) and in_list >= min_share * len(words):
                yield run_start, run_end


def _named_runs(text: str) -> Iterator[tuple[int, int]]:
    """Next to the phrase's own name, a third of the run may be enough."""
    return _plain_runs(text, _PHRASE_NAME, MIN_BIP39_SHARE_BY_NAME)


def _context_runs(text: str) -> Iterator[tuple[int, int]]:
    return _plain_runs(text, _CONTEXT, MIN_BIP39_SHARE_BY_CONTEXT)


def seed_phrase_candidates(text: str) -> Iterator[Candidate]:
    """Runs found both ways that overlap are one phrase, as wide as both: a named run may reach past
    a typo that ended a BIP39 run."""
    merged: list[tuple[int, int]] = []
    for run_start, run_end in sorted({*_bip39_runs(text), *_named_runs(text), *_context_runs(text)}):
        if merged and run_start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(run_end, merged[-1][1]))
        else:
            merged.append((run_start, run_end))
    for run_start, run_end in merged:
        yield Candidate("seed_phrase", run_start, run_end, "seed-phrase", 1)
