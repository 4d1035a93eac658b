"""Seeds the local bucket with the example memory folders, through the same path a user's files take.

`examples/memory/<namespace>/` is synced to `memory/<namespace>/` with `pandora-memory sync`'s own
code, so the uploads raise S3 events and the ingest handler indexes them: a fresh `make dev` has
something to search in both namespaces. Runs after the S3 event bridge has started.
"""

import sys
from pathlib import Path

from pandora_memory.namespaces import Namespace
from pandora_memory.sync.remote import S3Mirror
from pandora_memory.sync.runner import sync_folder

from pandora_devstack.background import RunningStack
from pandora_devstack.template import REPO_ROOT

EXAMPLES_DIR = REPO_ROOT / "examples" / "memory"


class ExampleSeeder:
    name = "example-memory"

    def __init__(self, examples_dir: Path = EXAMPLES_DIR) -> None:
        self.examples_dir = examples_dir
        self.uploaded: dict[Namespace, int] = {}

    def start(self, stack: RunningStack) -> None:
        mirror = S3Mirror(stack.session.client("s3"), stack.info.bucket)
        for namespace in Namespace:
            folder = self.examples_dir / namespace.value
            if not folder.is_dir():
                continue
            try:
                outcome = sync_folder(mirror, folder, namespace)
            except Exception as error:  # examples are a convenience: the stack runs without them
                print(f"[pandora-local] example memory not seeded: {error!r}", file=sys.stderr, flush=True)
                continue
            self.uploaded[namespace] = len(outcome.plan.uploads)
            print(
                f"[pandora-local] example memory: {len(outcome.plan.uploads)} files from {folder} "
                f"-> s3://{stack.info.bucket}/{outcome.plan.base_key}",
                file=sys.stderr,
                flush=True,
            )

    def stop(self) -> None:
        return None
