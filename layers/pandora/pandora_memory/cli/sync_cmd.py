"""`pandora-memory sync DIR --namespace NS [--prefix P] (--local | --bucket B) [--delete] [--dry-run]`.

Copies a folder of Markdown (a Claude memory folder, notes) into `memory/<NS>/[<P>/]` of the memory
bucket: uploads new and changed Markdown files (by content hash). Like `aws s3 sync`, it deletes
nothing unless asked: with `--delete` it uploads new and changed files and deletes removed ones (any
Markdown under the target that is not in DIR, whoever uploaded it); without it, such files are
listed and left alone. `--dry-run` prints the plan and writes nothing.
Every change then reaches search through the ingest pipeline's S3 events. A file counts as changed
when its SHA-256 differs from the one stored with the object (`x-amz-meta-sha256`); see
`pandora_memory.sync.plan`. Hidden folders and files other than `.md` are skipped (and listed).
Markdown the ingest would reject (not UTF-8, too large, a path that cannot be a key) is refused
before upload: each is listed with its reason, the rest is synced, and the exit status is 1.
"""

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH, LocalTargetError
from pandora_memory.namespaces import Namespace

if TYPE_CHECKING:
    from pandora_memory.sync.remote import S3Mirror
    from pandora_memory.sync.runner import SyncOutcome

PROG = "pandora-memory sync"

MirrorFactory = Callable[[argparse.Namespace], "S3Mirror"]


def _local_bucket(path: Path) -> str:
    try:
        bucket = json.loads(path.read_text(encoding="utf-8")).get("bucket")
    except (OSError, json.JSONDecodeError, AttributeError):
        bucket = None
    if not isinstance(bucket, str) or not bucket:
        raise LocalTargetError(f"{path} names no memory bucket: restart `make dev`")
    return bucket


def default_mirror(args: argparse.Namespace) -> "S3Mirror":
    """The running local stack with --local, else the default AWS session and --bucket."""
    import boto3  # here, not at the top: `pandora-memory --help` should not pay for it

    from pandora_memory.cli.local_target import load_local_target
    from pandora_memory.sync.remote import S3Mirror

    if not args.local:
        return S3Mirror(boto3.client("s3"), args.bucket)
    target = load_local_target(LOCAL_CONFIG_PATH)
    session = boto3.Session(
        aws_access_key_id=target.access_key_id,
        aws_secret_access_key=target.secret_access_key,
        region_name=target.region,
    )
    return S3Mirror(session.client("s3", endpoint_url=target.aws_endpoint), _local_bucket(LOCAL_CONFIG_PATH))


def _summary(outcome: "SyncOutcome", target: str) -> str:
    plan, scan = outcome.plan, outcome.scan
    dry = outcome.applied is None
    verb = "would upload" if dry else "uploaded"
    removed = "would delete" if dry else "deleted"
    line = (
        f"{target}: {verb} {len(plan.uploads)} ({plan.new} new, {plan.changed} changed), "
        f"unchanged {len(plan.unchanged)}, {removed} {len(plan.deletes)}, "
    )
    if plan.remote_only:
        line += f"left {len(plan.remote_only)} not in DIR (--delete deletes them), "
    line += f"skipped {len(scan.skipped)}, refused {len(scan.refused)}"
    return line + (" (dry run: nothing written)" if dry else "")


def _print_plan(outcome: "SyncOutcome", dry_run: bool) -> None:
    would = "would " if dry_run else ""
    for upload in outcome.plan.uploads:
        print(f"{would}upload {upload.key} ({upload.reason.value})")
    for key in outcome.plan.deletes:
        print(f"{would}delete {key}")
    for key in outcome.plan.remote_only:
        print(f"leave {key} (not in DIR; --delete would delete it)")
    for skipped in outcome.scan.skipped:
        print(f"skip {skipped.relative_path} ({skipped.reason.value})")
    for refused in outcome.scan.refused:
        print(f"refuse {refused.relative_path} ({refused.reason}: {refused.explanation})", file=sys.stderr)


def run_sync(args: argparse.Namespace, mirrors: MirrorFactory = default_mirror) -> int:
    from botocore.exceptions import BotoCoreError, ClientError

    from pandora_memory.sync.keys import InvalidPrefixError, normalise_prefix
    from pandora_memory.sync.runner import NothingToSyncError, sync_folder

    root = Path(args.directory).expanduser()
    if not root.is_dir():
        print(f"{PROG}: {args.directory} is not a directory", file=sys.stderr)
        return 1
    try:
        prefix = normalise_prefix(args.prefix)
        mirror = mirrors(args)
        outcome = sync_folder(
            mirror, root, Namespace(args.namespace), prefix, dry_run=args.dry_run, delete=args.delete
        )
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
    if outcome.scan.refused:
        count = len(outcome.scan.refused)
        print(
            f"{PROG}: {count} file{'s' if count != 1 else ''} refused (listed above) and not uploaded; "
            f"fix {'them' if count != 1 else 'it'} and sync again",
            file=sys.stderr,
        )
        return 1
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
    sync.add_argument(
        "--delete",
        action="store_true",
        help=(
            "also delete Markdown under memory/<NS>/[<P>/] that is not in DIR (removed locally or "
            "uploaded by other means); without it nothing is deleted"
        ),
    )
    sync.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    sync.set_defaults(run=run_sync)
