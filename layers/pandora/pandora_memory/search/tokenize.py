"""Text to index terms, the same way for documents and queries.

- NFKC, lower case; words are Unicode letter/digit runs, so accents and Cyrillic just work.
- Identifiers joined by - . / : @ + # _ (`us-east-1`, `v2.3`, `PR#253`, `deploy-notes`, dates) are kept
  whole, so an exact identifier match scores high, and their parts are indexed as words too.
- English words lose stop words and are stemmed (stemming.py); single letters are dropped.
- Hangul runs lose a trailing particle (`카엘은` -> `카엘`), and longer runs also give character bigrams
  so compound nouns match their parts; Han and kana runs give bigrams (CJK has no spaces).
"""

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from pandora_memory.markdown.cjk import CJK_RANGES
from pandora_memory.search.stemming import stem
from pandora_memory.search.stopwords import ENGLISH_STOP_WORDS, KOREAN_PARTICLES, KOREAN_STOP_WORDS

# 2: role headings of chat logs no longer cut a chunk into passages (passages.py).
TOKENIZER_VERSION = "2"

_WORD_CHAR = f"[^\\W{CJK_RANGES}]"
_TOKEN = re.compile(f"([{CJK_RANGES}]+)|({_WORD_CHAR}+(?:[-./:@+#]{_WORD_CHAR}+)*)")
_JOINERS = re.compile(r"[-./:@+#_]+")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")
_MAX_IDENTIFIER = 48
_CACHE_LIMIT = 200_000

_word_cache: dict[str, tuple[str, ...]] = {}


def _plain_word(word: str) -> tuple[str, ...]:
    if word in ENGLISH_STOP_WORDS or (len(word) == 1 and not word.isdigit()):
        return ()
    return (stem(word),)


def _word_terms(word: str) -> tuple[str, ...]:
    parts = [part for part in _JOINERS.split(word) if part]
    if len(parts) <= 1:
        return _plain_word(parts[0]) if parts else ()
    terms: list[str] = [word] if len(word) <= _MAX_IDENTIFIER else []
    for part in parts:
        terms.extend(_plain_word(part))
    return tuple(terms)


def _strip_particle(run: str) -> str:
    for particle in KOREAN_PARTICLES:
        if run.endswith(particle) and len(run) > len(particle):
            return run[: -len(particle)]
    return run


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _cjk_terms(run: str) -> tuple[str, ...]:
    if not _HANGUL.match(run):
        return (run,) if len(run) == 1 else tuple(_bigrams(run))
    if run in KOREAN_STOP_WORDS:
        return ()
    base = _strip_particle(run)
    if base in KOREAN_STOP_WORDS:
        return ()
    return (base, *_bigrams(base)) if len(base) >= 3 else (base,)


def _cached(raw: str, is_cjk: bool) -> tuple[str, ...]:
    terms = _word_cache.get(raw)
    if terms is None:
        if len(_word_cache) >= _CACHE_LIMIT:
            _word_cache.clear()
        terms = _cjk_terms(raw) if is_cjk else _word_terms(raw)
        _word_cache[raw] = terms
    return terms


def _query_weights(raw: str, is_cjk: bool) -> list[tuple[str, float]]:
    found = _cached(raw, is_cjk)
    if is_cjk and _HANGUL.match(raw) and len(found) > 1:
        # A long Hangul word is one word: its bigrams share one word's weight instead of outvoting
        # every other word of the query.
        share = 1.0 / (len(found) - 1)
        return [(found[0], 1.0), *((bigram, share) for bigram in found[1:])]
    return [(term, 1.0) for term in found]


def query_terms(text: str) -> dict[str, float]:
    """Distinct terms of a query with their weights (1.0, less for the bigrams of a Hangul word)."""
    weights: dict[str, float] = {}
    for cjk, word in _TOKEN.findall(normalise(text)):
        for term, weight in _query_weights(cjk or word, bool(cjk)):
            weights[term] = max(weight, weights.get(term, 0.0))
    return weights


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def terms(text: str) -> list[str]:
    """Index terms of a text, in order, repeats kept (term frequency matters)."""
    found: list[str] = []
    for cjk, word in _TOKEN.findall(normalise(text)):
        found.extend(_cached(cjk, True) if cjk else _cached(word, False))
    return found


def term_counts(text: str) -> dict[str, int]:
    """Term frequencies of a text: the same terms as `terms`, counted per distinct word (faster)."""
    counts: dict[str, int] = {}
    get = counts.get
    for (cjk, word), repeats in Counter(_TOKEN.findall(normalise(text))).items():
        for term in _cached(cjk, True) if cjk else _cached(word, False):
            counts[term] = get(term, 0) + repeats
    return counts


def path_terms(logical_path: str) -> list[str]:
    """Words of a logical path, without the file extension: `notes/deploy-notes.md` -> note, deploy, note."""
    without_extension = re.sub(r"\.(?:md|markdown|mdown|txt)$", "", logical_path, flags=re.IGNORECASE)
    return terms(re.sub(r"[/\\]+", " ", without_extension))


def heading_terms(heading_path: Iterable[str]) -> list[str]:
    return terms("\n".join(heading_path))
