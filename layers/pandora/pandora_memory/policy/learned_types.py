"""Word counts per memory type, learned from labeled turns, to choose between types the rules both find.

The rules decide whether a turn is a candidate and which types it has evidence for; when two or more
types have evidence, the choice between them is where they are weakest (a price rule: a business
priority or a project decision?). These counts, from thousands of labeled turns, weigh the words of
the turn for each type (naive Bayes over words and word pairs, add-`smoothing`); the type with the
highest rules score plus `weight` times its probability wins. Only words seen at least `min_count`
times are kept. Nothing here makes a turn a candidate, and a type the rules found no evidence for is
never chosen. The counts are regenerated from the corpus with
`python -m pandora_memory.policy.learned_types CORPUS.jsonl` (tests check they match).
"""

import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from pandora_memory.policy.models import MemoryType

COUNTS_FILE = "type_words.json"
_WORD = re.compile(r"[a-z][a-z']+|\d+")


def features(text: str, namespace: str) -> set[str]:
    """Lower-cased words, adjacent word pairs and the namespace."""
    words = _WORD.findall(text.lower())
    found = set(words)
    found.update(map("_".join, pairwise(words)))
    found.add(f"ns={namespace}")
    return found


def count(turns: Iterable[Mapping[str, Any]], min_count: int) -> dict[str, Any]:
    """The counts file's content for labeled turns (`user_message`, `assistant_response`,
    `namespace`, `memory_type`): per type, how many turns and how often each kept feature occurs."""
    per_type: dict[str, Counter[str]] = defaultdict(Counter)
    turns_per_type: Counter[str] = Counter()
    for turn in turns:
        text = f"{turn['user_message']} {turn.get('assistant_response') or ''}"
        per_type[turn["memory_type"]].update(features(text, turn["namespace"]))
        turns_per_type[turn["memory_type"]] += 1
    overall: Counter[str] = Counter()
    for counts in per_type.values():
        overall.update(counts)
    kept = sorted(feature for feature, total in overall.items() if total >= min_count)
    return {
        "min_count": min_count,
        "turns": dict(sorted(turns_per_type.items())),
        "totals": {kind: sum(per_type[kind].values()) for kind in sorted(per_type)},
        "features": {
            feature: {kind: per_type[kind][feature] for kind in sorted(per_type) if per_type[kind][feature]}
            for feature in kept
        },
    }


@dataclass(frozen=True)
class TypeWords:
    kinds: tuple[MemoryType, ...]
    log_prior: tuple[float, ...]
    # Per type, each kept feature's log probability: one C-level sum per type over a turn's features.
    log_word: tuple[Mapping[str, float], ...]
    vocabulary: frozenset[str]
    index: Mapping[MemoryType, int]

    def probabilities(
        self, text: str, namespace: str, among: Iterable[MemoryType]
    ) -> dict[MemoryType, float]:
        """The probability of each type in `among` given the words, among those types only."""
        known = features(text, namespace) & self.vocabulary
        scores = {}
        for kind in among:
            index = self.index.get(kind)
            if index is not None:
                scores[kind] = self.log_prior[index] + sum(map(self.log_word[index].__getitem__, known))
        if not scores:
            return {}
        top = max(scores.values())
        exps = {kind: math.exp(score - top) for kind, score in scores.items()}
        total = sum(exps.values())
        return {kind: value / total for kind, value in exps.items()}

    def telling_words(self, text: str, namespace: str, chosen: MemoryType, other: MemoryType) -> list[str]:
        """The turn's words that most favour `chosen` over `other`, for the reason."""
        favoured, against = self.log_word[self.kinds.index(chosen)], self.log_word[self.kinds.index(other)]
        present = (features(text, namespace) & self.vocabulary) - {f"ns={namespace}"}
        gains = sorted(((favoured[f] - against[f], f) for f in present), reverse=True)
        return [feature.replace("_", " ") for gain, feature in gains[:3] if gain > 0]


@cache
def type_words(smoothing: float) -> TypeWords:
    raw = json.loads(
        resources.files("pandora_memory.policy").joinpath(COUNTS_FILE).read_text(encoding="utf-8")
    )
    return from_counts(raw, smoothing)


def from_counts(raw: Mapping[str, Any], smoothing: float) -> TypeWords:
    kinds = tuple(MemoryType(kind) for kind in raw["turns"])
    turns = sum(raw["turns"].values())
    vocabulary = len(raw["features"])
    log_word: list[dict[str, float]] = []
    for kind in kinds:
        denominator = raw["totals"][kind.value] + smoothing * vocabulary
        log_word.append(
            {
                feature: math.log((counts.get(kind.value, 0) + smoothing) / denominator)
                for feature, counts in raw["features"].items()
            }
        )
    return TypeWords(
        kinds=kinds,
        log_prior=tuple(math.log(raw["turns"][kind.value] / turns) for kind in kinds),
        log_word=tuple(log_word),
        vocabulary=frozenset(raw["features"]),
        index={kind: position for position, kind in enumerate(kinds)},
    )


def choose(
    ranked: Sequence[tuple[MemoryType, float]], probabilities: Mapping[MemoryType, float], weight: float
) -> MemoryType | None:
    """The type with evidence that scores highest once its learned probability is added; None when
    fewer than two types have evidence and a probability (nothing to choose)."""
    contenders = [(kind, score) for kind, score in ranked if score > 0 and kind in probabilities]
    if len(contenders) < 2:
        return None
    return max(contenders, key=lambda item: item[1] + weight * probabilities[item[0]])[0]


def main(argv: Sequence[str]) -> int:
    """`python -m pandora_memory.policy.learned_types CORPUS.jsonl [MIN_COUNT]`: the counts on stdout."""
    if not argv:
        print(
            "usage: python -m pandora_memory.policy.learned_types CORPUS.jsonl [MIN_COUNT]", file=sys.stderr
        )
        return 2
    min_count = int(argv[1]) if len(argv) > 1 else 5
    with Path(argv[0]).open(encoding="utf-8") as corpus:
        turns = [json.loads(line) for line in corpus if line.strip()]
    json.dump(count(turns, min_count), sys.stdout, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
