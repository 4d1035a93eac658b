"""Rewrites the OpenAPI 3.1 document Powertools/pydantic emit into OpenAPI 3.0.x.

ChatGPT's Action editor documents 3.0 examples and has refused some 3.1 documents. Only the 3.1
constructs pydantic produces are handled; anything else unknown to 3.0 raises, so a new construct
cannot slip into the committed schema unnoticed.
"""

import copy
from typing import Any

OPENAPI_30_VERSION = "3.0.1"

# JSON Schema keywords of 3.1 with no 3.0 equivalent that pydantic could emit for our models.
_UNSUPPORTED = frozenset(
    {"prefixItems", "$defs", "contentMediaType", "contentEncoding", "if", "then", "else"}
)


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null" and len(schema) == 1


def _nullable(options: list[Any], rest: dict[str, Any]) -> dict[str, Any]:
    """anyOf [X, null] → X with nullable: true (a $ref cannot take siblings in 3.0, so it is wrapped)."""
    (only,) = options
    if "$ref" in only:
        return {"allOf": [only], **rest, "nullable": True}
    return {**only, **rest, "nullable": True}


def _convert_schema(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_convert_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bad = _UNSUPPORTED & schema.keys()
    if bad:
        raise ValueError(f"no OpenAPI 3.0 form for {sorted(bad)}")
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key == "examples" and isinstance(value, list):
            if value:
                out["example"] = _convert_schema(value[0])
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and not isinstance(value, bool):
            out["minimum" if key == "exclusiveMinimum" else "maximum"] = value
            out[key] = True
        elif key == "type" and isinstance(value, list):
            types = [t for t in value if t != "null"]
            if len(types) != 1:
                raise ValueError(f"no OpenAPI 3.0 form for type {value}")
            out["type"] = types[0]
            if "null" in value:
                out["nullable"] = True
        elif key in ("properties", "patternProperties"):
            out[key] = {name: _convert_schema(sub) for name, sub in value.items()}
        else:
            out[key] = _convert_schema(value)
    for union in ("anyOf", "oneOf"):
        options = out.get(union)
        if isinstance(options, list) and any(_is_null(option) for option in options):
            kept = [option for option in options if not _is_null(option)]
            rest = {k: v for k, v in out.items() if k != union}
            out = _nullable(kept, rest) if len(kept) == 1 else {**rest, union: kept, "nullable": True}
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out = {"allOf": [{"$ref": ref}], **out}
    return out


def _convert_document_node(node: Any, parent_key: str | None = None) -> Any:
    """Walks the document; every value under a `schema` key or in components.schemas is a JSON Schema."""
    if isinstance(node, list):
        return [_convert_document_node(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "schema":
            out[key] = _convert_schema(value)
        elif parent_key == "components" and key == "schemas":
            out[key] = {name: _convert_schema(sub) for name, sub in value.items()}
        else:
            out[key] = _convert_document_node(value, key)
    return out


def downgrade_to_openapi_30(document: dict[str, Any]) -> dict[str, Any]:
    if not str(document.get("openapi", "")).startswith("3.1"):
        raise ValueError("expected an OpenAPI 3.1 document")
    converted: dict[str, Any] = _convert_document_node(copy.deepcopy(document))
    converted["openapi"] = OPENAPI_30_VERSION
    for key in ("webhooks", "jsonSchemaDialect"):
        converted.pop(key, None)
    info = converted.get("info", {})
    info.pop("summary", None)  # 3.1 only
    info.get("license", {}).pop("identifier", None)
    return converted
