"""`pandora-memory`: the command line of Pandora Memory. Each subcommand lives in its own module."""

import argparse
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        print("pandora-memory: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
