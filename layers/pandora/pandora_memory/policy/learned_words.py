"""Word counts learned from labeled turns, for the choices the written rules make least well.

- `types`: when the rules find evidence for two or more memory types, which one (a price rule: a
  business priority or a project decision?). Counted over the turns labeled as candidates.
- `sensitivity`: whether a turn reads like the ones labeled high or private, so that a candidate the
  rules found ordinary still waits for review. Counted over every labeled capture turn.
- `retrieve`: whether a message reads like the ones labeled as needing the user's memory, to settle a
  score near the threshold. Counted over every labeled lookup turn.
- `candidate`: whether a turn reads like the ones labeled as holding a memory, to lift a plain
  statement a little short of the threshold. Counted over every labeled capture turn.

Each table is naive Bayes over lower-cased words, adjacent word pairs and the namespace, with
add-`smoothing` counts; only features seen at least `min_count` times are kept. Probabilities are
computed among the labels asked about. Nothing here keeps a candidate from review.
The counts are regenerated from the labeled turns with
`python -m pandora_memory.policy.learned_words TABLE TURNS.jsonl` (tests check they match).
"""

import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise, repeat
from pathlib import Path
from typing import Any

Turn = Mapping[str, Any]
_WORD = re.compile(r"[a-z][a-z']+|\d+")
SENSITIVE, ORDINARY = "sensitive", "ordinary"
CANDIDATE, NOT_CANDIDATE = "candidate", "not_candidate"
RETRIEVE, SKIP = "retrieve", "skip"
MIN_COUNT = 5


def _retrieve_label(turn: Turn) -> str | None:
    if "should_retrieve" not in turn:
        return None
    return RETRIEVE if turn["should_retrieve"] else SKIP


def _type_label(turn: Turn) -> str | None:
    candidate = turn.get("should_create_candidate") and turn.get("memory_type") not in (None, "none")
    return str(turn["memory_type"]) if candidate else None


def _sensitivity_label(turn: Turn) -> str | None:
    if "should_create_candidate" not in turn:
        return None
    return SENSITIVE if turn.get("sensitivity") in ("high", "private") else ORDINARY


def _candidate_label(turn: Turn) -> str | None:
    if "should_create_candidate" not in turn:
        return None
    return CANDIDATE if turn["should_create_candidate"] else NOT_CANDIDATE


# Table name -> (counts file, label of a labeled turn or None to leave it out).
TABLES: dict[str, tuple[str, Callable[[Turn], str | None]]] = {
    "types": ("type_words.json", _type_label),
    "sensitivity": ("sensitivity_words.json", _sensitivity_label),
    "retrieve": ("retrieve_words.json", _retrieve_label),
    "candidate": ("candidate_words.json", _candidate_label),
}


@lru_cache(maxsize=8)  # every table reads the same turn: its words are found once
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower()))


@lru_cache(maxsize=8)
def features(text: str, namespace: str) -> frozenset[str]:
    """Lower-cased words, adjacent word pairs and the namespace."""
    words = _words(text)
    found = set(words)
    found.update(map("_".join, pairwise(words)))
    found.add(f"ns={namespace}")
    return frozenset(found)


def turn_text(turn: Turn) -> str:
    """What the counts read of a turn: the message with the reply after a capture, with the task under
    way before a lookup."""
    if "should_retrieve" in turn:
        return retrieve_text(turn["user_message"], turn.get("current_task"))
    return f"{turn['user_message']} {turn.get('assistant_response') or ''}"


def retrieve_text(user_message: str, current_task: str | None) -> str:
    return f"{user_message} task: {current_task}" if current_task else user_message


def count(turns: Iterable[Turn], label_of: Callable[[Turn], str | None], min_count: int) -> dict[str, Any]:
    """A counts file's content: per label, how many turns and how often each kept feature occurs."""
    per_label: dict[str, Counter[str]] = defaultdict(Counter)
    turns_per_label: Counter[str] = Counter()
    for turn in turns:
        label = label_of(turn)
        if label is None:
            continue
        per_label[label].update(features(turn_text(turn), turn["namespace"]))
        turns_per_label[label] += 1
    overall: Counter[str] = Counter()
    for counts in per_label.values():
        overall.update(counts)
    kept = sorted(feature for feature, total in overall.items() if total >= min_count)
    labels = sorted(per_label)
    return {
        "min_count": min_count,
        "turns": {label: turns_per_label[label] for label in labels},
        "totals": {label: sum(per_label[label].values()) for label in labels},
        "features": {
            feature: {label: per_label[label][feature] for label in labels if per_label[label][feature]}
            for feature in kept
        },
    }


@dataclass(frozen=True)
class LearnedWords:
    labels: tuple[str, ...]
    log_prior: tuple[float, ...]
    # Per label, the log probability of a kept feature it never saw, and how much more each feature it
    # did see weighs (log((count + smoothing) / smoothing)): a turn's score is the prior, the unseen
    # weight times its known features, and one C-level sum over the seen ones. Kept sparse so that a
    # table loads in a few milliseconds on the first turn that needs it.
    log_unseen: tuple[float, ...]
    log_excess: tuple[Mapping[str, float], ...]
    vocabulary: frozenset[str]

    def _score(self, index: int, known: frozenset[str]) -> float:
        excess = self.log_excess[index]
        return (
            self.log_prior[index]
            + len(known) * self.log_unseen[index]
            + sum(map(excess.get, known, repeat(0.0)))
        )

    def _log_word(self, index: int, feature: str) -> float:
        return self.log_unseen[index] + self.log_excess[index].get(feature, 0.0)

    def probabilities(self, text: str, namespace: str, among: Iterable[str]) -> dict[str, float]:
        """The probability of each label in `among` given the words, among those labels only."""
        known = features(text, namespace) & self.vocabulary
        scores = {label: self._score(index, known) for label in among if (index := self._index(label)) >= 0}
        if not scores:
            return {}
        top = max(scores.values())
        exps = {label: math.exp(score - top) for label, score in scores.items()}
        total = sum(exps.values())
        return {label: value / total for label, value in exps.items()}

    def log_odds(self, text: str, namespace: str, label: str, other: str) -> float:
        """log(P(label) / P(other)) given the words: exact where the probabilities round to 0 or 1."""
        known = features(text, namespace) & self.vocabulary
        return self._score(self._index(label), known) - self._score(self._index(other), known)

    def known_share(self, text: str) -> float:
        """The share of the text's words the counts know: little says a text is beyond them (another
        language), whatever its probabilities."""
        words = _words(text)
        return sum(word in self.vocabulary for word in words) / len(words) if words else 0.0

    def telling_words(self, text: str, namespace: str, chosen: str, other: str) -> list[str]:
        """The turn's words that most favour `chosen` over `other`, for the reason."""
        favoured, against = self._index(chosen), self._index(other)
        present = (features(text, namespace) & self.vocabulary) - {f"ns={namespace}"}
        gains = sorted(
            ((self._log_word(favoured, f) - self._log_word(against, f), f) for f in present), reverse=True
        )
        return [feature.replace("_", " ") for gain, feature in gains[:3] if gain > 0]

    def _index(self, label: str) -> int:
        return self.labels.index(label) if label in self.labels else -1


@cache
def learned_words(table: str, smoothing: float) -> LearnedWords:
    """A table's counts, read once per process on first use."""
    counts_file = TABLES[table][0]
    text = resources.files("pandora_memory.policy").joinpath(counts_file).read_text(encoding="utf-8")
    return from_counts(json.loads(text), smoothing)


def from_counts(raw: Mapping[str, Any], smoothing: float) -> LearnedWords:
    labels = tuple(raw["turns"])
    turns = sum(raw["turns"].values())
    features_: Mapping[str, Mapping[str, int]] = raw["features"]
    log_excess: dict[str, dict[str, float]] = {label: {} for label in labels}
    for feature, counts in features_.items():
        for label, seen in counts.items():
            log_excess[label][feature] = math.log((seen + smoothing) / smoothing)
    return LearnedWords(
        labels=labels,
        log_prior=tuple(math.log(raw["turns"][label] / turns) for label in labels),
        log_unseen=tuple(
            math.log(smoothing / (raw["totals"][label] + smoothing * len(features_))) for label in labels
        ),
        log_excess=tuple(log_excess[label] for label in labels),
        vocabulary=frozenset(features_),
    )


def choose(
    ranked: Sequence[tuple[str, float]],
    probabilities: Mapping[str, float],
    weight: float,
    without_evidence: float,
) -> str | None:
    """The contender that scores highest once `weight` times its probability among the contenders is
    added. Contenders are the labels with evidence, and any label the words alone make at least
    `without_evidence` likely; None when there are fewer than two (nothing to choose)."""
    scores = {label: score for label, score in ranked if score > 0 and label in probabilities}
    for label, probability in probabilities.items():
        if label not in scores and probability >= without_evidence:
            scores[label] = 0.0
    if len(scores) < 2:
        return None
    total = sum(probabilities[label] for label in scores)
    return max(scores, key=lambda label: scores[label] + weight * probabilities[label] / total)


def main(argv: Sequence[str]) -> int:
    """`python -m pandora_memory.policy.learned_words TABLE TURNS.jsonl`: the table's counts on stdout."""
    if len(argv) != 2 or argv[0] not in TABLES:
        print(
            f"usage: python -m pandora_memory.policy.learned_words {{{','.join(TABLES)}}} TURNS.jsonl",
            file=sys.stderr,
        )
        return 2
    with Path(argv[1]).open(encoding="utf-8") as labeled:
        turns = [json.loads(line) for line in labeled if line.strip()]
    counts = count(turns, TABLES[argv[0]][1], MIN_COUNT)
    json.dump(counts, sys.stdout, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
