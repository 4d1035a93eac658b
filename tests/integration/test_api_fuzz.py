"""Schema-driven fuzzing of every API route on the local stack, with valid credentials and without.

The GPT Action is fuzzed from the published `openapi/gpt-action.json`; the IAM review API from the
schema its own resolver generates. Valid and invalid inputs (schemathesis' positive and negative
modes) must never get a 5xx, must get a documented status and body, and invalid input must be
refused. Unauthenticated calls, and calls with the other route kind's credentials, must be refused
by the gateway before any handler runs. Examples are bounded and derandomised so CI stays fast and
repeatable.
"""

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from integration.sigv4_requests import SigV4RequestsAuth
from pandora_devstack.stack import LocalStack
from pandora_memory.namespaces import Namespace
from pandora_memory.review.http import create_resolver
from pandora_memory.review.models import ErrorResponse, ManualAddResponse
from pandora_memory.settings import get_settings
from pandora_memory.storage.token_store import TokenStore
from pandora_memory.tokens import mint_token
from pydantic import BaseModel
from requests.structures import CaseInsensitiveDict
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import CheckFunction, not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from scoring import report

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
GPT_OPENAPI = REPO / "openapi" / "gpt-action.json"
COMPONENT_REF = "#/components/schemas/"
MAX_EXAMPLES = 50  # per operation and generation mode
SEEDED_EXAMPLES = 25  # per operation with a {candidate_id}: cases aimed at candidates that exist
REFUSAL_EXAMPLES = 10  # per operation and kind of missing or wrong credentials
TIMEOUT_SECONDS = 10
CHECKS: list[CheckFunction] = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
# The review API answers these with its ErrorResponse body; its generated schema lists only 200 and
# 422 (with Powertools' own validation body), and says 200 and a string where adding a memory
# answers 201 with a ManualAddResponse.
REVIEW_ERROR_STATUSES = ("400", "403", "404", "409", "415", "422", "503")
CREATED = {("post", "/api/memory/candidates"): ManualAddResponse}
GATEWAY_REFUSALS = {"bearer": 401, "iam": 403}

Operation = APIOperation[Any, Any, Any, Any]  # the schemathesis generics say nothing we use
FuzzCase = Case[Operation]

STATUSES: Counter[str] = Counter()


def _register(schema: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    """Adds the model (and the models it uses) to the schema's components; returns a $ref to it."""
    document = model.model_json_schema(ref_template=COMPONENT_REF + "{model}")
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(document.pop("$defs", {}))
    components[model.__name__] = document
    return {"$ref": COMPONENT_REF + model.__name__}


def _json_response(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def review_contract() -> dict[str, Any]:
    """The resolver's own schema with the error answers and success statuses the API really gives."""
    schema: dict[str, Any] = json.loads(create_resolver().get_openapi_json_schema())
    error = _register(schema, ErrorResponse)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            created = CREATED.get((method, path))
            if created is not None:
                del responses["200"]
                responses["201"] = _json_response("Created.", _register(schema, created))
            for status in REVIEW_ERROR_STATUSES:
                responses[status] = _json_response("Refused; nothing was changed.", error)
    return schema


GPT_SCHEMA = schemathesis.openapi.from_path(str(GPT_OPENAPI))
# Credentials are the tests' choice (valid, forged, missing), never generated from the security scheme.
GPT_SCHEMA.config.generation.update(with_security_parameters=False)
REVIEW_SCHEMA = schemathesis.openapi.from_dict(review_contract())


def _operations(schema: Any) -> list[Operation]:
    return [result.ok() for result in schema.get_all_operations()]


GPT_OPERATIONS = _operations(GPT_SCHEMA)
REVIEW_OPERATIONS = _operations(REVIEW_SCHEMA)
SEEDED_OPERATIONS = [op for op in REVIEW_OPERATIONS if "{candidate_id}" in op.path]


def _negatable(operation: Operation) -> bool:
    """A body or a query string can be made invalid; an unconstrained path segment alone cannot."""
    definition = operation.definition.raw
    return "requestBody" in definition or any(
        p.get("in") == "query" for p in definition.get("parameters", [])
    )


MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
GPT_CASES = [(op, mode) for op in GPT_OPERATIONS for mode in MODES]
REVIEW_CASES = [
    (op, mode)
    for op in REVIEW_OPERATIONS
    for mode in MODES
    if mode is GenerationMode.POSITIVE or _negatable(op)
]


def _label(operation: Operation) -> str:
    return f"{operation.method.upper()} {operation.path}"


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    get_settings.cache_clear()
    local = LocalStack(api_port=0, access_log=False)
    local.start()
    yield local
    local.stop()
    get_settings.cache_clear()
    report(
        "api fuzz: "
        + ", ".join(f"{key} x{count}" for key, count in sorted(STATUSES.items()))
        + f" ({sum(STATUSES.values())} requests)"
    )


@pytest.fixture(scope="module")
def bearer_token(stack: LocalStack) -> str:
    """One token for both namespaces, so valid bodies reach the handler whatever namespace they name."""
    store = TokenStore(stack.session().client("ssm", endpoint_url=stack.aws_endpoint), stack.info.tokens_path)
    minted = mint_token(list(Namespace), label="api fuzz")
    store.put(minted.record)
    return minted.token


@pytest.fixture(scope="module")
def iam_auth(stack: LocalStack) -> SigV4RequestsAuth:
    return SigV4RequestsAuth(stack.access_key_id, stack.secret_access_key, stack.region)


@pytest.fixture(scope="module")
def candidate_ids(stack: LocalStack, bearer_token: str) -> list[str]:
    """Pending candidates in both namespaces, for the fuzzed review actions to land on."""
    facts = {
        Namespace.REAL_LIFE: [
            "From now on, always send me the weekly report on Monday mornings.",
            "We decided to keep the staging database in eu-west-1 for good.",
        ],
        Namespace.AU: [
            "Canon for my story: Captain Vale never removes her silver compass.",
            "In my AU the Tide Court meets only under a new moon.",
        ],
    }
    ids: list[str] = []
    for namespace, messages in facts.items():
        for message in messages:
            response = requests.post(
                stack.api_url + "/api/memory/adaptive/turn",
                json={"namespace": namespace.value, "mode": "post_answer", "user_message": message},
                headers={"Authorization": f"Bearer {bearer_token}"},
                timeout=TIMEOUT_SECONDS,
            )
            assert response.status_code == 200, response.text
            preview = response.json()["candidate_preview"]
            assert preview is not None and preview["id"], message
            ids.append(preview["id"])
    return ids


def _settings(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def _without_credentials(case: FuzzCase) -> None:
    # The GPT schema declares bearer auth, so schemathesis may have generated a header itself.
    kept = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
    case.headers = CaseInsensitiveDict(kept)


def _call_and_validate(case: FuzzCase, stack: LocalStack, **kwargs: Any) -> None:
    response = case.call(base_url=stack.api_url, timeout=TIMEOUT_SECONDS, **kwargs)
    STATUSES[f"{case.operation.method.upper()} {response.status_code}"] += 1
    case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)


def _assert_refused(case: FuzzCase, stack: LocalStack, kind: str, **kwargs: Any) -> None:
    response = case.call(base_url=stack.api_url, timeout=TIMEOUT_SECONDS, **kwargs)
    STATUSES[f"refused {response.status_code}"] += 1
    assert response.status_code == GATEWAY_REFUSALS[kind], (case.as_curl_command(), response.text)
    # The gateway's own one-field body: no handler ran.
    assert set(response.json()) == {"message"}, response.text


def _case_id(case: tuple[Operation, GenerationMode]) -> str:
    return f"{_label(case[0])} {case[1].value}"


@pytest.mark.parametrize(("operation", "mode"), GPT_CASES, ids=[_case_id(c) for c in GPT_CASES])
def test_gpt_action_with_a_valid_token(
    stack: LocalStack, bearer_token: str, operation: Operation, mode: GenerationMode
) -> None:
    @_settings(MAX_EXAMPLES)
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: FuzzCase) -> None:
        _call_and_validate(case, stack, headers={"Authorization": f"Bearer {bearer_token}"})

    run()


@pytest.mark.parametrize(("operation", "mode"), REVIEW_CASES, ids=[_case_id(c) for c in REVIEW_CASES])
def test_review_api_signed(
    stack: LocalStack, iam_auth: SigV4RequestsAuth, operation: Operation, mode: GenerationMode
) -> None:
    @_settings(MAX_EXAMPLES)
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: FuzzCase) -> None:
        _call_and_validate(case, stack, auth=iam_auth)

    run()


@pytest.mark.parametrize("operation", SEEDED_OPERATIONS, ids=_label)
def test_review_actions_on_existing_candidates(
    stack: LocalStack, iam_auth: SigV4RequestsAuth, candidate_ids: list[str], operation: Operation
) -> None:
    @_settings(SEEDED_EXAMPLES)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        candidate_id = data.draw(st.sampled_from(candidate_ids))
        case = data.draw(operation.as_strategy(path_parameters={"candidate_id": candidate_id}))
        _call_and_validate(case, stack, auth=iam_auth)

    run()


@pytest.mark.parametrize("operation", GPT_OPERATIONS, ids=_label)
def test_gpt_action_refuses_calls_without_a_valid_token(
    stack: LocalStack, iam_auth: SigV4RequestsAuth, operation: Operation
) -> None:
    forged = "pm_" + "a" * 12 + "_" + "b" * 43

    @_settings(REFUSAL_EXAMPLES)
    @given(case=operation.as_strategy(), credentials=st.sampled_from(["none", "forged", "iam"]))
    def run(case: FuzzCase, credentials: str) -> None:
        _without_credentials(case)
        if credentials == "forged":
            _assert_refused(case, stack, "bearer", headers={"Authorization": f"Bearer {forged}"})
        elif credentials == "iam":
            _assert_refused(case, stack, "bearer", auth=iam_auth)
        else:
            _assert_refused(case, stack, "bearer")

    run()


@pytest.mark.parametrize("operation", REVIEW_OPERATIONS, ids=_label)
def test_review_api_refuses_calls_without_a_signature(
    stack: LocalStack, bearer_token: str, operation: Operation
) -> None:
    @_settings(REFUSAL_EXAMPLES)
    @given(case=operation.as_strategy(), bearer=st.booleans())
    def run(case: FuzzCase, bearer: bool) -> None:
        _without_credentials(case)
        headers = {"Authorization": f"Bearer {bearer_token}"} if bearer else {}
        _assert_refused(case, stack, "iam", headers=headers)

    run()


def test_every_template_route_is_fuzzed() -> None:
    from pandora_devstack.api_routes import read_routes
    from pandora_devstack.template import load_template

    routes = {(route.method.upper(), route.resource) for route in read_routes(load_template())}
    fuzzed = {
        (op.method.upper(), op.path.replace("{candidate_id}", "{id}"))
        for op in GPT_OPERATIONS + REVIEW_OPERATIONS
    }
    assert routes <= fuzzed, sorted(routes - fuzzed)


def test_the_review_contract_only_adds_to_the_generated_schema() -> None:
    generated = json.loads(create_resolver().get_openapi_json_schema())
    contract = copy.deepcopy(review_contract())
    assert contract["paths"].keys() == generated["paths"].keys()
    for path, operations in generated["paths"].items():
        for method, operation in operations.items():
            fixed = contract["paths"][path][method]
            assert fixed.get("requestBody") == operation.get("requestBody")
            assert fixed.get("parameters") == operation.get("parameters")
