"""`make dev`'s S3 events: any S3 client's upload or delete in the local bucket reaches the ingest
handler as a real-shaped S3 event, the example memory is seeded through that path, and
`pandora-memory sync --local` feeds it. Delays are measured from the S3 call returning."""

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pandora_devstack.examples import EXAMPLES_DIR, ExampleSeeder
from pandora_devstack.s3_events import S3EventBridge
from pandora_devstack.stack import LocalStack
from pandora_memory.cli import sync_cmd
from pandora_memory.search.factory import build_search_service
from pandora_memory.search.settings import load_search_settings
from pandora_memory.settings import get_settings
from pandora_memory.storage.records import from_item
from scoring import report

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client

pytestmark = pytest.mark.integration

TARGET_SECONDS = 2.0  # what `make dev` promises
FAILURE_TIMEOUT = 10.0  # generous, so a slow machine reports a figure instead of flaking
INGEST = "MarkdownIngestFunction"
DELAYS: dict[str, list[float]] = {"upload": [], "delete": []}


class Local:
    def __init__(self, stack: LocalStack, bridge: S3EventBridge, workdir: Path) -> None:
        self.stack, self.bridge, self.workdir = stack, bridge, workdir
        session = stack.session()
        self.s3: S3Client = session.client("s3", endpoint_url=stack.aws_endpoint)
        self.dynamodb: DynamoDBClient = session.client("dynamodb", endpoint_url=stack.aws_endpoint)
        self.bucket = stack.info.bucket

    def document(self, namespace: str, logical_path: str) -> dict[str, Any] | None:
        response = self.dynamodb.get_item(
            TableName=self.stack.info.table_names["DocumentsTable"],
            Key={"namespace": {"S": namespace}, "logical_path": {"S": logical_path}},
            ConsistentRead=True,
        )
        item = response.get("Item")
        return from_item(dict(item)) if item else None

    def active(self, namespace: str, logical_path: str) -> Callable[[], bool]:
        def check() -> bool:
            document = self.document(namespace, logical_path)
            return bool(document and document.get("projection_status") == "active")

        return check

    def tombstoned(self, namespace: str, logical_path: str) -> Callable[[], bool]:
        def check() -> bool:
            document = self.document(namespace, logical_path)
            return bool(document and document.get("tombstoned"))

        return check


def seconds_until(condition: Callable[[], bool], since: float, timeout: float = FAILURE_TIMEOUT) -> float:
    while time.monotonic() - since < timeout:
        if condition():
            return time.monotonic() - since
        time.sleep(0.02)
    raise AssertionError(f"not seen within {timeout:.0f} s")


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Local]:
    workdir = tmp_path_factory.mktemp("workdir")
    get_settings.cache_clear()
    bridge = S3EventBridge()
    stack = LocalStack(
        api_port=0,
        state_dir=workdir / ".pandora",
        access_log=False,
        background_tasks=[bridge, ExampleSeeder()],
    )
    stack.start()
    running = Local(stack, bridge, workdir)
    # The seeded examples are delivered first, so the measurements below are of one upload each.
    started = time.monotonic()
    for path in sorted(EXAMPLES_DIR.rglob("*.md")):
        namespace, _, relative = path.relative_to(EXAMPLES_DIR).as_posix().partition("/")
        seconds_until(running.active(namespace, relative.removesuffix(".md")), started, timeout=30)
    yield running
    stack.stop()
    get_settings.cache_clear()
    if DELAYS["upload"]:
        report(
            "local S3 event -> ingest (document active): "
            + ", ".join(
                f"{kind} median {statistics.median(values):.2f} s max {max(values):.2f} s (n={len(values)})"
                for kind, values in DELAYS.items()
                if values
            )
            + f"; target {TARGET_SECONDS:.0f} s"
        )


def test_an_upload_with_boto3_is_ingested_and_a_delete_leaves_a_tombstone(local: Local) -> None:
    for n in range(3):
        key = f"memory/real_life/inbox/note {n}.md"
        body = f"# Note {n}\n\nThe quarterly review moved to room {n + 4}.\n".encode()
        started = time.monotonic()
        local.s3.put_object(Bucket=local.bucket, Key=key, Body=body)
        DELAYS["upload"].append(seconds_until(local.active("real_life", f"inbox/note {n}"), started))

        started = time.monotonic()
        local.s3.delete_object(Bucket=local.bucket, Key=key)
        DELAYS["delete"].append(seconds_until(local.tombstoned("real_life", f"inbox/note {n}"), started))

    assert local.bridge.dead_letters == []
    assert statistics.median(DELAYS["upload"]) <= TARGET_SECONDS, DELAYS
    assert statistics.median(DELAYS["delete"]) <= TARGET_SECONDS, DELAYS


def settled_deliveries(local: Local, quiet: float = 1.5) -> int:
    """The bridge's delivery count once it has not moved for `quiet` seconds."""
    count, since = local.bridge.delivered(INGEST), time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.05)
        if local.bridge.delivered(INGEST) != count:
            count, since = local.bridge.delivered(INGEST), time.monotonic()
    return count


def test_keys_outside_the_template_filters_never_reach_the_handler(local: Local) -> None:
    before = settled_deliveries(local)
    local.s3.put_object(Bucket=local.bucket, Key="memory/real_life/picture.png", Body=b"\x89PNG")
    local.s3.put_object(Bucket=local.bucket, Key="drafts/real_life/idea.md", Body=b"# Idea\n")
    started = time.monotonic()
    local.s3.put_object(Bucket=local.bucket, Key="memory/au/world/map.md", Body=b"# Map\n\nVel lies east.\n")

    seconds_until(local.active("au", "world/map"), started)

    assert settled_deliveries(local) == before + 1
    assert local.document("real_life", "picture") is None


def test_the_example_memory_is_seeded_and_searchable_per_namespace(local: Local) -> None:
    started = time.monotonic()
    for namespace, path in (("real_life", "topics/home"), ("au", "world/characters")):
        seconds_until(local.active(namespace, path), started)
    session = local.stack.session()
    service = build_search_service(
        load_search_settings(),  # the stack set the functions' environment
        session.client("dynamodb", endpoint_url=local.stack.aws_endpoint),
        session.client("s3", endpoint_url=local.stack.aws_endpoint),
    )

    [home] = service.search("real_life", "when do I water the tomatoes", limit=1)
    assert home.logical_path == "topics/home"
    assert {result.namespace.value for result in service.search("au", "lighthouse keeper", limit=5)} == {"au"}
    assert service.search("real_life", "ember dragon Ashe") == []


def test_sync_local_mirrors_a_folder_through_s3_events(
    local: Local, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "claude"
    (folder / "topics").mkdir(parents=True)
    (folder / "MEMORY.md").write_text("# Memory\n\n- [Cycling](topics/cycling.md)\n", encoding="utf-8")
    (folder / "topics" / "cycling.md").write_text(
        "# Cycling\n\nService the bike in April.\n", encoding="utf-8"
    )
    monkeypatch.chdir(local.workdir)  # where `.pandora/local.json` lives
    parser = argparse.ArgumentParser(prog="pandora-memory")
    sync_cmd.register(parser.add_subparsers(required=True))
    args = parser.parse_args(
        ["sync", str(folder), "--namespace", "real_life", "--prefix", "claude", "--local", "--delete"]
    )

    started = time.monotonic()
    assert args.run(args) == 0

    assert "uploaded 2 (2 new, 0 changed)" in capsys.readouterr().out
    seconds_until(local.active("real_life", "claude/topics/cycling"), started)
    (folder / "topics" / "cycling.md").unlink()
    started = time.monotonic()
    assert args.run(args) == 0
    assert "deleted 1" in capsys.readouterr().out
    seconds_until(local.tombstoned("real_life", "claude/topics/cycling"), started)
