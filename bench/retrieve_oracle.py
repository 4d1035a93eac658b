"""Decision oracle: proves a speed-up changed no decision of the retrieve policy.

    python -m bench.retrieve_oracle --record /tmp/retrieve_oracle.jsonl   # before a change
    python -m bench.retrieve_oracle --check /tmp/retrieve_oracle.jsonl    # after it: 0 differences

Cases are every line of the labeled sets and of the public calibration sets (as labeled, with the
namespace left to inference, with no context at all, and with a drawn current task and conversation
type), the speed benchmark's 500-character messages, seeded synthetic messages glued from those
lines with random spacing, case, typography and pasted code, short slices (the small-talk and
"go on" paths), very long messages (read from both ends) and random mixed-script strings. Each case
records the full decision, or the error it raised. Only case ids and field names are printed, never
message text: the sets hold (fake) credentials. Runs under a fixed PYTHONHASHSEED so that set
iteration order is the same in every run.
"""

import argparse
import json
import random
import sys
from dataclasses import dataclass
from typing import Any

from pandora_memory.policy.namespace_inference import choose_namespace
from pandora_memory.policy.retrieve import should_auto_retrieve_memory

from bench.oracle_cases import labeled_rows, variant, with_fixed_hash_seed
from bench.policy_speed import messages_of_500_chars
from bench.report import REPO_ROOT

LABELED_FILES = (
    REPO_ROOT / "tests" / "data" / "labeled_retrieve.jsonl",
    REPO_ROOT / "tests" / "data" / "labeled_capture.jsonl",
    REPO_ROOT / "tests" / "data" / "labeled_secrets.jsonl",
)
SYNTHETIC_MESSAGES = 2000
SYNTHETIC_CHARS = 500
SHORT_SLICES = 1500
LONG_MESSAGES = 60
RANDOM_STRINGS = 600
REPLY_PAIRS = 600
SEED = 20261130
_SPACES = (" ", "  ", "\n", " \n ", "\t", "\n\n", " - ", "; ", ". ", "? ", "! ", ", ")
_CODE = ("```\nmy_list = fetch_api()  # we fix it later\n```", "```py\nx = 1\n", "`it`")
_CONVERSATION_TYPES = (
    None,
    "",
    "project",
    "Coding",
    "casual",
    "small talk",
    "smalltalk",
    "trivia",
    "Project Work",
    "au-story",
    "general chat",
    "journal",
    "weird",
    "math homework",
    "personal/life",
)
_NAMESPACES: tuple[str | None, ...] = ("real_life", "au", None, None, " au ")
_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,!?;:'\"_-`*#%^+=/()\n\t"
    "\u2019\u2018\u201c\u201d\u2014\u2013 지난번에우리서버어떻게바꿨었지계속 セレンの妹名前何だっけ続き éàçüß ﬁ①"
)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    user_message: str
    conversation_type: str | None
    namespace: str | None
    current_task: str | None
    # Set for the cases that check only the namespace choice on a user text and an assistant reply,
    # the way the candidate policy asks for it.
    reply: str | None = None


def _variant(text: str, rng: random.Random) -> str:
    return variant(text, rng, _SPACES, _CODE)


def _context(rng: random.Random, tasks: list[str]) -> tuple[str | None, str | None, str | None]:
    task_pick = rng.randrange(4)
    task = None if task_pick == 0 else "" if task_pick == 1 else _variant(rng.choice(tasks), rng)
    return rng.choice(_CONVERSATION_TYPES), rng.choice(_NAMESPACES), task


def _glued(lines: list[str], rng: random.Random, length: int) -> str:
    message = ""
    while len(message) < length:
        message = f"{message}{rng.choice(_SPACES)}{_variant(rng.choice(lines), rng)}"
    return message[: length + rng.randrange(-40, 40)]


def cases() -> list[Case]:
    rng = random.Random(SEED)
    found: list[Case] = []
    lines: list[str] = []
    replies: list[str] = []
    tasks: list[str] = ["weekly review"]
    for row_id, row in labeled_rows(LABELED_FILES):
        text = str(row.get("user_message") or row.get("text") or "")
        namespace, task = row.get("namespace"), row.get("current_task")
        lines.append(text)
        if row.get("assistant_response"):
            replies.append(str(row["assistant_response"]))
            found.append(Case(f"{row_id}#reply", text, None, None, None, str(row["assistant_response"])))
        if task:
            tasks.append(str(task))
        found.append(Case(f"{row_id}#labeled", text, None, namespace, task))
        found.append(Case(f"{row_id}#inferred", text, None, None, task))
        found.append(Case(f"{row_id}#bare", text, None, None, None))
        found.append(Case(f"{row_id}#context", text, *_context(rng, tasks)))
    for number, message in enumerate(messages_of_500_chars()):
        found.append(Case(f"bench:{number}", message, None, "real_life", None))
        found.append(Case(f"bench-inferred:{number}", message, None, None, None))
    for number in range(SYNTHETIC_MESSAGES):
        found.append(Case(f"synthetic:{number}", _glued(lines, rng, SYNTHETIC_CHARS), *_context(rng, tasks)))
    for number in range(SHORT_SLICES):
        words = _variant(rng.choice(lines), rng).split(" ")
        start = rng.randrange(len(words))
        piece = " ".join(words[start : start + rng.randint(1, 9)])
        found.append(Case(f"short:{number}", piece, *_context(rng, tasks)))
    for number in range(LONG_MESSAGES):
        found.append(
            Case(f"long:{number}", _glued(lines, rng, rng.randint(3500, 9000)), *_context(rng, tasks))
        )
    for number in range(RANDOM_STRINGS):
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 120)))
        found.append(Case(f"random:{number}", text, *_context(rng, tasks)))
    for number in range(REPLY_PAIRS):
        user = _glued(lines, rng, rng.choice((20, 120, 500)))
        found.append(Case(f"reply:{number}", user, None, None, None, _variant(rng.choice(replies), rng)))
    for number, (text, namespace) in enumerate(
        [("", None), ("   \n\t", "au"), ("continue", "fiction"), ("what next", 3), ("ok", "REAL_LIFE")]
    ):
        found.append(Case(f"edge:{number}", text, None, namespace, None))  # type: ignore[arg-type]
    return found


def outcome(case: Case) -> dict[str, Any]:
    if case.reply is not None:
        choice = choose_namespace(None, case.user_message, case.reply)
        return {"id": case.id, "decision": {"namespace": choice.namespace.value, "cues": list(choice.cues)}}
    try:
        decision = should_auto_retrieve_memory(
            case.user_message, case.conversation_type, case.namespace, case.current_task
        )
    except ValueError as error:
        return {"id": case.id, "error": f"{type(error).__name__}: {error}"}
    return {"id": case.id, "decision": decision.model_dump(mode="json")}


def record(path: str) -> int:
    rows = [outcome(case) for case in cases()]
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n" for row in rows)
    print(f"recorded {len(rows)} decisions to {path}")
    return 0


# Other work may bump the rules file's version while a speed-up is checked; every other field counts.
_IGNORED_FIELDS = frozenset({"policy_version"})


def _differing_fields(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    if "error" in expected or "error" in actual:
        return [] if expected.get("error") == actual.get("error") else ["error"]
    decision, wanted = actual["decision"], expected["decision"]
    keys = sorted({*decision, *wanted} - _IGNORED_FIELDS)
    return [f"decision.{key}" for key in keys if decision.get(key) != wanted.get(key)]


def check(path: str, shown: int) -> int:
    with open(path, encoding="utf-8") as source:
        expected = [json.loads(line) for line in source if line.strip()]
    current = cases()
    if [row["id"] for row in expected] != [case.id for case in current]:
        print("the case list changed since recording (labeled sets edited?): re-record the baseline")
        return 2
    differences = 0
    for wanted, case in zip(expected, current, strict=True):
        fields = _differing_fields(wanted, outcome(case))
        if fields:
            differences += 1
            if differences <= shown:
                print(f"DIFF {case.id}: {', '.join(fields)}")
    print(f"{differences} differences over {len(current)} decisions")
    return 1 if differences else 0


def main() -> int:
    with_fixed_hash_seed("bench.retrieve_oracle")
    parser = argparse.ArgumentParser(prog="python -m bench.retrieve_oracle", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--record", metavar="FILE", help="write the decisions to FILE")
    action.add_argument("--check", metavar="FILE", help="compare the decisions with FILE")
    parser.add_argument("--show", type=int, default=20, help="differences to list (default 20)")
    args = parser.parse_args()
    if args.record is not None:
        return record(args.record)
    return check(args.check, args.show)


if __name__ == "__main__":
    sys.exit(main())
