"""`python -m pandora_devstack` (`make dev`): the API on http://127.0.0.1:3000 until Ctrl-C or SIGTERM.

PANDORA_PORT changes the API port. The facts printed at start are also in `.pandora/local.json`.
Uploads to the local bucket reach the ingest handler as S3 events; the example memory folders under
`examples/memory/` are uploaded at start (PANDORA_SEED_EXAMPLES=0 skips them).
"""

import logging
import os
import signal
import sys
import threading
from types import FrameType

from pandora_devstack.background import BackgroundTask
from pandora_devstack.examples import ExampleSeeder
from pandora_devstack.local_config import LOCAL_JSON
from pandora_devstack.observability.console import DASHBOARD_PATH, METRICS_PATH
from pandora_devstack.s3_events import S3EventBridge
from pandora_devstack.stack import DEFAULT_API_PORT, LocalStack, LocalStackError
from pandora_devstack.template import REPO_ROOT


def _port() -> int:
    raw = os.environ.get("PANDORA_PORT", str(DEFAULT_API_PORT))
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise LocalStackError(f"PANDORA_PORT must be a port number, not {raw!r}")
    return int(raw)


def _background_tasks() -> list[BackgroundTask]:
    """S3 events first, so the example uploads are delivered to the ingest handler."""
    tasks: list[BackgroundTask] = [S3EventBridge()]
    if os.environ.get("PANDORA_SEED_EXAMPLES", "1") != "0":
        tasks.append(ExampleSeeder())
    return tasks


def main() -> int:
    # The emulator's per-request access lines would drown the API's own.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    state_dir = REPO_ROOT / ".pandora"
    try:
        stack = LocalStack(api_port=_port(), state_dir=state_dir, background_tasks=_background_tasks())
        info = stack.start()
    except LocalStackError as error:
        print(f"pandora-local: {error}", file=sys.stderr)
        return 1
    print(info.banner(), flush=True)
    print(f"  local dashboard: {info.api_url}{DASHBOARD_PATH} (JSON: {METRICS_PATH})", flush=True)
    print(f"  written to {state_dir / LOCAL_JSON}; Ctrl-C stops the stack", flush=True)
    try:
        # A timed wait keeps the main thread responsive to signals on every platform.
        while not stopping.wait(0.5):
            pass
    finally:
        stack.stop()
    print("Pandora local stack stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
