"""The work behind `pandora-memory backfill` (see `backfill_cmd`), imported only when it runs."""

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from tqdm import tqdm

from pandora_memory.backfill.checkpoint import Checkpoint, CheckpointKey, discard
from pandora_memory.backfill.conversations import ConversationReader
from pandora_memory.backfill.errors import CheckpointError, ExportError
from pandora_memory.backfill.json_array import JsonArrayItems
from pandora_memory.backfill.report import candidate_line, summary_lines
from pandora_memory.backfill.runner import BackfillRunner, Queued, Window
from pandora_memory.backfill.sinks import CandidateSink, PreviewSink, RetryingSink
from pandora_memory.backfill.source import ExportSource, locate_export
from pandora_memory.backfill.tally import Outcome, Tally
from pandora_memory.backfill.target import Target, resolve_target
from pandora_memory.cli.backfill_cmd import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, PROG
from pandora_memory.cli.local_target import LocalTargetError
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.errors import StorageError


class UsageError(RuntimeError):
    pass


@dataclass(frozen=True)
class Plan:
    source: ExportSource
    namespace: Namespace
    target: Target | None
    apply: bool
    fingerprint: str


def _plan(args: argparse.Namespace) -> Plan:
    source = locate_export(Path(args.export))
    target = resolve_target(
        table=args.table,
        stack_name=args.stack_name,
        local=args.local,
        region=args.region,
        local_config=Path(args.local_config),
    )
    if args.apply and target is None:
        raise UsageError("--apply needs the candidates table: --local, --table NAME or --stack-name STACK")
    return Plan(source, Namespace(args.namespace), target, args.apply, source.fingerprint())


def _checkpoint(plan: Plan, args: argparse.Namespace) -> Checkpoint | None:
    """Only a named table has a checkpoint: what is finished depends on where it was written."""
    if plan.target is None:
        return None
    directory = Path(args.checkpoint_dir)
    key = CheckpointKey(plan.fingerprint, plan.namespace, plan.target.table)
    if args.restart:
        if plan.apply:
            discard(directory, key)
        return Checkpoint(directory / key.file_name(), key, set(), writable=plan.apply)
    return Checkpoint.load(directory, key, writable=plan.apply)


def _sink(plan: Plan) -> CandidateSink:
    if not plan.apply or plan.target is None:
        return PreviewSink()
    return RetryingSink(CandidateRepository(plan.target.dynamodb(), plan.target.table))


def _announce(
    plan: Plan, checkpoint: Checkpoint | None, already_done: int, write: Callable[..., None]
) -> None:
    where = f"table {plan.target.table}" if plan.target else "no table"
    mode = "queueing into" if plan.apply else "dry run against"
    write(
        f"{PROG}: {plan.source.name} (sha256 {plan.fingerprint[:12]}) into {plan.namespace.value}, "
        f"{mode} {where}",
        file=sys.stderr,
    )
    if checkpoint is not None and already_done:
        write(
            f"{PROG}: resuming: {already_done} conversations already done ({checkpoint.path})",
            file=sys.stderr,
        )


def _execute(plan: Plan, args: argparse.Namespace) -> tuple[Tally, Checkpoint | None]:
    checkpoint = _checkpoint(plan, args)
    already_done = len(checkpoint) if checkpoint is not None else 0
    list_candidates = not plan.apply and not args.counts_only and not args.json
    with (
        plan.source.open() as stream,
        tqdm(
            total=plan.source.size,
            unit="B",
            unit_scale=True,
            desc="backfill",
            file=sys.stderr,
            disable=True if args.no_progress else None,  # None: only on a terminal
        ) as bar,
    ):
        reader = ConversationReader(JsonArrayItems(stream, plan.source.name), plan.source.name)

        def show(queued: Queued) -> None:
            bar.write(candidate_line(queued), file=sys.stdout)

        def on_conversation(tally: Tally) -> None:
            if tally.conversations_read == 1:
                # Said once the export proved readable, so a bad file gets its one error line only.
                _announce(plan, checkpoint, already_done, bar.write)
            bar.update(reader.bytes_read - bar.n)
            bar.set_postfix(conversations=tally.conversations_read, queued=tally.queued_total, refresh=False)

        runner = BackfillRunner(
            plan.namespace,
            _sink(plan),
            checkpoint,
            window=Window(since=args.since, limit=args.limit),
            on_queued=show if list_candidates else None,
            on_conversation=on_conversation,
        )
        try:
            runner.run(reader)
        except BaseException:
            if runner.tally.conversations_read:
                _stopped(runner.tally, plan)
            raise
        finally:
            if checkpoint is not None:
                checkpoint.close()
    return runner.tally, checkpoint


def _stopped(tally: Tally, plan: Plan) -> None:
    resume = " rerun the same command to resume;" if plan.apply else ""
    print(
        f"{PROG}: stopped after {tally.conversations_read} conversations "
        f"({tally.queued_total} queued, {tally.outcomes[Outcome.DUPLICATE]} duplicate).{resume}",
        file=sys.stderr,
    )


def _print_result(plan: Plan, args: argparse.Namespace, tally: Tally, checkpoint: Checkpoint | None) -> None:
    if args.json:
        document: dict[str, Any] = {
            "dry_run": not plan.apply,
            "export": plan.source.name,
            "export_sha256": plan.fingerprint,
            "namespace": plan.namespace.value,
            "table": plan.target.table if plan.target else None,
            "checkpoint": str(checkpoint.path) if checkpoint is not None and plan.apply else None,
            **tally.as_dict(),
        }
        print(json.dumps(document, indent=2))
        return
    for line in summary_lines(tally, dry_run=not plan.apply, limit=args.limit):
        print(line)


def run(args: argparse.Namespace) -> int:
    try:
        plan = _plan(args)
        tally, checkpoint = _execute(plan, args)
    except UsageError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (ExportError, CheckpointError, LocalTargetError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except StorageError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "Unknown")
        print(f"{PROG}: AWS refused the request ({code})", file=sys.stderr)
        return EXIT_FAILED
    except BotoCoreError as error:
        print(f"{PROG}: cannot reach AWS ({type(error).__name__})", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_result(plan, args, tally, checkpoint)
    return 0
