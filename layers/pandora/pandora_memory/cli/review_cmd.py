"""`pandora-memory review`: the candidate inbox from a terminal, or as JSON for scripts.

    pandora-memory review --namespace real_life            # walk pending candidates, one key each
    pandora-memory review --local                          # against the running `make dev` stack
    pandora-memory review --json list
    pandora-memory review --json approve ID [--summary S] [--memory-type T] [--sensitivity S]
                                            [--to-namespace NS]
    pandora-memory review --json reject ID [--reason R]
    pandora-memory review --json add --summary S --memory-type T [--sensitivity S]

Every call is signed with SigV4 from the caller's AWS credentials (the API is IAM-only). Errors are
one line on stderr with a non-zero exit: 1 when the API refused, 2 when it could not be reached.
"""

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pandora_memory.cli.group_options import add_to_group_and_actions
from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import MemoryType, Sensitivity
from pandora_memory.storage.records import InboxStatus

# The API client (boto3, requests) is imported where it is used: `--help` stays light.
if TYPE_CHECKING:
    from pandora_memory.cli.review_api import ReviewApi

PROG = "pandora-memory review"
NAMESPACES = [namespace.value for namespace in Namespace]
STATUSES = [status.value for status in InboxStatus]
SENSITIVITIES = [sensitivity.value for sensitivity in Sensitivity]
# The walk offers both kinds of waiting candidates: pending ones, then those that held a secret.
WAITING = [InboxStatus.PENDING_REVIEW.value, InboxStatus.BLOCKED_SECRET.value]
MEMORY_TYPES = [memory_type.value for memory_type in MemoryType if memory_type is not MemoryType.NONE]

ApiFactory = Callable[[argparse.Namespace], "ReviewApi"]


def _api(args: argparse.Namespace) -> "ReviewApi":
    from pandora_memory.cli.review_api import ReviewApi, resolve_target

    return ReviewApi(resolve_target(args.api_url, args.region, args.local, Path(args.local_config)))


def _print_json(document: Any) -> None:
    print(json.dumps(document, indent=2, ensure_ascii=False))


def _list(args: argparse.Namespace, api: "ReviewApi") -> int:
    status = args.status or InboxStatus.PENDING_REVIEW.value
    if args.all:
        candidates = list(api.iter_candidates(args.namespace, status, args.limit))
        page: dict[str, Any] = {"candidates": candidates, "cursor": None}
    else:
        page = api.list_candidates(args.namespace, status, args.limit, args.cursor)
    if args.json:
        _print_json(page)
        return 0
    for candidate in page["candidates"]:
        print(
            f"{candidate['id']}\t{candidate['memory_type']}\t{candidate['sensitivity']}\t{candidate['summary']}"
        )
    if page.get("cursor"):
        print(f"more: --cursor {page['cursor']}", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace, api: "ReviewApi") -> int:
    candidate = api.get(args.id)
    if args.json:
        _print_json(candidate)
    else:
        for name in ("id", "status", "summary", "memory_type", "sensitivity", "reason", "rules"):
            print(f"{name}: {candidate.get(name)}")
    return 0


def _approve(args: argparse.Namespace, api: "ReviewApi") -> int:
    reply = api.approve(
        args.id,
        summary=args.summary,
        memory_type=args.memory_type,
        sensitivity=args.sensitivity,
        namespace=args.to_namespace,
    )
    if args.json:
        _print_json(reply)
    else:
        print(f"approved {args.id}: memory {reply['memory']['id']}")
    return 0


def _reject(args: argparse.Namespace, api: "ReviewApi") -> int:
    reply = api.reject(args.id, args.reason)
    if args.json:
        _print_json(reply)
    else:
        print(f"rejected {reply['candidate']['id']}")
    return 0


def _add(args: argparse.Namespace, api: "ReviewApi") -> int:
    reply = api.add(args.namespace, args.summary, args.memory_type, args.sensitivity)
    if args.json:
        _print_json(reply)
    else:
        print(f"added memory {reply['memory']['id']}")
    return 0


def _walk(args: argparse.Namespace, api: "ReviewApi") -> int:
    from pandora_memory.cli.review_terminal import TerminalKeys, Walkthrough

    statuses = [args.status] if args.status else WAITING
    return Walkthrough(api, TerminalKeys()).run(args.namespace, statuses, args.limit)


_ACTIONS: dict[str, Callable[[argparse.Namespace, "ReviewApi"], int]] = {
    "list": _list,
    "show": _show,
    "approve": _approve,
    "reject": _reject,
    "add": _add,
}


def run(args: argparse.Namespace, api_factory: ApiFactory = _api) -> int:
    from pandora_memory.cli.review_api import ReviewApiError

    action = args.review_action or ("list" if args.json else None)
    try:
        api = api_factory(args)
        if action is None:
            return _walk(args, api)
        return _ACTIONS[action](args, api)
    except ReviewApiError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return error.exit_code


def _limit(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 100:
        raise argparse.ArgumentTypeError("between 1 and 100")
    return number


def _shared_options(parser: argparse.ArgumentParser, default: Callable[[object], object]) -> None:
    parser.add_argument(
        "--api-url", default=default(None), help="base URL of the API (the stack's ApiUrl output)"
    )
    parser.add_argument(
        "--region", default=default(None), help="AWS region for SigV4 (default: from the URL or AWS config)"
    )
    parser.add_argument(
        "--local", action="store_true", default=default(False), help="use the local stack from `make dev`"
    )
    parser.add_argument("--local-config", default=default(str(LOCAL_CONFIG_PATH)), help=argparse.SUPPRESS)
    parser.add_argument(
        "--namespace",
        choices=NAMESPACES,
        default=default(Namespace.REAL_LIFE.value),
        help=f"namespace to review or add to (default: {Namespace.REAL_LIFE.value})",
    )
    parser.add_argument(
        "--status",
        choices=STATUSES,
        default=default(None),
        help="only this status (default: list pending_review; walk both waiting)",
    )
    parser.add_argument("--limit", type=_limit, default=default(20), help="page size (1-100)")
    parser.add_argument(
        "--json", action="store_true", default=default(False), help="non-interactive: print the API's JSON"
    )


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "review",
        help="review memory candidates (interactive, or --json for scripts)",
        description="Walk pending memory candidates and approve, edit, correct or reject them.",
    )
    actions = parser.add_subparsers(dest="review_action", metavar="ACTION")

    listing = actions.add_parser("list", help="list candidates")
    listing.add_argument("--cursor", help="continue a listing")
    listing.add_argument("--all", action="store_true", help="every page")

    actions.add_parser("show", help="show one candidate").add_argument("id")

    approve = actions.add_parser("approve", help="approve a candidate, optionally edited")
    approve.add_argument("id")
    approve.add_argument("--summary", help="edited summary (checked for secrets again)")
    approve.add_argument("--memory-type", choices=MEMORY_TYPES)
    approve.add_argument("--sensitivity", choices=SENSITIVITIES)
    approve.add_argument("--to-namespace", choices=NAMESPACES, help="explicit namespace correction")

    reject = actions.add_parser("reject", help="reject a candidate")
    reject.add_argument("id")
    reject.add_argument("--reason")

    add = actions.add_parser("add", help="add a memory the policy missed (uses --namespace)")
    add.add_argument("--summary", required=True)
    add.add_argument("--memory-type", required=True, choices=MEMORY_TYPES)
    add.add_argument("--sensitivity", choices=SENSITIVITIES)

    add_to_group_and_actions(parser, actions, _shared_options)
    # `review --json` alone lists, so the listing options need values without the `list` word.
    parser.set_defaults(run=run, all=False, cursor=None)
