"""Both policy decisions per 500-character message, beside detect-secrets' scan_line on the same text.

Target: median at most 250 µs per message on one core for retrieve + candidate together.
"""

import json
import time
from collections.abc import Callable, Iterator

from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.retrieve import should_auto_retrieve_memory

from bench.report import REPO_ROOT, Section, median, percentile

MESSAGE_CHARS = 500
TARGET_MICROSECONDS = 250.0
LABELED_SETS = ("labeled_retrieve.jsonl", "labeled_capture.jsonl", "labeled_secrets.jsonl")


def _source_texts() -> Iterator[str]:
    for name in LABELED_SETS:
        path = REPO_ROOT / "tests" / "data" / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                yield str(row.get("user_message") or row.get("text") or "")


def messages_of_500_chars() -> list[str]:
    """Real labeled lines glued together until each message is exactly 500 characters long."""
    texts = [text for text in _source_texts() if text]
    messages: list[str] = []
    current = ""
    for text in texts * 2:
        current = f"{current} {text}".strip()
        if len(current) >= MESSAGE_CHARS:
            messages.append(current[:MESSAGE_CHARS])
            current = ""
    return messages


def _time_each(messages: list[str], call: Callable[[str], object], repeats: int) -> list[float]:
    samples: list[float] = []
    for message in messages:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter_ns()
            call(message)
            best = min(best, (time.perf_counter_ns() - start) / 1000)
        samples.append(best)
    return samples


def _both_decisions(message: str) -> None:
    should_auto_retrieve_memory(message, namespace="real_life")
    should_auto_create_memory_candidate(message, namespace="real_life")


def _detect_secrets_scan() -> Callable[[str], object]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    def scan(message: str) -> object:
        with default_settings():
            return list(scan_line(message))

    return scan


def run(quick: bool = False) -> Section:
    messages = messages_of_500_chars()
    repeats = 1 if quick else 5
    _both_decisions(messages[0])  # compile and cache before timing
    ours = _time_each(messages, _both_decisions, repeats)
    scan = _detect_secrets_scan()
    scan(messages[0])
    theirs = _time_each(messages, scan, repeats)
    ours_median, theirs_median = median(ours), median(theirs)
    verdict = "met" if ours_median <= TARGET_MICROSECONDS else "missed"
    body = (
        f"{len(messages)} messages of {MESSAGE_CHARS} characters built from the labeled sets; "
        f"best of {repeats} per message, one core.\n\n"
        "| what | median µs | p99 µs |\n|---|---:|---:|\n"
        f"| retrieve + candidate decisions | {ours_median:.1f} | {percentile(ours, 0.99):.1f} |\n"
        f"| detect-secrets 1.5.0 `scan_line` alone | {theirs_median:.1f} | "
        f"{percentile(theirs, 0.99):.1f} |\n\n"
        f"Both decisions take {ours_median / theirs_median:.2f}× the time of detect-secrets' scan of "
        f"the same message; the target of {TARGET_MICROSECONDS:.0f} µs median is {verdict}."
    )
    return Section(
        "Policy speed",
        body,
        {"policy_median_us": ours_median, "detect_secrets_median_us": theirs_median},
    )
