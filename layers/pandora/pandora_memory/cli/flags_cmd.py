"""`pandora-memory flags show|set`: read and change the autopilot flags in SSM Parameter Store.

`set` refuses values the functions would reject, so a typo cannot silently fall back to the safe
defaults; `show` prints what the functions will actually apply, with every problem spelled out.
"""

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from pandora_memory.cli.group_options import add_to_group_and_actions
from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH, LocalTargetError, ssm_client
from pandora_memory.flags import (
    AUTO_CANDIDATE_QUEUE,
    AUTO_CAPTURE_ALIAS,
    AUTO_CAPTURE_LOW_RISK,
    AUTO_RETRIEVE,
    AUTOPILOT,
    SENSITIVE_REQUIRES_APPROVAL,
    AutopilotMode,
    parse_flags,
)

if TYPE_CHECKING:
    from mypy_boto3_ssm import SSMClient

BOOLEAN_FLAGS = (
    AUTO_RETRIEVE,
    AUTO_CANDIDATE_QUEUE,
    AUTO_CAPTURE_LOW_RISK,
    AUTO_CAPTURE_ALIAS,
    SENSITIVE_REQUIRES_APPROVAL,
)
ALLOWED_VALUES: dict[str, tuple[str, ...]] = {
    AUTOPILOT: tuple(mode.value for mode in AutopilotMode),
    **{name: ("true", "false") for name in BOOLEAN_FLAGS},
}


def flags_path(stage: str) -> str:
    return f"/pandora/{stage}/flags"


def read_flags(client: "SSMClient", path: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for page in client.get_paginator("get_parameters_by_path").paginate(Path=path):
        for parameter in page["Parameters"]:
            values[parameter["Name"].rsplit("/", 1)[-1]] = parameter["Value"]
    return values


def _show(client: "SSMClient", args: argparse.Namespace) -> int:
    stored = read_flags(client, flags_path(args.stage))
    for name in ALLOWED_VALUES:
        print(f"{name}={stored.get(name, '(unset)')}")
    effective = parse_flags(stored)
    print(
        f"effective: mode={effective.autopilot.value} retrieve={effective.auto_retrieve} "
        f"queue={effective.auto_candidate_queue} capture_low_risk={effective.auto_capture_low_risk} "
        f"sensitive_requires_approval={effective.sensitive_requires_approval}"
    )
    for problem in effective.problems:
        print(f"warning: {problem}")
    return 0


def _set(client: "SSMClient", args: argparse.Namespace) -> int:
    name, value = args.name, args.value.strip().lower()
    if value not in ALLOWED_VALUES[name]:
        print(f"pandora-memory flags: {name} takes one of {', '.join(ALLOWED_VALUES[name])}", file=sys.stderr)
        return 2
    if name == SENSITIVE_REQUIRES_APPROVAL and value == "false":
        print(
            "note: high and private items and secrets always wait for review whatever this flag says",
            file=sys.stderr,
        )
    client.put_parameter(Name=f"{flags_path(args.stage)}/{name}", Value=value, Type="String", Overwrite=True)
    print(f"{name}={value} (functions pick it up within about a minute)")
    return 0


def _run(args: argparse.Namespace) -> int:
    from botocore.exceptions import BotoCoreError, ClientError  # not at the top: `--help` stays light

    try:
        client = ssm_client(args.local, LOCAL_CONFIG_PATH)
        return _show(client, args) if args.action == "show" else _set(client, args)
    except LocalTargetError as error:
        print(f"pandora-memory flags: {error}", file=sys.stderr)
    except (BotoCoreError, ClientError) as error:
        print(f"pandora-memory flags: AWS refused the call: {error}", file=sys.stderr)
    return 1


def _target_options(parser: argparse.ArgumentParser, default: Callable[[object], object]) -> None:
    parser.add_argument("--stage", default=default("dev"), help="deployment stage (default dev)")
    parser.add_argument(
        "--local", action="store_true", default=default(False), help="use the running `make dev` stack"
    )


def register(subcommands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subcommands.add_parser("flags", help="show or set the autopilot flags (SSM)")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("show", help="stored values and what the functions will apply")
    setter = actions.add_parser("set", help="change one flag")
    setter.add_argument("name", choices=sorted(ALLOWED_VALUES))
    setter.add_argument("value")
    add_to_group_and_actions(parser, actions, _target_options)
    parser.set_defaults(run=_run)
