"""Markdown ingest throughput: a synthetic 165-file, ~300 KB corpus through the real ingest handler
(quick mode: 40 files, ~75 KB, in-process only).

The corpus (bench/corpus.py, deterministic) has a MEMORY.md index and topic files of log-normal sizes
in each namespace. In-process over moto: each file is uploaded with put_object by a client outside the
handler's session, then the handler gets the real-shaped S3 event for that upload (one record per
event, as S3 sends them: URL-encoded key, size, eTag, versionId, sequencer); only the handler's time is
counted, and its AWS calls by operation. Then every file is uploaded again unchanged (a new S3 version,
same bytes) and ingested again: it must write no chunks (BatchWriteItem/PutItem on the chunks table = 0).
Through the local stack: the same corpus uploaded with boto3 put_object to the local bucket, the
S3 → SQS → handler bridge delivering the events, timed until every document is active.
Then the scaling of one document's ingest with the namespace's size (bench/projection_scale.py: 1k and
10k documents; quick mode 1k only).
"""

import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench import projection_scale
from bench.aws_env import (
    AwsCall,
    fresh_container,
    inspector,
    lambda_context,
    load_function,
    moto_stack,
    quiet_stdout,
)
from bench.corpus import synthetic_corpus
from bench.report import Section
from bench.seeding import s3_event

CHUNK_WRITES = frozenset({"dynamodb.BatchWriteItem", "dynamodb.PutItem"})


@dataclass
class Pass:
    name: str
    files: int = 0
    handler_seconds: float = 0.0
    calls: list[AwsCall] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)

    def chunk_writes(self, chunks_table: str) -> int:
        return sum(1 for call in self.calls if call.operation in CHUNK_WRITES and chunks_table in call.tables)

    @property
    def aws_seconds(self) -> float:
        return sum(call.seconds for call in self.calls)

    @property
    def files_per_second(self) -> float:
        return self.files / self.handler_seconds if self.handler_seconds else 0.0


def ingest_pass(name: str, app: Any, recorder: Any, bucket: str, corpus: dict[str, str], start: int) -> Pass:
    s3 = inspector("s3")
    result = Pass(name)
    context = lambda_context("MarkdownIngestFunction", memory_mb=1024, timeout_s=60)
    for offset, (key, text) in enumerate(corpus.items()):
        body = text.encode()
        response = s3.put_object(Bucket=bucket, Key=key, Body=body)
        event = s3_event(bucket, key, response, len(body), start + offset)
        recorder.take()
        started = time.perf_counter()
        reply = app.lambda_handler(event, context)
        result.handler_seconds += time.perf_counter() - started
        result.calls += recorder.take()
        result.files += 1
        result.outcomes.update(str(outcome.get("outcome", "?")) for outcome in reply["outcomes"])
    return result


def measure_moto(corpus: dict[str, str]) -> tuple[list[Pass], str, int]:
    """The first ingest and the unchanged re-ingest; the chunks table's name and its final item count."""
    from pandora_memory.ingest.config import load_ingest_settings

    with moto_stack("MarkdownIngestFunction") as stack, quiet_stdout():
        recorder = fresh_container()
        app = load_function("markdown_ingest")
        first = ingest_pass("first ingest", app, recorder, stack.bucket, corpus, 1)
        again = ingest_pass("re-ingest, unchanged", app, recorder, stack.bucket, corpus, len(corpus) + 1)
        chunks_table = load_ingest_settings().chunks_table
        chunk_items = _count_items(inspector("dynamodb"), chunks_table)
    return [first, again], chunks_table, chunk_items


def _count_items(dynamodb: Any, table: str) -> int:
    count, start = 0, None
    while True:
        page = dynamodb.scan(
            TableName=table, Select="COUNT", **({"ExclusiveStartKey": start} if start else {})
        )
        count += int(page["Count"])
        start = page.get("LastEvaluatedKey")
        if not start:
            return count


def measure_local_stack(corpus: dict[str, str], timeout: float = 300.0) -> tuple[float, int, int]:
    """Seconds from the first put_object until every document is active, documents active, dead letters."""
    from pandora_devstack.s3_events import S3EventBridge
    from pandora_devstack.stack import LocalStack
    from pandora_memory.settings import get_settings

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the emulator's access lines
    get_settings.cache_clear()
    bridge = S3EventBridge(log=lambda line: None)
    stack = LocalStack(api_port=0, access_log=False, background_tasks=[bridge])
    with quiet_stdout():
        stack.start()
        try:
            session = stack.session()
            s3 = session.client("s3", endpoint_url=stack.aws_endpoint)
            dynamodb = session.client("dynamodb", endpoint_url=stack.aws_endpoint)
            documents = stack.info.table_names["DocumentsTable"]
            started = time.monotonic()
            for key, text in corpus.items():
                s3.put_object(Bucket=stack.info.bucket, Key=key, Body=text.encode())
            active = 0
            while time.monotonic() - started < timeout:
                active = _active_documents(dynamodb, documents)
                if active >= len(corpus) or bridge.dead_letters:
                    break
                time.sleep(0.2)
            elapsed = time.monotonic() - started
            dead = len(bridge.dead_letters)
        finally:
            stack.stop()
            get_settings.cache_clear()
    return elapsed, active, dead


def _active_documents(dynamodb: Any, table: str) -> int:
    items = dynamodb.scan(TableName=table, ConsistentRead=True)["Items"]
    return sum(1 for item in items if item.get("projection_status", {}).get("S") == "active")


def _operations(calls: list[AwsCall], files: int) -> str:
    counts = Counter(call.operation for call in calls)
    return ", ".join(f"{operation} {n} ({n / files:.1f}/file)" for operation, n in sorted(counts.items()))


def run(quick: bool = False) -> Section:
    corpus = synthetic_corpus(40, 75_000) if quick else synthetic_corpus()
    total_kb = sum(len(text.encode()) for text in corpus.values()) / 1000
    passes, chunks_table, chunk_items = measure_moto(corpus)
    first, again = passes
    writes_again = again.chunk_writes(chunks_table)
    lines = [
        (__doc__ or "").strip(),
        "",
        f"Corpus: {len(corpus)} files, {total_kb:.0f} KB, both namespaces; {chunk_items} chunks stored.",
        "",
        "| pass | files | handler seconds | of which in AWS calls (moto) | files/s | chunk-table writes "
        "| outcomes |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for result in passes:
        outcomes = ", ".join(f"{name} {n}" for name, n in sorted(result.outcomes.items()))
        lines.append(
            f"| {result.name} (moto, in-process) | {result.files} | {result.handler_seconds:.2f} "
            f"| {result.aws_seconds:.2f} | {result.files_per_second:.1f} "
            f"| {result.chunk_writes(chunks_table)} | {outcomes} |"
        )
    lines += ["", "AWS calls by operation:", ""]
    lines += [f"- {result.name}: {_operations(result.calls, result.files)}" for result in passes]
    verdict = "met" if writes_again == 0 else "MISSED"
    lines += ["", f"Unchanged re-ingest writes {writes_again} chunk items: aim (0) {verdict}."]
    figures = {
        "first_seconds": first.handler_seconds,
        "first_files_per_s": first.files_per_second,
        "again_seconds": again.handler_seconds,
        "again_chunk_writes": float(writes_again),
    }
    if quick:
        lines.append("\nThe local-stack pass runs in the full benchmark only.")
    else:
        elapsed, active, dead = measure_local_stack(corpus)
        figures.update({"local_seconds": elapsed, "local_active": float(active)})
        lines.append(
            f"\nLocal stack (boto3 put_object → S3 event → handler, one bridge thread): {active} of "
            f"{len(corpus)} documents active {elapsed:.1f} s after the first upload "
            f"({active / elapsed:.1f} files/s end to end), {dead} dead letters."
        )
    scale_lines, scale_figures = projection_scale.report(
        projection_scale.QUICK_SIZES if quick else projection_scale.SIZES
    )
    figures.update(scale_figures)
    lines += ["", *scale_lines]
    lines.append("\nAbsolute times are this machine's.")
    return Section("Markdown ingest throughput", "\n".join(lines), figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
