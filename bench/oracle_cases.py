"""What the decision oracles share: the labeled lines they start from, the variations they make of them
(spacing, case, typography, pasted code) and their run under a fixed hash seed."""

import json
import os
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.report import REPO_ROOT

SHARED_EVAL = REPO_ROOT.parent / "shared" / "eval"
HASH_SEED = "0"
TYPOGRAPHY = {"'": "\u2019", '"': "\u201c", " - ": " \u2014 ", "-": "\u2013"}


def labeled_rows(files: Iterable[Path]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(case id, row) of every line of the given sets and of the public calibration sets."""
    for path in [*files, *sorted(SHARED_EVAL.glob("*.jsonl"))]:
        if not path.exists():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                yield f"{path.parent.name}/{path.name}:{number}", json.loads(line)


def respace(text: str, rng: random.Random, spaces: Sequence[str]) -> str:
    return "".join(word + rng.choice(spaces) for word in text.split(" ")).rstrip()


def recase(text: str, rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return text.upper()
    if style == 1:
        return text.title()
    if style == 2:
        return text.lower()
    return "".join(ch.upper() if rng.random() < 0.3 else ch for ch in text)


def typeset(text: str) -> str:
    for plain, fancy in TYPOGRAPHY.items():
        text = text.replace(plain, fancy)
    return text


def variant(text: str, rng: random.Random, spaces: Sequence[str], code: Sequence[str] = ()) -> str:
    """The text as is, respaced, recased, typeset, with pasted code (when `code` is given), or all three
    of the first variations at once."""
    kind = rng.randrange(6 if code else 5)
    if kind == 0:
        return text
    if kind == 1:
        return respace(text, rng, spaces)
    if kind == 2:
        return recase(text, rng)
    if kind == 3:
        return typeset(text)
    if kind == 4 and code:
        return f"{text} {rng.choice(code)}"
    return recase(respace(typeset(text), rng, spaces), rng)


def with_fixed_hash_seed(module: str) -> None:
    """Re-executes `python -m module` under PYTHONHASHSEED=0 unless already so: set iteration order
    is then the same in every run."""
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:
        environment = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
        os.execve(sys.executable, [sys.executable, "-m", module, *sys.argv[1:]], environment)
