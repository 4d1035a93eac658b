"""The committed GPT Action schema is valid OpenAPI 3.0, fits ChatGPT's limits and matches the code."""

import json
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
from pandora_memory.turn.openapi_export import DEFAULT_SERVER_URL, generate, main, render

COMMITTED = Path(__file__).resolve().parents[3] / "openapi" / "gpt-action.json"
REGENERATE = "python -m pandora_memory.turn.openapi_export --out openapi/gpt-action.json"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return generate()


def operations(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [operation for item in document["paths"].values() for operation in item.values()]


def test_committed_schema_matches_the_code() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == render(generate()), f"stale schema: run {REGENERATE}"


def test_schema_is_valid_openapi_30(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.0.")
    validate(document)
    assert "nullable" in json.dumps(document)  # optional fields use the 3.0 form
    assert '"type": "null"' not in json.dumps(document)


def test_validator_would_catch_a_broken_schema(document: dict[str, Any]) -> None:
    broken = json.loads(json.dumps(document))
    del broken["paths"]["/api/memory/adaptive/turn"]["post"]["responses"]
    with pytest.raises(OpenAPIValidationError):
        validate(broken)


def test_every_operation_fits_chatgpt_action_limits(document: dict[str, Any]) -> None:
    ids = [operation["operationId"] for operation in operations(document)]
    assert ids == ["adaptiveTurn", "searchMemory"]
    for operation in operations(document):
        assert 0 < len(operation["summary"]) < 300
        assert len(operation.get("description", "")) < 300
        assert operation["x-openai-isConsequential"] is False
    for schema in document["components"]["schemas"].values():
        for prop in schema.get("properties", {}).values():
            assert len(prop.get("description", "")) < 700
    assert len(document["info"]["description"]) < 300


def test_bearer_auth_applies_to_every_operation(document: dict[str, Any]) -> None:
    assert document["components"]["securitySchemes"] == {"bearerAuth": {"type": "http", "scheme": "bearer"}}
    assert document["security"] == [{"bearerAuth": []}]
    assert all("security" not in operation for operation in operations(document))


def test_request_schema_forbids_unknown_fields_and_bounds_text(document: dict[str, Any]) -> None:
    request = document["components"]["schemas"]["TurnRequest"]
    assert request["additionalProperties"] is False
    assert set(request["required"]) == {"namespace", "user_message", "mode"}
    assert request["properties"]["user_message"]["maxLength"] == 32_000


def test_search_request_bounds_the_query_limit_and_path(document: dict[str, Any]) -> None:
    search = document["paths"]["/api/memory/search"]["post"]
    assert search["operationId"] == "searchMemory" and search["x-openai-isConsequential"] is False
    request = document["components"]["schemas"]["SearchRequest"]
    assert request["additionalProperties"] is False
    assert set(request["required"]) == {"namespace", "query"}
    properties = request["properties"]
    assert (properties["query"]["minLength"], properties["query"]["maxLength"]) == (1, 2000)
    assert (properties["limit"]["minimum"], properties["limit"]["maximum"]) == (1, 20)
    prefix = properties["path_prefix"]
    assert prefix["maxLength"] == 256 and prefix["nullable"] is True and "pattern" in prefix
    result = document["components"]["schemas"]["SearchResult"]
    assert set(result["required"]) >= {
        "namespace",
        "logical_path",
        "heading_path",
        "text",
        "revision_id",
        "score",
    }
    assert result["properties"]["kind"]["enum"] == ["chunk", "memory"]


def test_error_responses_use_the_error_body(document: dict[str, Any]) -> None:
    for operation in operations(document):
        responses = operation["responses"]
        assert set(responses) == {"200", "400", "403", "422", "503"}
        for code in ("400", "403", "422", "503"):
            assert responses[code]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorResponse"
            }
    assert "HTTPValidationError" not in document["components"]["schemas"]


def test_cli_writes_the_schema_with_the_given_server(tmp_path: Path) -> None:
    out = tmp_path / "action.json"
    assert main(["--server-url", "https://api.example.test/dev", "--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["servers"] == [{"url": "https://api.example.test/dev"}]
    assert json.loads(COMMITTED.read_text(encoding="utf-8"))["servers"] == [{"url": DEFAULT_SERVER_URL}]
