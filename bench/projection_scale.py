"""What one document's ingest reads and writes as a namespace grows, and the size of the pointer item.

For each size, a namespace of that many documents (three chunk-shaped entries each, bench/corpus.py's
distractors) is cut into shards and stored in moto as the ingest stores it; then one new document
goes through the real pipeline, its S3 and DynamoDB traffic counted by a botocore hook on the
pipeline's clients. The previous design (one whole-namespace snapshot rewritten per ingest, the
document map on the pointer item) is computed from the same entries: its snapshot's size and the
pointer item it would carry.
"""

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import boto3

from bench.aws_env import moto_stack, quiet_stdout
from bench.corpus import distractor_entries

SIZES = (1_000, 10_000)
QUICK_SIZES = (1_000,)
CHUNKS_PER_DOCUMENT = 3
HASH = "0" * 64
NEW_DOCUMENT = "# Lantern\n\nThe harbour lantern was relit tonight after the storm.\n"


@dataclass
class Traffic:
    sent: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    received: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def parameters(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        name = f"{model.service_model.service_name}.{model.name}"
        self.calls[name] += 1
        if name == "s3.PutObject":
            self.sent[f"{name} {params['Key'].split('/')[0]}/"] += len(params["Body"])
        else:
            self.sent[name] += len(json.dumps(params, default=str))

    def response(self, http_response: Any, parsed: Any, model: Any, **_: Any) -> None:
        name = f"{model.service_model.service_name}.{model.name}"
        self.received[name] += (
            int(parsed.get("ContentLength") or 0)
            if name == "s3.GetObject"
            else len(http_response.content or b"")
        )


@dataclass(frozen=True)
class ScaleFigures:
    documents: int
    chunks: int
    shards: int
    pointer_bytes: int
    projection_written: int
    projection_read: int
    dynamodb_written: int
    seconds: float
    old_pointer_bytes: int
    old_snapshot_bytes: int


def _namespace_entries(documents: int) -> list[Any]:
    from pandora_memory.search.index import SearchEntry

    entries = distractor_entries(documents * CHUNKS_PER_DOCUMENT, ("real_life",))
    return [
        SearchEntry(
            f"docs/{n // CHUNKS_PER_DOCUMENT:05d}#{HASH}#{n % CHUNKS_PER_DOCUMENT:05d}",
            "real_life",
            f"docs/{n // CHUNKS_PER_DOCUMENT:05d}",
            entry.heading_path,
            entry.text,
            f"docs/{n // CHUNKS_PER_DOCUMENT:05d}#{HASH}",
        )
        for n, entry in enumerate(entries)
    ]


def _item_bytes(item: dict[str, Any]) -> int:
    return len(json.dumps(item, separators=(",", ":")))


def measure(documents: int) -> ScaleFigures:
    from pandora_memory.ingest.config import load_ingest_settings
    from pandora_memory.ingest.events import parse_record
    from pandora_memory.ingest.factory import build_pipeline
    from pandora_memory.ingest.projections import ProjectionPointer, ProjectionRepository
    from pandora_memory.namespaces import Namespace
    from pandora_memory.search.manifest import Manifest
    from pandora_memory.search.shards import ROOT, leaves
    from pandora_memory.search.snapshot import encode_snapshot
    from pandora_memory.storage.records import to_item

    from bench.seeding import s3_event

    entries = _namespace_entries(documents)
    document_map = {entry.logical_path: HASH for entry in entries}
    old_snapshot = len(encode_snapshot(entries))
    old_pointer = to_item(
        {"namespace": "real_life", "generation": documents, "memory_generation": 0, "updated_at": "x" * 27}
        | {"snapshot_key": f"projections/real_life/{documents:012d}-{'0' * 16}.json.gz"}
        | {"documents": document_map}
    )
    cut = leaves(ROOT, document_map, entries)

    with moto_stack("MarkdownIngestFunction") as stack, quiet_stdout():
        settings = load_ingest_settings()
        s3, dynamodb = boto3.client("s3"), boto3.client("dynamodb")
        projections = ProjectionRepository(dynamodb, s3, settings.projections_table, settings.memory_bucket)
        namespace = Namespace.REAL_LIFE
        refs = [projections.write_shard(namespace, 1, shard) for shard in cut]
        manifest = Manifest(namespace.value, 0, ()).replaced(ROOT, refs, 1)
        manifest_key = projections.write_manifest(namespace, manifest)
        assert projections.swap(ProjectionPointer(namespace), manifest, manifest_key, [], "now").swapped

        pipeline = build_pipeline(settings, dynamodb, s3)
        key = "memory/real_life/docs/new-lantern.md"
        response = s3.put_object(Bucket=stack.bucket, Key=key, Body=NEW_DOCUMENT.encode())
        event = s3_event(stack.bucket, key, dict(response), len(NEW_DOCUMENT.encode()), 1)
        seen = Traffic()
        for client in (s3, dynamodb):
            client.meta.events.register("provide-client-params", seen.parameters)
            client.meta.events.register("after-call", seen.response)
        started = time.perf_counter()
        outcome = pipeline.process(parse_record(event["Records"][0]))
        seconds = time.perf_counter() - started
        assert outcome.generation == 2, outcome
        pointer = dynamodb.get_item(
            TableName=settings.projections_table, Key={"namespace": {"S": "real_life"}}, ConsistentRead=True
        )["Item"]
    dynamodb_written = sum(
        size
        for name, size in seen.sent.items()
        if name.split(".")[1] in {"PutItem", "UpdateItem", "BatchWriteItem", "TransactWriteItems"}
    )
    return ScaleFigures(
        documents=documents,
        chunks=len(entries),
        shards=len(cut),
        pointer_bytes=_item_bytes(dict(pointer)),
        projection_written=seen.sent["s3.PutObject projections/"],
        projection_read=seen.received["s3.GetObject"],
        dynamodb_written=dynamodb_written,
        seconds=seconds,
        old_pointer_bytes=_item_bytes(old_pointer),
        old_snapshot_bytes=old_snapshot,
    )


def report(sizes: Sequence[int]) -> tuple[list[str], dict[str, float]]:
    lines = [
        "One-document ingest into a namespace of N documents (3 chunks each), moto, traffic counted "
        "by a botocore hook on the pipeline's clients. Previous design: whole snapshot rewritten, "
        "document map on the pointer item (computed from the same entries).",
        "",
        "| documents | chunks | shards | pointer item (B) | S3 projection bytes written | S3 bytes read "
        "(upload + manifest + shard) | DynamoDB bytes written | handler s | previous: pointer item (B) "
        "| previous: snapshot rewritten (B) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    figures: dict[str, float] = {}
    for size in sizes:
        found = measure(size)
        lines.append(
            f"| {found.documents:,} | {found.chunks:,} | {found.shards} | {found.pointer_bytes} "
            f"| {found.projection_written:,} | {found.projection_read:,} | {found.dynamodb_written:,} "
            f"| {found.seconds:.2f} | {found.old_pointer_bytes:,} | {found.old_snapshot_bytes:,} |"
        )
        figures[f"pointer_bytes_{size}"] = float(found.pointer_bytes)
        figures[f"projection_written_{size}"] = float(found.projection_written)
        figures[f"old_snapshot_bytes_{size}"] = float(found.old_snapshot_bytes)
    lines.append(
        "\nDynamoDB's item limit is 400 KB: the previous pointer item passed it near 4,000 documents."
    )
    return lines, figures
