"""Decision oracle: proves a speed-up changed no decision of the candidate policy or the secret detector.

    python -m bench.policy_oracle --record /tmp/oracle.jsonl   # before a change
    python -m bench.policy_oracle --check /tmp/oracle.jsonl    # after it: must report 0 differences

Cases are every line of the labeled sets and of the public calibration sets (with their namespace,
and again with the namespace left to inference), the speed benchmark's 500-character messages, and
seeded synthetic messages glued from those lines with random spacing, case, typography and an
assistant reply. Each case records the full candidate decision and the secret findings of both texts.
Only case ids and field names are printed, never message text: the sets hold (fake) credentials.
The oracle runs under a fixed PYTHONHASHSEED so that set iteration order is the same in every run.
"""

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.secrets import find_secrets

from bench.oracle_cases import labeled_rows, variant, with_fixed_hash_seed
from bench.policy_speed import messages_of_500_chars
from bench.report import REPO_ROOT

LABELED_FILES = (
    REPO_ROOT / "tests" / "data" / "labeled_capture.jsonl",
    REPO_ROOT / "tests" / "data" / "labeled_secrets.jsonl",
    REPO_ROOT / "tests" / "data" / "labeled_retrieve.jsonl",
)
SYNTHETIC_MESSAGES = 2000
SYNTHETIC_CHARS = 500
SEED = 20261129
_SPACES = (" ", "  ", "\n", " \n ", "\t", "\n\n", " - ", "; ")
_ACCEPTANCES = ("yes do that", "ok sounds good, go with it", "yep, save that", "sure", "no thanks")


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    user_message: str
    assistant_response: str | None
    namespace: str | None


def _variant(text: str, rng: random.Random) -> str:
    return variant(text, rng, _SPACES)


def cases() -> list[Case]:
    found: list[Case] = []
    lines: list[str] = []
    replies: list[str] = []
    for row_id, row in labeled_rows(LABELED_FILES):
        text = str(row.get("user_message") or row.get("text") or "")
        reply = row.get("assistant_response")
        namespace = row.get("namespace")
        lines.append(text)
        if reply:
            replies.append(str(reply))
        found.append(Case(f"{row_id}#labeled", text, reply, namespace))
        found.append(Case(f"{row_id}#inferred", text, reply, None))
        if reply:
            found.append(Case(f"{row_id}#no-reply", text, None, namespace))
    for number, message in enumerate(messages_of_500_chars()):
        found.append(Case(f"bench:{number}", message, None, "real_life"))
    rng = random.Random(SEED)
    namespaces = ("real_life", "au", None)
    for number in range(SYNTHETIC_MESSAGES):
        message = ""
        while len(message) < SYNTHETIC_CHARS:
            message = f"{message}{rng.choice(_SPACES)}{_variant(rng.choice(lines), rng)}"
        message = message[: SYNTHETIC_CHARS + rng.randrange(-40, 40)]
        reply = _variant(rng.choice(replies), rng) if replies and rng.random() < 0.25 else None
        found.append(Case(f"synthetic:{number}", message, reply, namespaces[number % 3]))
    for number in range(SYNTHETIC_MESSAGES // 10):
        # Short acceptances of an assistant proposal: the path where the reply carries the memory.
        acceptance = _variant(rng.choice(_ACCEPTANCES), rng)
        reply = rng.choice(replies) if replies else None
        found.append(Case(f"acceptance:{number}", acceptance, reply, namespaces[number % 3]))
    return found


def _findings(text: str | None) -> list[list[object]]:
    return [[f.kind, f.start, f.end, f.rule] for f in find_secrets(text or "")]


def outcome(case: Case) -> dict[str, Any]:
    decision = should_auto_create_memory_candidate(
        case.user_message, case.assistant_response, namespace=case.namespace
    )
    return {
        "id": case.id,
        "decision": decision.model_dump(mode="json"),
        "user_findings": _findings(case.user_message),
        "assistant_findings": _findings(case.assistant_response),
    }


def record(path: Path) -> int:
    rows = [outcome(case) for case in cases()]
    path.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows), encoding="utf-8")
    print(f"recorded {len(rows)} cases to {path}")
    return 0


# The rules file's version stamp is data, bumped by whoever edits rules.toml; it is reported, not
# counted, so that a version bump elsewhere in the file does not hide a real difference.
_VERSION_FIELD = "policy_version"


def _differing_fields(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    fields = [key for key in ("user_findings", "assistant_findings") if expected[key] != actual[key]]
    decision, wanted = actual["decision"], expected["decision"]
    keys = sorted({*decision, *wanted} - {_VERSION_FIELD})
    fields += [f"decision.{key}" for key in keys if decision.get(key) != wanted.get(key)]
    return fields


def check(path: Path, shown: int) -> int:
    expected = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    current = cases()
    if [row["id"] for row in expected] != [case.id for case in current]:
        print("the case list changed since recording (labeled sets edited?): re-record the baseline")
        return 2
    differences = 0
    versions: set[str] = set()
    for wanted, case in zip(expected, current, strict=True):
        actual = outcome(case)
        versions.add(actual["decision"][_VERSION_FIELD])
        fields = _differing_fields(wanted, actual)
        if fields:
            differences += 1
            if differences <= shown:
                print(f"DIFF {case.id}: {', '.join(fields)}")
    recorded = {row["decision"][_VERSION_FIELD] for row in expected}
    if versions != recorded:
        print(f"note: policy_version {sorted(recorded)} when recorded, now {sorted(versions)} (not counted)")
    print(f"{differences} differences over {len(current)} cases")
    return 1 if differences else 0


def main() -> int:
    with_fixed_hash_seed("bench.policy_oracle")
    parser = argparse.ArgumentParser(prog="python -m bench.policy_oracle", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--record", type=Path, metavar="FILE", help="write the decisions to FILE")
    action.add_argument("--check", type=Path, metavar="FILE", help="compare the decisions with FILE")
    parser.add_argument("--show", type=int, default=20, help="differences to list (default 20)")
    args = parser.parse_args()
    if args.record is not None:
        return record(args.record)
    return check(args.check, args.show)


if __name__ == "__main__":
    sys.exit(main())
