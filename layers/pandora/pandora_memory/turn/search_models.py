"""Request and response of `POST /api/memory/search`, the GPT Action's search (text feeds the OpenAPI)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from pandora_memory.namespaces import Namespace

MAX_QUERY_CHARS = 2000
MAX_LIMIT = 20
DEFAULT_LIMIT = 5
MAX_PATH_PREFIX_CHARS = 256

# Runs of characters without a dot, each ending in one dot: a path that never holds "..", no control
# character and no backslash. Written without look-ahead (pydantic's regex engine has none) and without
# ambiguous repetition (linear to match in any engine).
_SEGMENT = r"[^.\x00-\x1f\x7f\\]"
PATH_PREFIX_PATTERN = rf"^\.?(?:{_SEGMENT}+\.)*{_SEGMENT}*$"


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace: Namespace = Field(
        description="Memory world to search: real_life, or au for the fiction universe. Never mixed."
    )
    query: str = Field(
        min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for, in the user's words."
    )
    # Strict: JSON `true` is not the number 1 (the schema says integer, so the API must refuse it).
    limit: StrictInt = Field(default=DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="Most results to return.")
    path_prefix: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_PATH_PREFIX_CHARS,
        pattern=PATH_PREFIX_PATTERN,
        description="Only notes under this path: `projects/` a folder, `projects/plan` one file, "
        "`memory/` approved memories only.",
    )


class SearchResult(BaseModel):
    namespace: Namespace
    logical_path: str = Field(description="The note's path (without .md), or memory/<type> for a memory.")
    heading_path: list[str] = Field(description="Headings above the passage, outermost first.")
    text: str = Field(description="The passage (redacted when stored).")
    revision_id: str = Field(description="The note revision (path#hash) or the memory id it comes from.")
    score: float = Field(ge=0.0, description="Relevance; higher is better. Comparable within one answer.")
    kind: Literal["chunk", "memory"] = Field(description="chunk: a passage of a note; memory: a memory.")


class SearchResponse(BaseModel):
    ok: bool = True
    namespace: Namespace
    results: list[SearchResult] = Field(description="Best matches first; empty when nothing matched.")
