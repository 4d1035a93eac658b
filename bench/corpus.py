"""Deterministic synthetic Markdown for the ingest, search and load benchmarks.

Sentences come from a word-pair chain trained on the labeled chat messages of tests/data (rows marked
as holding a secret are left out), so the text has a person's vocabulary without copying any file of
the retrieval corpus. The same seed always gives the same corpus.
"""

import itertools
import json
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from functools import cache

from pandora_memory.search.index import SearchEntry

from bench.report import REPO_ROOT

DATA = REPO_ROOT / "tests" / "data"
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]|\d+")
_FALLBACK = (
    "the plan for the release moved to next week after we checked the deploy notes with the team and "
    "agreed that the search index should stay small while the chapter outline keeps its old order"
)
FOLDERS = {
    "real_life": ("projects", "people", "meetings", "notes", "learning", "home", "work log"),
    "au": ("chapters", "characters", "worldbuilding", "research", "timeline", "drafts"),
}


class WordChain:
    """Next-word choices seen after each word; a dead end restarts from a sentence opener."""

    def __init__(self, texts: Sequence[str]) -> None:
        following: dict[str, list[str]] = defaultdict(list)
        openers: list[str] = []
        for text in texts:
            words = [word.lower() for word in _WORD.findall(text)]
            if len(words) < 2:
                continue
            openers.append(words[0])
            for current, after in itertools.pairwise(words):
                following[current].append(after)
        self.following = {word: tuple(choices) for word, choices in following.items()}
        self.openers = tuple(openers)
        self.vocabulary = tuple(sorted(self.following))

    def words(self, rng: random.Random, count: int) -> list[str]:
        words = [rng.choice(self.openers)]
        while len(words) < count:
            choices = self.following.get(words[-1])
            words.append(rng.choice(choices) if choices else rng.choice(self.openers))
        return words

    def sentence(self, rng: random.Random, low: int = 8, high: int = 22) -> str:
        words = self.words(rng, rng.randint(low, high))
        return " ".join(words).capitalize() + "."

    def title(self, rng: random.Random, low: int = 1, high: int = 4) -> str:
        return " ".join(rng.choice(self.vocabulary) for _ in range(rng.randint(low, high))).capitalize()


@cache
def word_chain() -> WordChain:
    texts: list[str] = []
    for name in ("labeled_retrieve.jsonl", "labeled_capture.jsonl"):
        path = DATA / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("contains_secret"):
                continue
            texts.extend(str(row.get(field) or "") for field in ("user_message", "assistant_response"))
    return WordChain(texts or [_FALLBACK])


def _paragraph(rng: random.Random, chain: WordChain) -> str:
    return " ".join(chain.sentence(rng) for _ in range(rng.randint(2, 5)))


def _block(rng: random.Random, chain: WordChain) -> str:
    kind = rng.random()
    if kind < 0.2:
        return "\n".join(f"- {chain.sentence(rng, 4, 12)}" for _ in range(rng.randint(2, 6)))
    if kind < 0.25:
        lines = [
            f"{chain.title(rng, 1, 2).lower().replace(' ', '_')} = {rng.randint(1, 999)}" for _ in range(3)
        ]
        return "```toml\n" + "\n".join(lines) + "\n```"
    return _paragraph(rng, chain)


def markdown_document(
    rng: random.Random, title: str, target_bytes: int, chain: WordChain | None = None
) -> str:
    """A note of about `target_bytes`: a title, `##`/`###` sections, paragraphs, lists, a code block."""
    chain = chain or word_chain()
    parts = [f"# {title}\n", _paragraph(rng, chain) + "\n"]
    size = sum(len(part) + 1 for part in parts)
    while size < target_bytes:
        level = "##" if rng.random() < 0.7 else "###"
        section = [f"{level} {chain.title(rng)}\n"]
        section += [_block(rng, chain) + "\n" for _ in range(rng.randint(1, 3))]
        parts.extend(section)
        size += sum(len(part) + 1 for part in section)
    return "\n".join(parts)


def synthetic_corpus(files: int = 165, total_bytes: int = 300_000, seed: int = 3) -> dict[str, str]:
    """S3 key -> Markdown: per namespace a MEMORY.md index, then topic files of log-normal sizes."""
    rng = random.Random(seed)
    chain = word_chain()
    namespaces = ("real_life", "au")
    topics = files - len(namespaces)
    weights = [rng.lognormvariate(0, 0.9) for _ in range(topics)]
    budget = total_bytes * 0.8  # sections overshoot their target a little; the indexes take the rest
    sizes = [max(120, int(budget * weight / sum(weights))) for weight in weights]
    corpus: dict[str, str] = {}
    listed: dict[str, list[str]] = {namespace: [] for namespace in namespaces}
    for number, size in enumerate(sizes):
        namespace = namespaces[0] if number % 5 < 3 else namespaces[1]
        title = chain.title(rng, 2, 4)
        folder = rng.choice(FOLDERS[namespace])
        logical = f"{folder}/{title.lower()} {number:03d}.md"
        corpus[f"memory/{namespace}/{logical}"] = markdown_document(rng, title, size, chain)
        listed[namespace].append(logical)
    for namespace in namespaces:
        lines = [f"# {namespace.replace('_', ' ').title()} memory index\n"]
        lines += [
            f"- [{path.rsplit('/', 1)[-1][:-3]}]({path}): {chain.sentence(rng, 4, 9)}"
            for path in listed[namespace]
        ]
        corpus[f"memory/{namespace}/MEMORY.md"] = "\n".join(lines) + "\n"
    return dict(sorted(corpus.items()))


def distractor_entries(count: int, namespaces: Sequence[str], seed: int = 17) -> list[SearchEntry]:
    """Chunk-shaped search entries (40-300 words, heading and logical paths shared by groups of chunks)."""
    rng = random.Random(seed)
    chain = word_chain()
    entries: list[SearchEntry] = []
    for index in range(count):
        group = index // 6
        namespace = namespaces[group % len(namespaces)]
        group_rng = random.Random(seed * 1_000_003 + group)
        folder = group_rng.choice(FOLDERS.get(namespace, ("notes",)))
        path = f"zz-distractors/{folder}/{chain.title(group_rng, 2, 3).lower()} {group}.md"
        heading = (chain.title(group_rng, 1, 3), chain.title(rng, 1, 4))
        body = " ".join(chain.words(rng, rng.randint(40, 300)))
        entries.append(SearchEntry(f"{path}#{index:07d}", namespace, path, heading, body, f"rev-{group}"))
    return entries
