"""`pandora-memory backfill EXPORT --namespace NS`: find memory candidates in a ChatGPT data export.

A dry run (the default) prints what would be queued and the counts, and writes nothing. `--apply`
queues the candidates for review in the candidates table, through the live turn's repository; it
never captures a memory. The namespace is always named: a whole export is never sorted by guess.
Progress goes to stderr; a checkpoint under `.pandora/backfill/` lets an interrupted run resume.
"""

import argparse
from datetime import UTC, datetime
from pathlib import Path

from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH
from pandora_memory.namespaces import Namespace

PROG = "pandora-memory backfill"
CHECKPOINT_DIR = Path(".pandora") / "backfill"
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _since(value: str) -> float:
    """A date or an ISO-8601 time; without a zone it is UTC. Returns epoch seconds."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError("a date such as 2024-05-01 or an ISO-8601 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError("a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return number


def run_backfill(args: argparse.Namespace) -> int:
    # The export reader, the policy, boto3 and tqdm load only when a backfill runs: not for --help.
    from pandora_memory.cli.backfill_run import run

    return run(args)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "backfill",
        help="find memory candidates in a ChatGPT data export (dry run unless --apply)",
        description="Runs the candidate policy over a ChatGPT data export and queues what it finds "
        "for review. Nothing is written without --apply; nothing is ever captured without review.",
    )
    parser.add_argument(
        "export", metavar="EXPORT", help="conversations.json, the export zip, or the unzipped export folder"
    )
    parser.add_argument(
        "--namespace",
        required=True,
        choices=[namespace.value for namespace in Namespace],
        help="where every candidate goes (never guessed for a whole export)",
    )
    parser.add_argument("--apply", action="store_true", help="queue the candidates (default: dry run)")
    parser.add_argument(
        "--since", type=_since, metavar="DATE", help="only conversations and messages from DATE on (UTC)"
    )
    parser.add_argument(
        "--limit", type=_positive, metavar="N", help="evaluate at most N conversations, then stop"
    )
    target = parser.add_argument_group("candidates table (needed by --apply)")
    target.add_argument("--local", action="store_true", help="the running local stack (`make dev`)")
    target.add_argument("--table", help="the CandidatesTable's physical name")
    target.add_argument("--stack-name", help="derive the table name from the stack name")
    target.add_argument("--region", help="AWS region (default: the AWS configuration's)")
    parser.add_argument("--checkpoint-dir", default=str(CHECKPOINT_DIR), help=f"default: {CHECKPOINT_DIR}")
    parser.add_argument(
        "--restart", action="store_true", help="ignore the checkpoint and start from the first conversation"
    )
    parser.add_argument("--counts-only", action="store_true", help="dry run: print the counts only")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--local-config", default=str(LOCAL_CONFIG_PATH), help=argparse.SUPPRESS)
    parser.set_defaults(run=run_backfill)
