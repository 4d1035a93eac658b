"""Load test of the local stack: concurrent clients mixing turns, searches and uploads, then a count of
what was stored.

The embedded local stack (moto as AWS, the template's functions in-process, the API Gateway emulation
with its bearer authorizer, the S3 → SQS → ingest bridge) listens on a free loopback port. Client
threads send, for a fixed time and a bounded number of requests: pre_answer and post_answer turns over
HTTP with the stack's bearer tokens (one per namespace), `POST /api/memory/search` when the template
has that route, and Markdown uploads with boto3 put_object to the local bucket (their ingest runs
behind, through S3 events). Every post_answer carries a distinct candidate message and every upload a
distinct file; after the run (and once ingest has caught up) the tables are scanned: each candidate
the API reported as stored, and each uploaded document, must be there exactly once.
"""

import json
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.aws_env import quiet_stdout
from bench.corpus import markdown_document
from bench.load_checks import Presence, active_ids, candidate_ids, document_ids, presence, scan
from bench.report import Section, median, percentile
from bench.turns import Turn, labeled_turns

TURN = "/api/memory/adaptive/turn"
SEARCH = "/api/memory/search"
UPLOAD_FOLDER = "load/"
MARKER_WIDTH = 6  # request numbers are zero-padded so every candidate summary has the same shape


@dataclass(frozen=True)
class LoadPlan:
    threads: int
    seconds: float
    max_requests: int
    max_uploads: int
    ingest_timeout: float
    upload_share: float = 0.1  # of requests, until max_uploads is reached


FULL = LoadPlan(threads=8, seconds=20.0, max_requests=6000, max_uploads=40, ingest_timeout=240.0)
QUICK = LoadPlan(threads=8, seconds=5.0, max_requests=1500, max_uploads=8, ingest_timeout=90.0)


@dataclass(frozen=True)
class Result:
    kind: str
    ms: float
    ok: bool
    stored_id: str | None = None  # candidate id the API reported as written, or namespace/path uploaded
    outcome: str | None = None  # a post_answer's candidate outcome
    error: str | None = None  # "HTTP 503 service_unavailable", or the exception's type


@dataclass
class Shared:
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent: int = 0
    uploads: int = 0
    results: list[Result] = field(default_factory=list)

    def ticket(self, plan: LoadPlan, wants_upload: bool) -> tuple[int, bool] | None:
        """The next request number, and whether it may be an upload; None once the bound is reached."""
        with self.lock:
            if self.sent >= plan.max_requests:
                return None
            self.sent += 1
            upload = wants_upload and self.uploads < plan.max_uploads
            self.uploads += upload
            return self.sent, upload


def unique_candidates() -> list[Turn]:
    """Labeled candidate messages whose summary keeps a trailing request number (so each is distinct)."""
    from pandora_memory.policy.candidate import should_auto_create_memory_candidate
    from pandora_memory.policy.models import CandidateStatus

    chosen = []
    probe = "0" * MARKER_WIDTH
    for turn in labeled_turns():
        if turn.mode != "post_answer":
            continue
        message = f"{turn.user_message} (load ticket {probe})"
        decision = should_auto_create_memory_candidate(message, namespace=turn.namespace)
        if (
            decision.status is CandidateStatus.CANDIDATE
            and not decision.secret_kinds
            and probe in decision.summary
        ):
            chosen.append(turn)
    return chosen


def _http_error(response: Any) -> str | None:
    if response.status_code == 200:
        return None
    try:
        code = response.json().get("error") or response.json().get("message")
    except ValueError:
        code = None
    return f"HTTP {response.status_code} {code or ''}".strip()


class Client:
    """One client thread: its own HTTP session and S3 client."""

    def __init__(self, stack: Any, number: int, candidates: list[Turn], has_search: bool) -> None:
        import requests

        self.info = stack.info
        self.http = requests.Session()
        self.s3 = stack.session().client("s3", endpoint_url=stack.aws_endpoint)
        self.rng = random.Random(1000 + number)
        self.number = number
        self.candidates = candidates
        self.questions = [turn for turn in labeled_turns() if turn.mode == "pre_answer"]
        self.has_search = has_search

    def _post(self, path: str, namespace: str, body: dict[str, Any]) -> Any:
        headers = {"Authorization": f"Bearer {self.info.tokens[namespace]}"}
        return self.http.post(self.info.api_url + path, json=body, headers=headers, timeout=30)

    def pre_answer(self, request: int) -> Result:
        turn = self.rng.choice(self.questions)
        started = time.perf_counter()
        response = self._post(TURN, turn.namespace, turn.body())
        ms = (time.perf_counter() - started) * 1000
        return Result("pre_answer", ms, response.status_code == 200, error=_http_error(response))

    def post_answer(self, request: int) -> Result:
        base = self.rng.choice(self.candidates)
        turn = Turn(
            "post_answer", base.namespace, f"{base.user_message} (load ticket {request:0{MARKER_WIDTH}d})"
        )
        started = time.perf_counter()
        response = self._post(TURN, turn.namespace, turn.body())
        ms = (time.perf_counter() - started) * 1000
        preview = response.json().get("candidate_preview") if response.status_code == 200 else None
        stored = preview["id"] if preview and preview.get("stored") else None
        outcome = str(preview["outcome"]) if preview else None
        return Result("post_answer", ms, response.status_code == 200, stored, outcome, _http_error(response))

    def search(self, request: int) -> Result:
        turn = self.rng.choice(self.questions)
        started = time.perf_counter()
        response = self._post(
            SEARCH, turn.namespace, {"namespace": turn.namespace, "query": turn.user_message}
        )
        ms = (time.perf_counter() - started) * 1000
        return Result("search", ms, response.status_code == 200, error=_http_error(response))

    def upload(self, request: int) -> Result:
        namespace = "real_life" if request % 2 else "au"
        logical = f"{UPLOAD_FOLDER}client {self.number} note {request:0{MARKER_WIDTH}d}"
        text = markdown_document(random.Random(request), f"Load note {request}", self.rng.randint(400, 3000))
        started = time.perf_counter()
        self.s3.put_object(
            Bucket=self.info.bucket, Key=f"memory/{namespace}/{logical}.md", Body=text.encode()
        )
        return Result("upload", (time.perf_counter() - started) * 1000, True, f"{namespace}/{logical}")


def _worker(client: Client, plan: LoadPlan, shared: Shared, stop_at: float) -> None:
    turns: list[Callable[[int], Result]] = [client.pre_answer, client.pre_answer, client.post_answer]
    if client.has_search:
        turns.append(client.search)
    while time.monotonic() < stop_at:
        ticket = shared.ticket(plan, wants_upload=client.rng.random() < plan.upload_share)
        if ticket is None:
            return
        request, upload = ticket
        action = client.upload if upload else client.rng.choice(turns)
        try:
            result = action(request)
        except Exception as error:  # a refused connection or a timeout is an error of the run, not a crash
            result = Result(action.__name__, 0.0, False, error=type(error).__name__)
        with shared.lock:
            shared.results.append(result)


@dataclass
class LoadReport:
    elapsed: float
    results: list[Result]
    has_search: bool
    candidates: Presence
    documents: Presence
    ingest_seconds: float
    documents_active: int
    dead_letters: int
    handler_errors: Counter[str] = field(default_factory=Counter)


def handler_errors(log: Path) -> Counter[str]:
    """Error log lines of the functions: exception type and the innermost frame, never the message."""
    found: Counter[str] = Counter()
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.startswith("{") or '"level"' not in line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("level") not in ("ERROR", "CRITICAL"):
            continue
        frames = re.findall(r'File "([^"]+)", line (\d+)', str(record.get("exception", "")))
        where = f" at {Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else ""
        found[f"{record.get('exception_name') or record.get('message', '?')}{where}"] += 1
    return found


def run_load(plan: LoadPlan) -> LoadReport:
    import logging

    from pandora_devstack.api_routes import read_routes
    from pandora_devstack.s3_events import S3EventBridge
    from pandora_devstack.stack import LocalStack
    from pandora_devstack.template import load_template
    from pandora_memory.settings import get_settings

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    has_search = any(
        route.resource == SEARCH and route.method == "POST" for route in read_routes(load_template())
    )
    candidates = unique_candidates()
    get_settings.cache_clear()  # a fresh stack is a fresh container
    bridge = S3EventBridge(log=lambda line: None)
    stack = LocalStack(api_port=0, access_log=False, background_tasks=[bridge])
    with tempfile.TemporaryDirectory() as folder, quiet_stdout(Path(folder) / "stdout.log"):
        stack.start()
        try:
            shared = Shared()
            clients = [Client(stack, number, candidates, has_search) for number in range(plan.threads)]
            for request in range(4):  # untimed: first calls build each function's clients and caches
                clients[0].pre_answer(request)
                if has_search:
                    clients[0].search(request)
            started = time.monotonic()
            threads = [
                threading.Thread(
                    target=_worker, args=(client, plan, shared, started + plan.seconds), daemon=True
                )
                for client in clients
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=plan.seconds + 60)
            elapsed = time.monotonic() - started
            report = _verify(stack, bridge, shared.results, plan, elapsed, has_search)
        finally:
            stack.stop()
            get_settings.cache_clear()
        report.handler_errors = handler_errors(Path(folder) / "stdout.log")
    return report


def _verify(
    stack: Any, bridge: Any, results: list[Result], plan: LoadPlan, elapsed: float, has_search: bool
) -> LoadReport:
    dynamodb = stack.session().client("dynamodb", endpoint_url=stack.aws_endpoint)
    tables = stack.info.table_names
    uploaded = {result.stored_id for result in results if result.kind == "upload" and result.stored_id}
    waited_from = time.monotonic()
    active: set[str] = set()
    while time.monotonic() - waited_from < plan.ingest_timeout and not bridge.dead_letters:
        active = active_ids(scan(dynamodb, tables["DocumentsTable"]), UPLOAD_FOLDER)
        if uploaded <= active:
            break
        time.sleep(0.5)
    ingest_seconds = time.monotonic() - waited_from
    stored_candidates = [
        result.stored_id for result in results if result.kind == "post_answer" and result.stored_id
    ]
    return LoadReport(
        elapsed=elapsed,
        results=results,
        has_search=has_search,
        candidates=presence(stored_candidates, candidate_ids(scan(dynamodb, tables["CandidatesTable"]))),
        documents=presence(uploaded, document_ids(scan(dynamodb, tables["DocumentsTable"]), UPLOAD_FOLDER)),
        ingest_seconds=ingest_seconds,
        documents_active=len(uploaded & active),
        dead_letters=len(bridge.dead_letters),
    )


def _presence_line(label: str, found: Presence) -> str:
    verdict = "exactly once each" if found.exact else "NOT exactly once"
    return (
        f"- {label}: {found.expected} expected, {found.present_once} present once, {found.missing} missing, "
        f"{found.duplicated} duplicated, {found.unexpected} unexpected — {verdict}."
    )


def run(quick: bool = False) -> Section:
    plan = QUICK if quick else FULL
    report = run_load(plan)
    kinds = Counter(result.kind for result in report.results)
    outcomes = Counter(result.outcome or "none" for result in report.results if result.kind == "post_answer")
    errors = Counter(f"{result.kind}: {result.error}" for result in report.results if not result.ok)
    errors_text = ", ".join(f"{name} ×{n}" for name, n in sorted(errors.items())) or "none"
    logged_text = ", ".join(f"`{name}` ×{n}" for name, n in sorted(report.handler_errors.items())) or "none"
    rows = []
    figures: dict[str, float] = {"requests_per_s": len(report.results) / report.elapsed}
    for kind in sorted(kinds):
        done = [result for result in report.results if result.kind == kind]
        ok = [result.ms for result in done if result.ok] or [0.0]
        failed = sum(not result.ok for result in done)
        rows.append(
            f"| {kind} | {len(done)} | {len(done) / report.elapsed:.1f} | {median(ok):.0f} "
            f"| {percentile(ok, 0.99):.0f} | {failed} |"
        )
        figures[f"p50_ms:{kind}"] = median(ok)
        figures[f"p99_ms:{kind}"] = percentile(ok, 0.99)
        figures[f"errors:{kind}"] = float(failed)
    search_note = (
        "`POST /api/memory/search` is in the template and is part of the mix."
        if report.has_search
        else "`POST /api/memory/search` is not in template.yaml yet, so searches are not part of the mix."
    )
    body = "\n".join(
        [
            (__doc__ or "").strip(),
            "",
            f"{plan.threads} client threads for {plan.seconds:.0f} s (at most {plan.max_requests} requests, "
            f"{plan.max_uploads} uploads); {len(report.results)} requests in {report.elapsed:.1f} s = "
            f"{len(report.results) / report.elapsed:.1f} requests/s. {search_note}",
            "",
            "| kind | requests | per second | p50 (ms) | p99 (ms) | errors |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"Errors: {errors_text}. Error lines in the functions' logs: {logged_text}.",
            "",
            "Candidate outcomes of the post_answer turns: "
            + ", ".join(f"{name} {n}" for name, n in sorted(outcomes.items()))
            + ".",
            "",
            "Upload latency is the put_object call; their ingest ran behind it: "
            f"{report.documents_active} of {report.documents.expected} uploaded documents active "
            f"{report.ingest_seconds:.1f} s after the run ended, {report.dead_letters} dead letters.",
            "",
            _presence_line("candidates the API reported as stored", report.candidates),
            _presence_line("uploaded documents", report.documents),
            "",
            "Absolute figures are this machine's, with every function, the gateway and moto sharing one "
            "Python process.",
        ]
    )
    figures["candidates_exact"] = float(report.candidates.exact)
    figures["documents_exact"] = float(report.documents.exact)
    return Section("Load test of the local stack", body, figures)


if __name__ == "__main__":
    print(run("--quick" in sys.argv).body)
