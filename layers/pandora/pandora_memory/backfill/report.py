"""What a backfill prints: one line per candidate in a dry run, then the counts as a small table.

Everything printed is redacted: summaries come from the stored record (already redacted) and
conversation titles pass through the secret redactor, since a title can quote the conversation.
"""

from collections.abc import Callable

from pandora_memory.backfill.runner import Queued
from pandora_memory.backfill.tally import Outcome, Tally
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.secrets import Redaction, redact

TITLE_MAX_CHARS = 60


def candidate_line(queued: Queued, redactor: Callable[[str], Redaction] = redact) -> str:
    record = queued.record
    title = " ".join(redactor(queued.conversation.title).text.split())
    if len(title) > TITLE_MAX_CHARS:
        title = title[: TITLE_MAX_CHARS - 1] + "…"
    summary = " ".join(record.summary.split())
    return "\t".join(
        (
            queued.outcome.value,
            record.memory_type.value,
            record.sensitivity.value,
            f"{record.confidence:.2f}",
            summary,
            f"[{title or 'untitled'}]",
        )
    )


def summary_lines(tally: Tally, *, dry_run: bool, limit: int | None) -> list[str]:
    verb = "would queue" if dry_run else "queued"
    conversations = (
        f"conversations: {tally.conversations_read} read, {tally.conversations_processed} evaluated, "
        f"{tally.conversations_already_done} already done (checkpoint)"
    )
    if tally.conversations_before_since:
        conversations += f", {tally.conversations_before_since} before --since"
    turns = f"turns: {tally.turns_evaluated} evaluated"
    if tally.turns_before_since:
        turns += f", {tally.turns_before_since} before --since"
    outcomes = ", ".join(f"{tally.outcomes[outcome]} {outcome.value}" for outcome in Outcome)
    lines = [conversations, turns, f"outcomes: {outcomes}"]
    lines.append(f"{verb} for review: {tally.queued_total} (by memory type and sensitivity)")
    lines += _grid(tally) if tally.queued_total else ["  (none)"]
    if tally.stopped_at_limit:
        lines.append(f"stopped after --limit {limit} conversations: run again to continue")
    if dry_run:
        lines.append("dry run: nothing was written; add --apply to queue these for review")
    return lines


def _grid(tally: Tally) -> list[str]:
    levels = list(Sensitivity)
    types = [kind for kind in MemoryType if any(tally.queued[kind, level] for level in levels)]
    width = max(len("memory type"), *(len(kind.value) for kind in types))

    def row(label: str, cells: list[str]) -> str:
        return f"  {label:<{width}}" + "".join(f"{cell:>9}" for cell in cells)

    rows = [row("memory type", [level.value for level in levels] + ["total"])]
    for kind in types:
        counts = [tally.queued[kind, level] for level in levels]
        rows.append(row(kind.value, [str(n) for n in [*counts, sum(counts)]]))
    totals = [sum(tally.queued[kind, level] for kind in types) for level in levels]
    rows.append(row("total", [str(n) for n in [*totals, sum(totals)]]))
    return rows
