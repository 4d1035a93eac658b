"""`pandora-memory feedback export|summary`: review outcomes as labeled examples, or as figures.

`export` reads FeedbackEventsTable directly from DynamoDB (the review API has no route that lists raw
events): the table comes from `--table`, from `--stack-name` (`<stack>-memory-feedback-events`), or
from the local stack with `--local`. It writes JSON lines in the format of the policy's labeled set
(tests/data/labeled_capture.jsonl), so a reviewer's corrections become regression examples.
`summary` asks the review API (SigV4-signed) for the per-type and per-rule figures.
"""

import argparse
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pandora_memory.cli.group_options import remember_for_errors
from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH
from pandora_memory.namespaces import Namespace

# boto3, requests and the domain modules are imported where they are used: `--help` stays light.
if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

PROG = "pandora-memory feedback"
TABLE_SUFFIX = "-memory-feedback-events"
LOCAL_TABLE_ID = "FeedbackEventsTable"
NAMESPACES = [namespace.value for namespace in Namespace]


def feedback_table(args: argparse.Namespace) -> str:
    from pandora_memory.cli.review_api import ReviewApiError, load_local_stack

    if args.table:
        return str(args.table)
    if args.local:
        name = load_local_stack(Path(args.local_config)).table_names.get(LOCAL_TABLE_ID)
        if name:
            return name
    if args.stack_name:
        return f"{args.stack_name}{TABLE_SUFFIX}"
    raise ReviewApiError("name the feedback table: --table NAME, --stack-name STACK or --local", exit_code=2)


def dynamodb_client(args: argparse.Namespace) -> "DynamoDBClient":
    import boto3

    from pandora_memory.cli.review_api import load_local_stack

    if not args.local:
        return boto3.client("dynamodb", region_name=args.region) if args.region else boto3.client("dynamodb")
    stack = load_local_stack(Path(args.local_config))
    session = boto3.Session(
        aws_access_key_id=stack.access_key_id,
        aws_secret_access_key=stack.secret_access_key,
        region_name=stack.region,
    )
    return session.client("dynamodb", endpoint_url=stack.aws_endpoint or None)


def export(args: argparse.Namespace, out: TextIO) -> tuple[int, int]:
    """Writes the labeled lines; returns (events read, examples written)."""
    from pandora_memory.feedback.export import SUMMARY_ID_SUFFIX, TextSource, example_text, labeled_lines
    from pandora_memory.feedback.repository import FeedbackRepository

    repository = FeedbackRepository(dynamodb_client(args), feedback_table(args))
    namespaces = [Namespace(args.namespace)] if args.namespace else list(Namespace)
    since = window_start_for(args.days)
    events = [event for namespace in namespaces for event in repository.events(namespace, since=since)]
    written = 0
    for line in labeled_lines(events):
        out.write(line + "\n")
        written += 1
    texts = [example_text(event) for event in events]
    from_summary = sum(1 for text, source in texts if text and source is TextSource.SUMMARY)
    if from_summary:
        print(
            f"{from_summary} examples hold the redacted summary, not the message (none was kept: manual "
            f"adds, candidates blocked for a secret); their ids end in {SUMMARY_ID_SUFFIX}",
            file=sys.stderr,
        )
    return len(events), written


def window_start_for(days: int | None) -> str | None:
    from pandora_memory.feedback.provider import window_start

    if days is None:
        return None
    return window_start(datetime.now(UTC), days)


def _export(args: argparse.Namespace) -> int:
    if args.out:
        with Path(args.out).open("w", encoding="utf-8") as stream:
            read, written = export(args, stream)
        target = args.out
    else:
        read, written = export(args, sys.stdout)
        target = "stdout"
    print(f"exported {written} labeled examples from {read} feedback events to {target}", file=sys.stderr)
    return 0


def _summary(args: argparse.Namespace) -> int:
    from pandora_memory.cli.review_api import ReviewApi, resolve_target

    api = ReviewApi(resolve_target(args.api_url, args.region, args.local, Path(args.local_config)))
    print(json.dumps(api.feedback_summary(args.namespace, args.days), indent=2))
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {"export": _export, "summary": _summary}


def run(args: argparse.Namespace) -> int:
    from botocore.exceptions import BotoCoreError, ClientError

    from pandora_memory.cli.review_api import EXIT_UNREACHABLE, ReviewApiError
    from pandora_memory.storage.errors import StorageError

    try:
        return _ACTIONS[args.feedback_action](args)
    except ReviewApiError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return error.exit_code
    except StorageError as error:
        print(f"{PROG}: reading the feedback table failed ({error.code})", file=sys.stderr)
        return EXIT_UNREACHABLE
    except (BotoCoreError, ClientError) as error:
        print(f"{PROG}: AWS refused or could not be reached ({type(error).__name__})", file=sys.stderr)
        return EXIT_UNREACHABLE
    except OSError as error:
        print(f"{PROG}: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return EXIT_UNREACHABLE


def _days(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 365:
        raise argparse.ArgumentTypeError("between 1 and 365")
    return number


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser("feedback", help="review feedback: export labeled examples, figures")
    actions = parser.add_subparsers(dest="feedback_action", metavar="ACTION", required=True)

    exporting = actions.add_parser("export", help="write feedback as labeled JSONL (reads DynamoDB)")
    exporting.add_argument("--namespace", choices=NAMESPACES, help="default: both")
    exporting.add_argument("--out", help="output file (default: stdout)")
    exporting.add_argument("--days", type=_days, help="only the last N days (default: all)")
    exporting.add_argument("--table", help="FeedbackEventsTable's physical name")
    exporting.add_argument("--stack-name", help="derive the table name from the stack name")

    summary = actions.add_parser("summary", help="per type and rule figures (review API, SigV4)")
    summary.add_argument("--namespace", choices=NAMESPACES, help="default: both")
    summary.add_argument("--days", type=_days, default=30)
    summary.add_argument("--api-url", help="base URL of the API (the stack's ApiUrl output)")

    for sub in (exporting, summary):
        sub.add_argument("--local", action="store_true", help="use the local stack from `make dev`")
        sub.add_argument("--region")
        sub.add_argument("--local-config", default=str(LOCAL_CONFIG_PATH), help=argparse.SUPPRESS)
    for action_parser in actions.choices.values():
        remember_for_errors(action_parser)
    parser.set_defaults(run=run)
