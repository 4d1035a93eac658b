"""Markdown notes put in place through the real ingest handler, so turns and searches meet real data."""

import copy
import json
from functools import cache
from typing import Any
from urllib.parse import quote_plus

from bench.aws_env import inspector, lambda_context, load_function
from bench.corpus import synthetic_corpus
from bench.report import REPO_ROOT

EVENT_SAMPLE = REPO_ROOT / "events" / "markdown_ingest_created.json"
RETRIEVAL_CORPUS = REPO_ROOT / "tests" / "data" / "retrieval_corpus"


def s3_event(bucket: str, key: str, response: dict[str, Any], size: int, sequencer: int) -> dict[str, Any]:
    """The repository's sample S3 ObjectCreated:Put event, describing this upload."""
    event: dict[str, Any] = copy.deepcopy(json.loads(EVENT_SAMPLE.read_text(encoding="utf-8")))
    record = event["Records"][0]
    record["s3"]["bucket"].update({"name": bucket, "arn": f"arn:aws:s3:::{bucket}"})
    record["s3"]["object"] = {
        "key": quote_plus(key, safe="/"),
        "size": size,
        "eTag": str(response["ETag"]).strip('"'),
        "versionId": response["VersionId"],
        "sequencer": f"{sequencer:018X}",
    }
    return event


@cache
def person_notes() -> dict[str, str]:
    """The retrieval evaluation corpus as uploads (memory/<namespace>/<path>), or a small synthetic one."""
    if not RETRIEVAL_CORPUS.is_dir():
        return synthetic_corpus(files=12, total_bytes=20_000)
    return {
        f"memory/{path.relative_to(RETRIEVAL_CORPUS).as_posix()}": path.read_text(encoding="utf-8")
        for path in sorted(RETRIEVAL_CORPUS.rglob("*.md"))
    }


def ingest_notes(bucket: str, notes: dict[str, str]) -> int:
    """Uploads and ingests each note inside the current moto stack; returns how many were ingested."""
    app = load_function("markdown_ingest")
    context = lambda_context("MarkdownIngestFunction", memory_mb=1024, timeout_s=60)
    s3 = inspector("s3")
    ingested = 0
    for sequencer, (key, text) in enumerate(notes.items(), 1):
        body = text.encode()
        response = s3.put_object(Bucket=bucket, Key=key, Body=body)
        reply = app.lambda_handler(s3_event(bucket, key, response, len(body), sequencer), context)
        ingested += sum(1 for outcome in reply["outcomes"] if outcome.get("outcome") == "ingested")
    return ingested
