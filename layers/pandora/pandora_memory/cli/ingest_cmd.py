"""`pandora-memory ingest replay`: re-drive ingest dead letters once their cause is fixed.

Against a deployed stack the events go back to the ingest function (asynchronous invoke, so its
retries and dead-letter queue apply again); with `--local` the same ingest pipeline runs in-process
against the running `make dev` stack.
"""

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from pandora_memory.cli.group_options import remember_for_errors
from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH, LocalTargetError

# boto3 and the ingest pipeline are imported where they are used: `--help` stays light.
if TYPE_CHECKING:
    from pandora_memory.ingest.replay import DeadLetterReplayer

INGEST_FUNCTION_ID = "MarkdownIngestFunction"
TABLE_ENV = {
    "DOCUMENTS_TABLE": "DocumentsTable",
    "REVISIONS_TABLE": "RevisionsTable",
    "CHUNKS_TABLE": "ChunksTable",
    "PROJECTIONS_TABLE": "ProjectionsTable",
}


def _local_replayer() -> "DeadLetterReplayer":
    import boto3

    from pandora_memory.cli.local_target import load_local_target
    from pandora_memory.ingest.config import load_ingest_settings
    from pandora_memory.ingest.factory import CLIENT_CONFIG, build_pipeline
    from pandora_memory.ingest.replay import (
        DEAD_LETTER_QUEUE_SUFFIX,
        DeadLetterReplayer,
        in_process_redelivery,
    )

    target = load_local_target(LOCAL_CONFIG_PATH)
    described: dict[str, Any] = json.loads(LOCAL_CONFIG_PATH.read_text(encoding="utf-8"))
    session = boto3.Session(
        aws_access_key_id=target.access_key_id,
        aws_secret_access_key=target.secret_access_key,
        region_name=target.region,
    )
    environment = {env: described["table_names"][logical] for env, logical in TABLE_ENV.items()}
    environment["MEMORY_BUCKET"] = described["bucket"]
    pipeline = build_pipeline(
        load_ingest_settings(environment),
        session.client("dynamodb", endpoint_url=target.aws_endpoint, config=CLIENT_CONFIG),
        session.client("s3", endpoint_url=target.aws_endpoint, config=CLIENT_CONFIG),
    )

    sqs = session.client("sqs", endpoint_url=target.aws_endpoint)
    queue = sqs.get_queue_url(QueueName=f"{described['stack_name']}{DEAD_LETTER_QUEUE_SUFFIX}")
    return DeadLetterReplayer(sqs, queue["QueueUrl"], in_process_redelivery(pipeline))


def _deployed_replayer(stack_name: str) -> "DeadLetterReplayer":
    import boto3

    from pandora_memory.ingest.replay import DEAD_LETTER_QUEUE_SUFFIX, DeadLetterReplayer

    cloudformation = boto3.client("cloudformation")
    function = cloudformation.describe_stack_resource(
        StackName=stack_name, LogicalResourceId=INGEST_FUNCTION_ID
    )["StackResourceDetail"]["PhysicalResourceId"]
    lambda_client = boto3.client("lambda")

    def redeliver(event: dict[str, Any]) -> None:
        lambda_client.invoke(FunctionName=function, InvocationType="Event", Payload=json.dumps(event))

    sqs = boto3.client("sqs")
    queue = sqs.get_queue_url(QueueName=f"{stack_name}{DEAD_LETTER_QUEUE_SUFFIX}")
    return DeadLetterReplayer(sqs, queue["QueueUrl"], redeliver)


def _run(args: argparse.Namespace) -> int:
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        replayer = _local_replayer() if args.local else _deployed_replayer(args.stack_name)
        summary = replayer.replay(max_messages=args.max, dry_run=args.dry_run)
    except LocalTargetError as error:
        print(f"pandora-memory ingest: {error}", file=sys.stderr)
        return 1
    except (BotoCoreError, ClientError) as error:
        print(f"pandora-memory ingest: AWS refused the call: {error}", file=sys.stderr)
        return 1
    prefix = "dry run: would have " if args.dry_run else ""
    print(f"{prefix}{summary.line()}")
    return 1 if summary.failed else 0


def register(subcommands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subcommands.add_parser("ingest", help="ingest operations (replay dead letters)")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    replay = actions.add_parser("replay", help="re-drive ingest events from the dead-letter queue")
    where = replay.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", action="store_true", help="the running `make dev` stack")
    where.add_argument("--stack-name", help="a deployed stack, e.g. pandora-memory-dev")
    replay.add_argument("--max", type=int, default=100, help="at most this many dead letters (100)")
    replay.add_argument("--dry-run", action="store_true", help="count them, change nothing")
    for action_parser in actions.choices.values():
        remember_for_errors(action_parser)
    parser.set_defaults(run=_run)
