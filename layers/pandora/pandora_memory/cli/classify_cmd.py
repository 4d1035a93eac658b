"""`pandora-memory classify`: both policy decisions for each JSON line on stdin, one JSON line out.

A bad line gets `{"error": ...}` in its place so line numbers stay aligned; the others are still
classified and the exit status is 1 at the end.
"""

import argparse
import json
import sys
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from pandora_memory.namespaces import parse_namespace


class ClassifyInput(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    user_message: str
    namespace: str | None = None
    current_task: str | None = None
    conversation_type: str | None = None
    assistant_response: str | None = None
    source: str = "chatgpt"

    @field_validator("namespace")
    @classmethod
    def _known_namespace(cls, value: str | None) -> str | None:
        return None if value is None else parse_namespace(value).value


def classify_line(raw: bytes) -> dict[str, Any]:
    """Never raises for bad input: returns the decision pair or an error object."""
    # The policies load on first use (then they are cached modules): `--help` does not pay for them.
    from pandora_memory.policy.candidate import should_auto_create_memory_candidate
    from pandora_memory.policy.retrieve import should_auto_retrieve_memory

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return {"error": f"line is not valid UTF-8 (byte {error.start})"}
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        return {"error": f"line is not JSON: {error.msg} at column {error.colno}"}
    if not isinstance(payload, dict):
        return {"error": "line must be a JSON object with a string `user_message`"}
    try:
        item = ClassifyInput.model_validate(payload)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "line"
        return {"error": f"{where}: {first['msg']}"}
    retrieve = should_auto_retrieve_memory(
        item.user_message,
        conversation_type=item.conversation_type,
        namespace=item.namespace,
        current_task=item.current_task,
    )
    candidate = should_auto_create_memory_candidate(
        item.user_message,
        assistant_response=item.assistant_response,
        namespace=item.namespace,
        source=item.source,
    )
    return {"retrieve": retrieve.model_dump(mode="json"), "candidate": candidate.model_dump(mode="json")}


def run_classify(source: IO[bytes], sink: IO[str]) -> int:
    failures = 0
    for number, raw in enumerate(source, start=1):
        line = raw.rstrip(b"\r\n")
        if not line.strip():
            continue
        result = classify_line(line)
        if "error" in result:
            failures += 1
            result["error"] = f"line {number}: {result['error']}"
        sink.write(json.dumps(result, ensure_ascii=False) + "\n")
    if failures:
        print(f"pandora-memory classify: {failures} bad line(s)", file=sys.stderr)
        return 1
    return 0


def _run(_: argparse.Namespace) -> int:
    return run_classify(sys.stdin.buffer, sys.stdout)


def register(subcommands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subcommands.add_parser(
        "classify",
        help="retrieve and candidate decisions for JSON lines on stdin",
        description="Reads JSON lines with `user_message` and optional `namespace`, `current_task`, "
        "`conversation_type`, `assistant_response`, `source`; writes "
        '{"retrieve": ..., "candidate": ...} per line.',
    )
    parser.set_defaults(run=_run)
