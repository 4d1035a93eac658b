"""`pandora-memory token create|list|revoke`: bearer tokens for the ChatGPT Action.

`create` prints the token once on stdout (so it can be captured) and stores only its SHA-256 hash;
everything meant for the person goes to stderr.
"""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pandora_memory.cli.group_options import add_to_group_and_actions
from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH, LocalTargetError, ssm_client
from pandora_memory.namespaces import Namespace
from pandora_memory.tokens import MAX_LABEL_LENGTH, mint_token

# botocore and the token store (boto3) are imported where they are used: `--help` stays light.
if TYPE_CHECKING:
    from mypy_boto3_ssm import SSMClient

    from pandora_memory.storage.token_store import TokenStore

SCOPES: dict[str, tuple[Namespace, ...]] = {
    "real_life": (Namespace.REAL_LIFE,),
    "au": (Namespace.AU,),
    "both": (Namespace.REAL_LIFE, Namespace.AU),
}

ClientFactory = Callable[[bool, Path], "SSMClient"]


def tokens_path(stage: str) -> str:
    return f"/pandora/{stage}/tokens"


def _label(value: str) -> str:
    if len(value) > MAX_LABEL_LENGTH:
        raise argparse.ArgumentTypeError(f"at most {MAX_LABEL_LENGTH} characters")
    return value


def _store(args: argparse.Namespace, clients: ClientFactory) -> "TokenStore":
    from pandora_memory.storage.token_store import TokenStore

    return TokenStore(clients(args.local, LOCAL_CONFIG_PATH), tokens_path(args.stage))


def _create(args: argparse.Namespace, store: "TokenStore") -> int:
    minted = mint_token(SCOPES[args.namespace], label=args.label)
    store.put(minted.record)
    scope = ",".join(namespace.value for namespace in minted.record.namespaces)
    print(
        f"created token {minted.record.token_id} for {scope} (stage {args.stage}). "
        "It is shown once; only its SHA-256 hash is stored.",
        file=sys.stderr,
    )
    print(minted.token)
    return 0


def _list(args: argparse.Namespace, store: "TokenStore") -> int:
    records = store.list()
    if not records:
        print(f"no tokens in stage {args.stage}", file=sys.stderr)
        return 0
    for record in records:
        scope = ",".join(namespace.value for namespace in record.namespaces)
        print(f"{record.token_id}\t{scope}\t{record.created_at.isoformat()}\t{record.label}")
    return 0


def _revoke(args: argparse.Namespace, store: "TokenStore") -> int:
    store.revoke(args.token_id)
    print(f"revoked token {args.token_id} (warm authorizers may accept it for a few more minutes)")
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace, "TokenStore"], int]] = {
    "create": _create,
    "list": _list,
    "revoke": _revoke,
}


def run_token(args: argparse.Namespace, clients: ClientFactory = ssm_client) -> int:
    from botocore.exceptions import BotoCoreError, ClientError

    from pandora_memory.storage.token_store import TokenAlreadyExistsError, UnknownTokenError

    try:
        return _ACTIONS[args.token_action](args, _store(args, clients))
    except (LocalTargetError, TokenAlreadyExistsError, UnknownTokenError) as error:
        print(f"pandora-memory token: {error}", file=sys.stderr)
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "Unknown")
        print(f"pandora-memory token: AWS refused the request ({code})", file=sys.stderr)
    except BotoCoreError as error:
        print(f"pandora-memory token: cannot reach AWS ({type(error).__name__})", file=sys.stderr)
    return 1


def _target_options(parser: argparse.ArgumentParser, default: Callable[[object], object]) -> None:
    parser.add_argument("--stage", default=default("dev"), help="deployment stage (default: dev)")
    parser.add_argument(
        "--local",
        action="store_true",
        default=default(False),
        help="use the running local stack (.pandora/local.json)",
    )


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    token = subparsers.add_parser("token", help="create, list and revoke bearer tokens")
    actions = token.add_subparsers(dest="token_action", metavar="ACTION", required=True)

    create = actions.add_parser("create", help="mint a token; prints it once")
    create.add_argument("--namespace", required=True, choices=sorted(SCOPES), help="token scope")
    create.add_argument("--label", default="", type=_label, help="a note to recognise the token by")

    actions.add_parser("list", help="list token ids, scopes and labels (never secrets)")

    revoke = actions.add_parser("revoke", help="delete a token")
    revoke.add_argument("token_id", metavar="ID")
    add_to_group_and_actions(token, actions, _target_options)

    token.set_defaults(run=run_token)
