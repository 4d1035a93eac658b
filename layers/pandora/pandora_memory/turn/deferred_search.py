"""The turn's search stack, loaded and built when a turn first packs context or a search first runs.

A post_answer, or a pre_answer the retrieve policy answers without memory, never touches the search
index, its snapshot reader or the S3 client, so a container whose first requests are those does not
load them. Once built, the pack and the search endpoint share one index per namespace.
"""

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import RetrievalMode
from pandora_memory.turn.context_pack import ContextItem
from pandora_memory.turn.metrics import TurnMetrics
from pandora_memory.turn.search_models import SearchRequest, SearchResponse

if TYPE_CHECKING:
    from pandora_memory.search.reader import SearchService
    from pandora_memory.turn.memory_ledger import MemoryLedger
    from pandora_memory.turn.search_context import SearchContextSource
    from pandora_memory.turn.search_endpoint import SearchEndpoint

SearchBuilder = Callable[[], "tuple[SearchService, MemoryLedger]"]


class DeferredSearch:
    """A context source for the turn and the search route's endpoint, over one search built on demand."""

    def __init__(self, build: SearchBuilder, metrics: TurnMetrics) -> None:
        self._build = build
        self._metrics = metrics

    @cached_property
    def _search(self) -> "tuple[SearchService, MemoryLedger]":
        return self._build()

    @cached_property
    def _context(self) -> "SearchContextSource":
        from pandora_memory.turn.search_context import SearchContextSource

        return SearchContextSource(*self._search)

    @cached_property
    def _endpoint(self) -> "SearchEndpoint":
        from pandora_memory.turn.search_endpoint import SearchEndpoint

        return SearchEndpoint(self._search[0], self._metrics)

    @property
    def built(self) -> bool:
        return "_search" in self.__dict__

    def items(self, namespace: Namespace, query: str, mode: RetrievalMode) -> Sequence[ContextItem]:
        if mode is RetrievalMode.NONE:
            return []  # nothing to look up, so nothing to build
        return self._context.items(namespace, query, mode)

    def run(self, request: SearchRequest, scope: frozenset[Namespace]) -> SearchResponse:
        return self._endpoint.run(request, scope)
