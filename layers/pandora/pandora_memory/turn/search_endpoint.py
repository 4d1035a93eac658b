"""`POST /api/memory/search`: the token's namespace check, one search, and its metrics.

The search service is the turn's own (one per container), so the pre_answer pack and this endpoint
share one warm index per namespace.
"""

import os
import time
from collections.abc import Callable

from aws_lambda_powertools import Logger

from pandora_memory.env_config import service_name
from pandora_memory.namespaces import Namespace
from pandora_memory.turn.auth import require_namespace
from pandora_memory.turn.metrics import TurnMetrics
from pandora_memory.turn.search_context import Searcher
from pandora_memory.turn.search_models import SearchRequest, SearchResponse, SearchResult

# Named explicitly: a child created before the environment is set would otherwise log nowhere.
logger = Logger(service=service_name(os.environ), child=True)
MARKDOWN_SUFFIX = ".md"


def logical_prefix(path_prefix: str | None, namespace: Namespace) -> str | None:
    """The logical path a user meant: a file name (`topics/home.md`) or an S3 key
    (`memory/real_life/topics`) both name the logical path `topics/home` / `topics`."""
    if path_prefix is None:
        return None
    upload_prefix = f"memory/{namespace.value}/"
    if path_prefix.startswith(upload_prefix):
        path_prefix = path_prefix[len(upload_prefix) :]
    if path_prefix.endswith(MARKDOWN_SUFFIX):
        path_prefix = path_prefix[: -len(MARKDOWN_SUFFIX)]
    return path_prefix or None


class SearchEndpoint:
    def __init__(
        self, search: Searcher, metrics: TurnMetrics, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self._search = search
        self._metrics = metrics
        self._clock = clock

    def run(self, request: SearchRequest, scope: frozenset[Namespace]) -> SearchResponse:
        require_namespace(request.namespace, scope)
        started = self._clock()
        try:
            found = self._search.search(
                request.namespace,
                request.query,
                limit=request.limit,
                path_prefix=logical_prefix(request.path_prefix, request.namespace),
            )
        finally:
            self._metrics.search_latency(milliseconds=(self._clock() - started) * 1000)
        results = [
            SearchResult(
                namespace=hit.namespace,
                logical_path=hit.logical_path,
                heading_path=list(hit.heading_path),
                text=hit.text,
                revision_id=hit.revision_id,
                score=round(hit.score, 4),
                kind="memory" if hit.kind == "memory" else "chunk",
            )
            for hit in found
            if hit.namespace is request.namespace  # the search checks it too; never hand out another's
        ]
        self._metrics.search_request(namespace=request.namespace.value, found=bool(results))
        # Sizes and paths only: the query is the user's text and may hold anything.
        logger.info(
            "memory searched",
            extra={
                "namespace": request.namespace.value,
                "query_chars": len(request.query),
                "limit": request.limit,
                "path_prefix": bool(request.path_prefix),
                "result_count": len(results),
            },
        )
        return SearchResponse(namespace=request.namespace, results=results)
