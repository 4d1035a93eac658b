"""Generates the GPT Action schema from the code: `python -m pandora_memory.turn.openapi_export`.

The committed copy (openapi/gpt-action.json) must equal what this produces; a test checks it.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer, Server

from pandora_memory.turn.http import create_resolver
from pandora_memory.turn.openapi30 import downgrade_to_openapi_30

API_TITLE = "Pandora Memory"
API_VERSION = "1.0.0"
API_DESCRIPTION = (
    "Memory autopilot for this GPT: before each answer it returns the user's relevant memory, after each "
    "answer it queues durable facts for the user's review, and it searches the user's notes on request. "
    "Two namespaces: real_life and au (fiction)."
)
DEFAULT_SERVER_URL = "https://YOUR-API-ID.execute-api.YOUR-REGION.amazonaws.com/dev"
SECURITY_SCHEME = "bearerAuth"

# Powertools always adds its default validation-error schemas; our errors use ErrorResponse.
_POWERTOOLS_ERROR_SCHEMAS = ("HTTPValidationError", "ValidationError", "ResponseValidationError")


def _drop_unreferenced_error_schemas(document: dict[str, Any]) -> None:
    schemas: dict[str, Any] = document.get("components", {}).get("schemas", {})
    removed = True
    while removed:  # one error schema can be the only user of another
        removed = False
        for name in [n for n in _POWERTOOLS_ERROR_SCHEMAS if n in schemas]:
            rest = {key: value for key, value in schemas.items() if key != name}
            elsewhere = json.dumps({**document, "components": {"schemas": rest}})
            if f'"#/components/schemas/{name}"' not in elsewhere:
                del schemas[name]
                removed = True


def _sort_responses(document: dict[str, Any]) -> None:
    for path_item in document.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"] = dict(sorted(operation["responses"].items()))


def generate(server_url: str = DEFAULT_SERVER_URL) -> dict[str, Any]:
    resolver = create_resolver()
    raw = resolver.get_openapi_json_schema(
        title=API_TITLE,
        version=API_VERSION,
        description=API_DESCRIPTION,
        servers=[Server(url=server_url)],
        security_schemes={SECURITY_SCHEME: HTTPBearer()},
        security=[{SECURITY_SCHEME: []}],
    )
    document: dict[str, Any] = json.loads(raw)
    _drop_unreferenced_error_schemas(document)
    _sort_responses(document)
    return downgrade_to_openapi_30(document)


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--server-url", default=DEFAULT_SERVER_URL, help="the API's base URL (stage included)"
    )
    parser.add_argument("--out", type=Path, help="file to write; standard output when omitted")
    args = parser.parse_args(argv)
    text = render(generate(args.server_url))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
