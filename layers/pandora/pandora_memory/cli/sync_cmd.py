"""`pandora-memory sync DIR --namespace NS [--prefix P] (--local | --bucket B) [--dry-run]`.

Mirrors a folder of Markdown (a Claude memory folder, notes) into `memory/<NS>/[<P>/]` of the memory
bucket: uploads new and changed files, deletes the ones removed locally, leaves the rest alone.
Every change then reaches search through the ingest pipeline's S3 events. A file counts as changed
when its SHA-256 differs from the one stored with the object (`x-amz-meta-sha256`); see
`pandora_memory.sync.plan`. Hidden folders and files other than `.md` are skipped.
"""

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
from botocore.exceptions import BotoCoreError, ClientError
from pydantic import BaseModel, ConfigDict, ValidationError

from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH, LocalTargetError, load_local_target
from pandora_memory.namespaces import Namespace
from pandora_memory.sync.keys import InvalidPrefixError, normalise_prefix
from pandora_memory.sync.local_files import NOTEWORTHY
from pandora_memory.sync.remote import S3Mirror
from pandora_memory.sync.runner import NothingToSyncError, SyncOutcome, sync_folder

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

PROG = "pandora-memory sync"

MirrorFactory = Callable[[argparse.Namespace], S3Mirror]


class _LocalBucket(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    bucket: str


def _local_bucket(path: Path) -> str:
    try:
        return _LocalBucket.model_validate(json.loads(path.read_text(encoding="utf-8"))).bucket
    except (OSError, json.JSONDecodeError, ValidationError):
        raise LocalTargetError(f"{path} names no memory bucket: restart `make dev`") from None


def default_mirror(args: argparse.Namespace) -> S3Mirror:
    """The running local stack with --local, else the default AWS session and --bucket."""
    if not args.local:
        client: S3Client = boto3.client("s3")
        return S3Mirror(client, args.bucket)
    target = load_local_target(LOCAL_CONFIG_PATH)
    session = boto3.Session(
        aws_access_key_id=target.access_key_id,
        aws_secret_access_key=target.secret_access_key,
        region_name=target.region,
    )
    return S3Mirror(session.client("s3", endpoint_url=target.aws_endpoint), _local_bucket(LOCAL_CONFIG_PATH))


def _summary(outcome: SyncOutcome, target: str) -> str:
    plan = outcome.plan
    verb = "would upload" if outcome.applied is None else "uploaded"
    removed = "would delete" if outcome.applied is None else "deleted"
    line = (
        f"{target}: {verb} {len(plan.uploads)} ({plan.new} new, {plan.changed} changed), "
        f"unchanged {len(plan.unchanged)}, {removed} {len(plan.deletes)}, skipped {len(outcome.scan.skipped)}"
    )
    return line + (" (dry run: nothing written)" if outcome.applied is None else "")


def _print_plan(outcome: SyncOutcome, dry_run: bool) -> None:
    prefix = "would " if dry_run else ""
    for upload in outcome.plan.uploads:
        print(f"{prefix}upload {upload.key} ({upload.reason.value})")
    for key in outcome.plan.deletes:
        print(f"{prefix}delete {key}")
    for skipped in outcome.scan.skipped:
        if skipped.reason in NOTEWORTHY:
            print(f"skip {skipped.relative_path} ({skipped.reason.value})", file=sys.stderr)


def run_sync(args: argparse.Namespace, mirrors: MirrorFactory = default_mirror) -> int:
    root = Path(args.directory).expanduser()
    if not root.is_dir():
        print(f"{PROG}: {args.directory} is not a directory", file=sys.stderr)
        return 1
    try:
        prefix = normalise_prefix(args.prefix)
        mirror = mirrors(args)
        outcome = sync_folder(mirror, root, Namespace(args.namespace), prefix, dry_run=args.dry_run)
    except (InvalidPrefixError, LocalTargetError, NothingToSyncError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "Unknown")
        print(f"{PROG}: S3 refused the request ({code})", file=sys.stderr)
        return 1
    except BotoCoreError as error:
        print(f"{PROG}: cannot reach S3 ({type(error).__name__})", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG}: cannot read {error.filename or root} ({error.strerror})", file=sys.stderr)
        return 1
    _print_plan(outcome, args.dry_run)
    print(_summary(outcome, f"s3://{mirror.bucket}/{outcome.plan.base_key}"))
    return 0


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    sync = subparsers.add_parser(
        "sync",
        help="mirror a folder of Markdown into a namespace of the memory bucket",
        description=(__doc__ or "").split("\n\n", 1)[-1],
    )
    sync.add_argument("directory", metavar="DIR", help="folder to mirror (e.g. a Claude memory folder)")
    sync.add_argument(
        "--namespace", required=True, choices=[namespace.value for namespace in Namespace], help="namespace"
    )
    sync.add_argument("--prefix", default=None, help="folder under memory/<NS>/ to mirror into")
    target = sync.add_mutually_exclusive_group(required=True)
    target.add_argument("--local", action="store_true", help="the running local stack (.pandora/local.json)")
    target.add_argument("--bucket", help="the deployed memory bucket (default AWS session)")
    sync.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    sync.set_defaults(run=run_sync)
