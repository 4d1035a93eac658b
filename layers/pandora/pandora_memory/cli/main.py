"""`pandora-memory`: the command line of Pandora Memory. Each subcommand lives in its own module."""

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from pandora_memory.cli import (
    backfill_cmd,
    classify_cmd,
    feedback_cmd,
    flags_cmd,
    ingest_cmd,
    review_cmd,
    sync_cmd,
    token_cmd,
)
from pandora_memory.cli.group_options import ERROR_PARSER, remember_for_errors

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _registrars() -> list[Registrar]:
    registrars: list[Registrar] = [
        classify_cmd.register,
        token_cmd.register,
        review_cmd.register,
        feedback_cmd.register,
        backfill_cmd.register,
        sync_cmd.register,
        flags_cmd.register,
        ingest_cmd.register,
    ]
    return registrars


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pandora-memory", description="Pandora Memory: memory autopilot tools."
    )
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _registrars():
        register(subcommands)
    for command in subcommands.choices.values():
        remember_for_errors(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        chosen: argparse.ArgumentParser = getattr(args, ERROR_PARSER, parser)
        chosen.error(f"unrecognized arguments: {' '.join(unknown)}")
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        print("pandora-memory: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
