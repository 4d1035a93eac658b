from typing import Any

import pytest
from pandora_memory.turn.openapi30 import OPENAPI_30_VERSION, downgrade_to_openapi_30


def document(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1", "summary": "3.1 only"},
        "paths": {
            "/x": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": schema}}},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
        "components": {"schemas": {"Model": schema}},
    }


def converted(schema: dict[str, Any]) -> dict[str, Any]:
    out = downgrade_to_openapi_30(document(schema))
    body = out["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == out["components"]["schemas"]["Model"]
    result: dict[str, Any] = body
    return result


def test_version_and_31_only_info_fields() -> None:
    out = downgrade_to_openapi_30(document({"type": "string"}))
    assert out["openapi"] == OPENAPI_30_VERSION
    assert "summary" not in out["info"]


def test_optional_scalar_becomes_nullable() -> None:
    schema = {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "description": "d"}
    assert converted(schema) == {"type": "string", "maxLength": 5, "description": "d", "nullable": True}


def test_optional_reference_is_wrapped_because_refs_take_no_siblings() -> None:
    schema = {"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "null"}], "description": "d"}
    assert converted(schema) == {
        "allOf": [{"$ref": "#/components/schemas/A"}],
        "description": "d",
        "nullable": True,
    }


def test_reference_with_siblings_is_wrapped() -> None:
    schema = {"$ref": "#/components/schemas/A", "description": "d"}
    assert converted(schema) == {"allOf": [{"$ref": "#/components/schemas/A"}], "description": "d"}


def test_nested_properties_const_examples_and_type_lists() -> None:
    schema = {
        "type": "object",
        "properties": {
            "kind": {"const": "x"},
            "n": {"type": ["integer", "null"], "exclusiveMinimum": 0, "examples": [3, 4]},
            "tags": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        },
    }
    props = converted(schema)["properties"]
    assert props["kind"] == {"enum": ["x"]}
    assert props["n"] == {
        "type": "integer",
        "nullable": True,
        "minimum": 0,
        "exclusiveMinimum": True,
        "example": 3,
    }
    assert props["tags"]["items"] == {"type": "string", "nullable": True}


def test_a_union_of_several_types_keeps_anyof_without_null() -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    assert converted(schema) == {"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": True}


def test_constructs_without_a_30_form_are_refused() -> None:
    with pytest.raises(ValueError, match="prefixItems"):
        downgrade_to_openapi_30(document({"type": "array", "prefixItems": [{"type": "string"}]}))
    with pytest.raises(ValueError, match=r"3\.1"):
        downgrade_to_openapi_30({"openapi": "3.0.3"})


def test_the_input_is_not_modified() -> None:
    original = document({"anyOf": [{"type": "string"}, {"type": "null"}]})
    downgrade_to_openapi_30(original)
    assert original["components"]["schemas"]["Model"]["anyOf"][1] == {"type": "null"}
