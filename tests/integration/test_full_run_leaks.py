"""A full mixed run through the local stack, then a search of everything it left for any secret.

The run: bearer-token turns (pre_answer and post_answer) in both namespaces carrying every fake secret
of the test corpora; Markdown uploads with secrets through the local bucket (create, update, delete),
delivered to the ingest function by the stack's S3 events; IAM-signed review actions (list, approve
with an edited summary, reject with a note, add by hand, feedback summary). Then nothing may hold a
secret value: no DynamoDB item of any table, no S3 object version (the user's own uploads under
memory/ excepted), no queued message or SSM parameter, no line written to stdout or stderr or through
logging, no metric, no HTTP response body. Storage must also keep the namespaces apart: every
partition key is a namespace, and each namespace's marker word stays under its own key.
"""

import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from integration.leaks.capture import CapturedOutput, captured_output
from integration.leaks.corpus import SecretLine, all_secret_lines, leak_corpus_lines
from integration.leaks.scanner import Haystack, HuntedValue, hunt, hunted_globally, whole_word
from integration.leaks.storage import (
    StoredText,
    dynamodb_items,
    queued_messages,
    s3_objects,
    ssm_parameters,
)
from pandora_devstack.observability.console import METRICS_PATH
from pandora_devstack.s3_events import S3EventBridge
from pandora_devstack.stack import LocalStack
from pandora_memory.cli.review_api import ApiTarget, ReviewApi, ReviewApiError, SigningKeys
from pandora_memory.namespaces import Namespace
from pandora_memory.settings import get_settings
from scoring import SHARED_EVAL, report

pytestmark = pytest.mark.integration

TURN = "/api/memory/adaptive/turn"
SEARCH = "/api/memory/search"
UPLOADS = "memory/"
TIMEOUT_SECONDS = 15
INGEST_TIMEOUT_SECONDS = 30
WORKERS = 4
# One word per namespace, written into everything sent to it, never into the other.
MARKERS = {Namespace.REAL_LIFE: "zephyrine", Namespace.AU: "thalassor"}
CLEAN_FACTS = {
    Namespace.REAL_LIFE: [
        "From now on, always file the zephyrine invoices under Finance/2026.",
        "We decided the zephyrine release ships every second Tuesday.",
        "Remember that the zephyrine backups run at 02:00 UTC from now on.",
        "I decided to keep the zephyrine staging cluster in eu-west-1 for good.",
    ],
    Namespace.AU: [
        "Canon for my story: the thalassor fleet always sails at dawn from Greyhollow.",
        "In my AU, the thalassor banner is sea-green with a silver tide mark.",
        "Canon: Riven learned the thalassor tongue from his mother, never from books.",
        "For my story, the thalassor archive floods every spring tide.",
    ],
}
QUESTIONS = {
    Namespace.REAL_LIFE: "What do my zephyrine deploy notes say about the database and the tokens?",
    Namespace.AU: "Remind me what the thalassor vault chapter says about the keys Kael found.",
}
SEARCHES = {
    Namespace.REAL_LIFE: ["zephyrine credentials", "database password token", "deploy notes"],
    Namespace.AU: ["thalassor vault", "keys Kael terminal", "credentials"],
}
# A review call names its namespace in the query (listing) or in the candidate id (actions).
_NAMESPACE_IN_PATH = re.compile(r"[?&]namespace=(real_life|au)\b|/candidates/(real_life|au)\.")
FACT_TYPES = {Namespace.REAL_LIFE: "project_decision", Namespace.AU: "au_canon"}


@dataclass(frozen=True)
class Answer:
    what: str
    namespace: Namespace | None
    status: int
    body: str


@dataclass
class Run:
    lines: list[SecretLine]
    captured: CapturedOutput
    answers: list[Answer] = field(default_factory=list)
    turn_answers: dict[str, list[Answer]] = field(default_factory=dict)
    turn_candidates: dict[str, list[str]] = field(default_factory=dict)
    items: list[tuple[str, StoredText]] = field(default_factory=list)
    objects: list[StoredText] = field(default_factory=list)
    uploads: list[StoredText] = field(default_factory=list)
    others: list[StoredText] = field(default_factory=list)
    metrics_document: str = ""
    table_names: set[str] = field(default_factory=set)
    review_refusals: list[str] = field(default_factory=list)
    search_hits: int = 0
    dead_letters: int = 0


# -- the run -----------------------------------------------------------------------------------------
class Client:
    """Every call of the run, with each answer kept for the scan."""

    def __init__(self, stack: LocalStack, run: Run) -> None:
        self.stack = stack
        self.run = run
        self.http = requests.Session()
        self.http.hooks["response"].append(self._record)

    def _record(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        path = response.request.path_url
        named = _NAMESPACE_IN_PATH.search(path)
        namespace = Namespace(named.group(1) or named.group(2)) if named else None
        self.run.answers.append(Answer(path, namespace, response.status_code, response.text))

    def turn(self, line_id: str, namespace: Namespace, mode: str, fields: dict[str, str]) -> dict[str, Any]:
        token = self.stack.info.tokens[namespace.value]
        response = requests.post(
            self.stack.api_url + TURN,
            json={"namespace": namespace.value, "mode": mode, **fields},
            headers={"Authorization": f"Bearer {token}"},
            timeout=TIMEOUT_SECONDS,
        )
        answer = Answer(f"turn {mode} {line_id}", namespace, response.status_code, response.text)
        self.run.answers.append(answer)
        self.run.turn_answers.setdefault(line_id, []).append(answer)
        assert response.status_code == 200, (line_id, mode, response.status_code)
        document: dict[str, Any] = response.json()
        preview = document.get("candidate_preview") or {}
        if preview.get("id"):
            self.run.turn_candidates.setdefault(line_id, []).append(str(preview["id"]))
        return document

    def search(self, namespace: Namespace, query: str) -> None:
        token = self.stack.info.tokens[namespace.value]
        response = requests.post(
            self.stack.api_url + SEARCH,
            json={"namespace": namespace.value, "query": query},
            headers={"Authorization": f"Bearer {token}"},
            timeout=TIMEOUT_SECONDS,
        )
        self.run.answers.append(Answer(f"search {query!r}", namespace, response.status_code, response.text))
        assert response.status_code == 200, (query, response.status_code)
        self.run.search_hits += len(response.json().get("results", []))

    def review(self) -> ReviewApi:
        info = self.stack.info
        target = ApiTarget(info.api_url, info.region, SigningKeys(info.access_key_id, info.secret_access_key))
        return ReviewApi(target, session=self.http)


def _marked(line: SecretLine) -> dict[str, str]:
    """The line's fields, tagged with its namespace's marker; a message is never empty."""
    marker = MARKERS[line.namespace]
    fields = dict(line.fields)
    fields["user_message"] = fields.get("user_message", f"Noted for the {marker} file.") + f"\n({marker})"
    return fields


def _send_turns(client: Client, lines: list[SecretLine]) -> None:
    def send(line: SecretLine) -> None:
        fields = _marked(line)
        client.turn(line.source, line.namespace, "pre_answer", fields)
        client.turn(line.source, line.namespace, "post_answer", fields)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        list(pool.map(send, lines))
    for namespace, facts in CLEAN_FACTS.items():
        for number, fact in enumerate(facts):
            client.turn(f"fact-{namespace.value}-{number}", namespace, "post_answer", {"user_message": fact})


def _markdown(title: str, marker: str, lines: list[SecretLine]) -> bytes:
    sections = [f"# {title} ({marker})", ""]
    for line in lines:
        text = next(iter(line.fields.values()))
        sections += [f"## Note {line.source} for {marker}", "", text, ""]
    return "\n".join(sections).encode("utf-8")


@dataclass(frozen=True)
class Upload:
    namespace: Namespace
    logical_path: str
    body: bytes

    @property
    def key(self) -> str:
        return f"{UPLOADS}{self.namespace.value}/{self.logical_path}.md"


def _uploads(lines: list[SecretLine]) -> tuple[list[Upload], list[Upload], list[Upload]]:
    """First versions, second versions (an update with other secrets), and documents to delete."""
    by_namespace = {ns: [line for line in lines if line.namespace is ns] for ns in Namespace}
    first, second, doomed = [], [], []
    for namespace, own in by_namespace.items():
        marker = MARKERS[namespace]
        half = len(own) // 2
        first.append(Upload(namespace, "notes/credentials", _markdown("Credentials", marker, own[:half])))
        second.append(Upload(namespace, "notes/credentials", _markdown("Credentials", marker, own[half:])))
        first.append(Upload(namespace, "notes/deploy", _markdown("Deploy notes", marker, own[half:])))
        doomed.append(Upload(namespace, "scratch/paste", _markdown("Scratch", marker, own[:2])))
    return first, second, doomed


def _document(stack: LocalStack, namespace: Namespace, logical_path: str) -> dict[str, Any]:
    client = stack.session().client("dynamodb", endpoint_url=stack.aws_endpoint)
    item = client.get_item(
        TableName=stack.info.table_names["DocumentsTable"],
        Key={"namespace": {"S": namespace.value}, "logical_path": {"S": logical_path}},
        ConsistentRead=True,
    ).get("Item", {})
    return {key: next(iter(value.values())) for key, value in item.items()}


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + INGEST_TIMEOUT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _revision(stack: LocalStack, upload: Upload) -> str:
    return str(_document(stack, upload.namespace, upload.logical_path).get("current_revision", ""))


def _ingested(stack: LocalStack, upload: Upload, previous_revision: str) -> Callable[[], bool]:
    def check() -> bool:
        document = _document(stack, upload.namespace, upload.logical_path)
        return (
            document.get("projection_status") == "active"
            and str(document.get("current_revision", "")) != previous_revision
        )

    return check


def _tombstoned(stack: LocalStack, upload: Upload) -> Callable[[], bool]:
    def check() -> bool:
        return _document(stack, upload.namespace, upload.logical_path).get("tombstoned") is True

    return check


def _ingest(stack: LocalStack, lines: list[SecretLine]) -> None:
    """Uploads, then an update of one document per namespace, then deletes; each waited for."""
    s3 = stack.session().client("s3", endpoint_url=stack.aws_endpoint)
    first, second, doomed = _uploads(lines)
    for batch in (first + doomed, second):
        previous = [_revision(stack, upload) for upload in batch]
        for upload in batch:
            s3.put_object(Bucket=stack.info.bucket, Key=upload.key, Body=upload.body)
        for upload, revision in zip(batch, previous, strict=True):
            _wait_until(_ingested(stack, upload, revision), f"{upload.key} to be ingested")
    for upload in doomed:
        s3.delete_object(Bucket=stack.info.bucket, Key=upload.key)
        _wait_until(_tombstoned(stack, upload), f"{upload.key} to be tombstoned")


def _attempt(run: Run, action: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    try:
        action(*args, **kwargs)
    except ReviewApiError as error:  # a refusal is an acceptable outcome; a leak is not
        run.review_refusals.append(f"{error.status} {error.code}")


def _review_namespace(api: ReviewApi, run: Run, namespace: Namespace) -> None:
    """Reviewer edits that carry a secret, and ones that do not, on candidates of one namespace."""
    marker, memory_type = MARKERS[namespace], FACT_TYPES[namespace]
    own = [line for line in leak_corpus_lines() if line.namespace is namespace]
    secret_value, secret_text = own[0].declared[0], next(iter(own[1].fields.values()))
    pending = api.list_candidates(namespace.value, "pending_review", limit=100)["candidates"]
    blocked = api.list_candidates(namespace.value, "blocked_secret", limit=100)["candidates"]
    assert len(pending) >= 3 and blocked, (namespace, len(pending), len(blocked))
    _attempt(run, api.get, pending[0]["id"])
    _attempt(run, api.approve, pending[0]["id"], summary=f"The {marker} runbook uses {secret_value}")
    _attempt(run, api.approve, pending[1]["id"], summary=f"The {marker} team keeps the runbook current.")
    _attempt(run, api.reject, pending[2]["id"], reason=f"not durable; it held {secret_value}")
    _attempt(
        run,
        api.approve,
        blocked[0]["id"],
        summary=f"A credential for the {marker} work was rotated.",
        memory_type=memory_type,
    )
    _attempt(run, api.add, namespace.value, f"{marker} note: {secret_text}", memory_type, None)


def _review(client: Client, run: Run) -> None:
    api = client.review()
    for namespace in Namespace:
        _review_namespace(api, run, namespace)
    _attempt(run, api.feedback_summary, None, 30)


def _ask(client: Client) -> None:
    for namespace, question in QUESTIONS.items():
        client.turn(f"question-{namespace.value}", namespace, "pre_answer", {"user_message": question})
    for namespace, queries in SEARCHES.items():
        for query in queries:
            client.search(namespace, query)


def _collect(stack: LocalStack, run: Run) -> None:
    session, endpoint = stack.session(), stack.aws_endpoint
    run.items = list(dynamodb_items(session, endpoint))
    objects = list(s3_objects(session, endpoint, stack.info.bucket))
    run.objects = [stored for stored in objects if not stored.where.startswith(f"s3:{UPLOADS}")]
    run.uploads = [stored for stored in objects if stored.where.startswith(f"s3:{UPLOADS}")]
    run.others = [*queued_messages(session, endpoint), *ssm_parameters(session, endpoint)]
    run.table_names = {table for table, _ in run.items} | set(
        session.client("dynamodb", endpoint_url=endpoint).list_tables()["TableNames"]
    )
    metrics = requests.get(stack.api_url + METRICS_PATH, timeout=TIMEOUT_SECONDS)
    assert metrics.status_code == 200
    run.metrics_document = metrics.text


@pytest.fixture(scope="module")
def run() -> Iterator[Run]:
    lines = all_secret_lines(SHARED_EVAL)
    with captured_output() as captured:
        result = Run(lines=lines, captured=captured)
        get_settings.cache_clear()
        bridge = S3EventBridge()
        stack = LocalStack(api_port=0, access_log=False, background_tasks=[bridge])
        stack.start()
        try:
            client = Client(stack, result)
            _send_turns(client, lines)
            _ingest(stack, [line for line in lines if line.declared])
            _review(client, result)
            _ask(client)
            _collect(stack, result)
            result.dead_letters = len(bridge.dead_letters)
        finally:
            stack.stop()
            get_settings.cache_clear()
    yield result


# -- what is searched ----------------------------------------------------------------------------------
def _global_values(lines: list[SecretLine]) -> list[HuntedValue]:
    hunted: list[HuntedValue] = []
    for line in lines:
        for kind, values in (
            ("declared", line.declared),
            ("detected", line.detected),
            ("suspected", line.suspected),
        ):
            hunted += [HuntedValue(line.source, kind, value) for value in values if hunted_globally(value)]
    return hunted


def _surfaces(run: Run) -> dict[str, list[tuple[str, str]]]:
    return {
        "dynamodb": [(item.where, item.text) for _, item in run.items],
        "s3": [(stored.where, stored.text) for stored in run.objects],
        "queues and parameters": [(stored.where, stored.text) for stored in run.others],
        "logs": [(f"log line {n}", line) for n, line in enumerate(run.captured.lines())],
        "metrics": [(METRICS_PATH, run.metrics_document)]
        + [(f"EMF line {n}", line) for n, line in enumerate(run.captured.lines()) if '"_aws"' in line],
        "responses": [(answer.what, answer.body) for answer in run.answers],
    }


SURFACES = ["dynamodb", "s3", "queues and parameters", "logs", "metrics", "responses"]


@pytest.mark.parametrize("surface", SURFACES)
def test_no_secret_value_is_stored_logged_or_returned(run: Run, surface: str) -> None:
    haystack = Haystack(_surfaces(run)[surface])
    values = _global_values(run.lines)
    findings = hunt(values, haystack)
    report(
        f"leak scan {surface}: {haystack.count} texts ({haystack.characters} chars), "
        f"{len(values)} values, {len(findings)} findings"
    )
    assert haystack.count > 0
    assert findings == [], "\n".join(str(finding) for finding in findings[:40])


def test_the_scan_finds_the_secrets_in_the_users_own_uploads(run: Run) -> None:
    """The control: the same hunt over the raw uploads (left out above) finds every secret put there."""
    haystack = Haystack([(stored.where, stored.text) for stored in run.uploads])
    uploaded = [
        HuntedValue(line.source, "declared", value)
        for line in run.lines
        for value in line.declared
        if any(value in stored.text for stored in run.uploads)
    ]
    found = {finding.source for finding in hunt(uploaded, haystack)}
    assert len(uploaded) >= 30
    assert found == {hunted.source for hunted in uploaded}


def test_short_secret_values_stay_out_of_their_own_turns(run: Run) -> None:
    items = {str(item.item.get("content_hash")): item.text for _, item in run.items if item.item}
    leaks: list[str] = []
    checked = 0
    for line in run.lines:
        short = [value for value in line.detected + line.declared if not hunted_globally(value)]
        texts = [answer.body for answer in run.turn_answers.get(line.source, [])]
        texts += [items.get(cid.partition(".")[2], "") for cid in run.turn_candidates.get(line.source, [])]
        for value in short:
            checked += 1
            if any(whole_word(value).search(text) for text in texts):
                leaks.append(f"{line.source}: a short value ({len(value)} chars) came back or was stored")
    report(f"leak scan short values (PINs, codes): {checked} checked in their own turns")
    assert checked > 0
    assert leaks == []


def test_every_partition_key_is_a_namespace(run: Run) -> None:
    keys = {item.namespace_key for _, item in run.items}
    assert keys == {Namespace.REAL_LIFE.value, Namespace.AU.value}


def _other(namespace: str) -> Namespace:
    return Namespace.AU if namespace == Namespace.REAL_LIFE.value else Namespace.REAL_LIFE


def test_no_namespace_content_crosses_into_the_other(run: Run) -> None:
    crossings = [
        f"{item.where} under {item.namespace_key} holds the {_other(str(item.namespace_key)).value} marker"
        for _, item in run.items
        if MARKERS[_other(str(item.namespace_key))] in item.text
    ]
    for stored in run.objects:
        namespace = re.match(r"s3:[a-z]+/(real_life|au)/", stored.where)
        assert namespace is not None, stored.where  # every derived object sits under its namespace
        if MARKERS[_other(namespace.group(1))] in stored.text:
            crossings.append(f"{stored.where} holds the other namespace's marker")
    for answer in run.answers:
        if answer.namespace is not None and MARKERS[_other(answer.namespace.value)] in answer.body:
            crossings.append(f"the answer to {answer.what} holds the other namespace's marker")
    assert crossings == []


def test_the_run_reached_every_store_it_scans(run: Run) -> None:
    """The scans above mean something only if the run wrote where they look."""
    by_table: dict[str, set[str]] = {}
    for table, item in run.items:
        if MARKERS[Namespace(str(item.namespace_key))] in item.text:
            by_table.setdefault(table, set()).add(str(item.namespace_key))
    # Documents and projections hold paths, hashes and generations only: no marker to find there.
    for table in ("candidates", "memory-events", "chunks"):
        owners = next((ns for name, ns in by_table.items() if name.endswith(table)), set())
        assert owners == {ns.value for ns in Namespace}, (table, owners)
    assert {table.rsplit("-memory-", 1)[-1] for table, _ in run.items} >= {
        "capture-candidates",
        "events",
        "documents",
        "revisions",
        "chunks",
        "projections",
        "feedback-events",
    }
    kinds = {stored.where.split("/", 1)[0] for stored in run.objects}
    assert kinds == {"s3:revisions", "s3:projections"}, kinds
    assert any('"_aws"' in line for line in run.captured.lines())
    assert run.dead_letters == 0
    assert run.search_hits > 0
    statuses = [answer.status for answer in run.answers]
    assert all(status < 500 for status in statuses)
    values = sum(len(line.values) for line in run.lines)
    declared = sum(bool(line.declared) for line in run.lines)
    report(
        f"leak scan run: {len(run.lines)} secret lines ({values} values, {declared} declared), "
        f"{len(run.answers)} HTTP answers, "
        f"{len(run.items)} items in {len(run.table_names)} tables, {len(run.objects)} S3 object versions, "
        f"{len(run.captured.lines())} log lines, {run.search_hits} search hits, "
        f"review refusals {sorted(run.review_refusals)}"
    )
