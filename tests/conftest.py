import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from scoring import REPORT_LINES  # noqa: E402

# Tests never talk to real AWS: fake credentials and a fixed region for every boto3 client.
os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_SESSION_TOKEN", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "Pandora")
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "pandora-memory")
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")

SHARED_EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORT_LINES:
        terminalreporter.section("policy scores")
        for line in REPORT_LINES:
            terminalreporter.write_line(line)
