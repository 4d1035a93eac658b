"""The HTTP surface of the GPT Action: the turn and search routes, their OpenAPI text and clean errors.

Error bodies never echo request content: a rejected message may hold a secret.
"""

import os
import re
import traceback
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from pandora_memory.env_config import service_name
from pandora_memory.storage.errors import StorageError, StorageUnavailableError
from pandora_memory.turn.auth import AccessDeniedError, MissingAuthorizerContextError, token_scope
from pandora_memory.turn.models import ErrorDetail, ErrorResponse, TurnRequest, TurnResponse
from pandora_memory.turn.search_models import SearchRequest, SearchResponse
from pandora_memory.turn.service import TurnService

if TYPE_CHECKING:
    from pandora_memory.search.reader import NamespaceMismatchError, SearchUnavailableError
    from pandora_memory.turn.deferred_search import DeferredSearch

# Named explicitly: a child created before the environment is set would otherwise log nowhere.
logger = Logger(service=service_name(os.environ), child=True)

TURN_PATH = "/api/memory/adaptive/turn"
TURN_OPERATION_ID = "adaptiveTurn"
SEARCH_PATH = "/api/memory/search"
SEARCH_OPERATION_ID = "searchMemory"
SERVICE_KEY = "turn_service"
SEARCH_KEY = "search_endpoint"
RETRY_AFTER_SECONDS = "1"
INVALID_JSON = "the body is not valid JSON"
UNDECODABLE_BODY = "the body is not UTF-8 text"

TURN_SUMMARY = "Decide memory retrieval and capture for one chat turn"
TURN_DESCRIPTION = (
    "Call with mode=pre_answer before replying: returns memory context to use when the message needs it. "
    "Call with mode=post_answer after replying: a durable fact becomes a candidate for the user's review. "
    "Secrets are never stored."
)
SEARCH_SUMMARY = "Search the user's notes and approved memories"
SEARCH_DESCRIPTION = (
    "Ranked passages of the user's Markdown notes and approved memories in one namespace, best first, "
    "with path, headings and revision. Use it when the user asks to look something up in their notes."
)

_SAFE_FIELD = re.compile(r"^[A-Za-z0-9_]{1,64}$")


def _error_response(
    status: HTTPStatus,
    error: str | AccessDeniedError,
    reason: str = "",
    details: Sequence[ErrorDetail] = (),
    headers: Mapping[str, str] | None = None,
) -> Response[str]:
    if isinstance(error, AccessDeniedError):
        error, reason = error.code, str(error)
    body = ErrorResponse(error=error, reason=reason, details=list(details))
    return Response(
        status_code=status.value,
        content_type=content_types.APPLICATION_JSON,
        body=body.model_dump_json(),
        headers=dict(headers) if headers else None,
    )


def _field_name(loc: Sequence[Any]) -> str:
    parts = [str(part) for part in loc if part != "body" and not isinstance(part, int)]
    name = ".".join(parts) or "body"
    return name if all(_SAFE_FIELD.match(part) for part in parts) else "(unrecognised field)"


def validation_details(errors: Sequence[Mapping[str, Any]]) -> list[ErrorDetail]:
    """Field and message only; pydantic's `input` and `ctx` would echo the request."""
    details: list[ErrorDetail] = []
    for error in errors:
        kind = str(error.get("type", ""))
        if kind == "json_invalid":
            details.append(ErrorDetail(field="body", message=INVALID_JSON))
        elif kind == "extra_forbidden":
            details.append(ErrorDetail(field=_field_name(error.get("loc", ())), message="unknown field"))
        else:
            details.append(
                ErrorDetail(field=_field_name(error.get("loc", ())), message=str(error.get("msg", "")))
            )
    return details


def _responses(success: str, model: type[TurnResponse | SearchResponse]) -> dict[int, OpenAPIResponse]:
    return {
        code: {"description": text, "content": {content_types.APPLICATION_JSON: {"model": body}}}
        for code, text, body in (
            (200, success, model),
            (400, "The body is not valid JSON.", ErrorResponse),
            (
                403,
                "The token may not use this namespace, or no token scope reached the function.",
                ErrorResponse,
            ),
            (422, "The request does not match the schema; each wrong field is listed.", ErrorResponse),
            (503, "Storage is busy; nothing was written. Retry shortly.", ErrorResponse),
        )
    }


def create_resolver() -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)

    def _caller_is_authorised() -> bool:
        try:
            token_scope(app.current_event.raw_event.get("requestContext"))
        except AccessDeniedError:
            return False
        return True

    @app.post(
        TURN_PATH,
        operation_id=TURN_OPERATION_ID,
        summary=TURN_SUMMARY,
        description=TURN_DESCRIPTION,
        responses=_responses(
            "The decisions for this turn, with memory context and candidate preview.", TurnResponse
        ),
        tags=["memory"],
        # The pre/post calls run on every turn; a consequential action would make ChatGPT ask each time.
        # Writes only queue redacted candidates for review (or low-risk captures the user opted into).
        openapi_extensions={"x-openai-isConsequential": False},
    )
    def adaptive_turn(request: TurnRequest) -> TurnResponse:
        scope = token_scope(app.current_event.raw_event.get("requestContext"))
        service: TurnService = app.context[SERVICE_KEY]
        return service.run(request, scope)

    @app.post(
        SEARCH_PATH,
        operation_id=SEARCH_OPERATION_ID,
        summary=SEARCH_SUMMARY,
        description=SEARCH_DESCRIPTION,
        responses=_responses("The best matches, best first; empty when nothing matched.", SearchResponse),
        tags=["memory"],
        # A read of the user's own memory in a namespace the token allows: nothing to confirm.
        openapi_extensions={"x-openai-isConsequential": False},
    )
    def search_memory(request: SearchRequest) -> SearchResponse:
        scope = token_scope(app.current_event.raw_event.get("requestContext"))
        endpoint: DeferredSearch = app.context[SEARCH_KEY]
        return endpoint.run(request, scope)

    def invalid_request(error: RequestValidationError) -> Response[str]:
        # The token's scope is checked before anything is said about the body.
        if not _caller_is_authorised():
            return _error_response(HTTPStatus.FORBIDDEN, MissingAuthorizerContextError())
        return _invalid_request(error)

    def undecodable_body(_: UnicodeDecodeError) -> Response[str]:
        if not _caller_is_authorised():
            return _error_response(HTTPStatus.FORBIDDEN, MissingAuthorizerContextError())
        detail = ErrorDetail(field="body", message=UNDECODABLE_BODY)
        return _error_response(HTTPStatus.BAD_REQUEST, "invalid_json", UNDECODABLE_BODY, [detail])

    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(UnicodeDecodeError)(undecodable_body)
    app.exception_handler(RequestUnsupportedContentType)(_unsupported_type)
    app.exception_handler(AccessDeniedError)(_forbidden)
    app.exception_handler(StorageUnavailableError)(_unavailable)
    app.exception_handler(StorageError)(_storage_failed)
    app.exception_handler(Exception)(_unexpected)
    return app


def _invalid_request(error: RequestValidationError) -> Response[str]:
    details = validation_details(list(error.errors()))
    if any(detail.message == INVALID_JSON for detail in details):
        return _error_response(HTTPStatus.BAD_REQUEST, "invalid_json", INVALID_JSON, details)
    reason = "; ".join(f"{detail.field}: {detail.message}" for detail in details)
    return _error_response(HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_request", reason, details)


def _unsupported_type(_: RequestUnsupportedContentType) -> Response[str]:
    return _error_response(
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_content_type", "send the body as application/json"
    )


def _forbidden(error: AccessDeniedError) -> Response[str]:
    logger.warning("request refused", extra={"error": error.code})
    return _error_response(HTTPStatus.FORBIDDEN, error)


def _unavailable(error: StorageUnavailableError) -> Response[str]:
    logger.warning("storage unavailable", extra={"operation": error.operation, "code": error.code})
    return _unavailable_response()


def _unavailable_response() -> Response[str]:
    return _error_response(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "memory storage is busy; nothing was written, retry shortly",
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    )


def _search_failure(error: Exception) -> Response[str] | None:
    """The search stack's own errors. They are told apart here rather than registered with the resolver,
    which would load the whole stack with this module; a search error means the stack is loaded."""
    from pandora_memory.search.reader import NamespaceMismatchError, SearchUnavailableError

    if isinstance(error, SearchUnavailableError):
        return _search_unavailable(error)
    if isinstance(error, NamespaceMismatchError):
        return _namespace_mismatch(error)
    return None


def _search_unavailable(error: "SearchUnavailableError") -> Response[str]:
    logger.warning("search unavailable", extra={"step": error.step, "error": str(error)})
    return _unavailable_response()


def _namespace_mismatch(error: "NamespaceMismatchError") -> Response[str]:
    # Stored data of one namespace named another: refused whole, and loud, rather than served.
    logger.error("namespace mismatch in stored search data", extra={"error": str(error)})
    return _error_response(HTTPStatus.INTERNAL_SERVER_ERROR, "storage_error", "memory storage failed")


def _storage_failed(error: StorageError) -> Response[str]:
    logger.error("storage failed", extra={"operation": error.operation, "code": error.code})
    return _error_response(HTTPStatus.INTERNAL_SERVER_ERROR, "storage_error", "memory storage failed")


def _unexpected(error: Exception) -> Response[str]:
    search_failure = _search_failure(error)
    if search_failure is not None:
        return search_failure
    # Type and place only: messages of library errors can quote the data they choked on.
    frames = traceback.extract_tb(error.__traceback__)
    place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "unknown"
    logger.error("request failed", extra={"error_type": type(error).__name__, "error_at": place})
    return _error_response(
        HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error", "the request could not be answered"
    )
