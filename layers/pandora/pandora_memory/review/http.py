"""The review API: IAM-only routes over the review service, with clean, non-echoing error bodies.

API Gateway's AWS_IAM authorization already refuses bearer tokens; the resolver checks again that
the request carries an IAM caller (defence in depth), before anything about the request is said.
"""

import re
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from pandora_memory.namespaces import Namespace
from pandora_memory.review.errors import ReviewError
from pandora_memory.review.models import (
    ApproveRequest,
    ApproveResponse,
    CandidateList,
    CandidateView,
    ErrorDetail,
    ErrorResponse,
    FeedbackSummaryResponse,
    ManualAddRequest,
    ManualAddResponse,
    MemoryView,
    RejectRequest,
    RejectResponse,
)
from pandora_memory.review.service import ApprovalEdits, ReviewService
from pandora_memory.storage.errors import StorageError, StorageUnavailableError
from pandora_memory.storage.records import InboxStatus

logger = Logger(child=True)

SERVICE_KEY = "review_service"
CANDIDATES_PATH = "/api/memory/candidates"
CANDIDATE_PATH = "/api/memory/candidates/<candidate_id>"
FEEDBACK_SUMMARY_PATH = "/api/memory/feedback/summary"
RETRY_AFTER_SECONDS = "1"
DEFAULT_PAGE = 20
MAX_PAGE = 100
DEFAULT_WINDOW_DAYS = 30

INVALID_JSON = "the body is not valid JSON"
_SAFE_FIELD = re.compile(r"^[A-Za-z0-9_]{1,64}$")


def iam_caller(event: Mapping[str, Any]) -> str | None:
    """The IAM principal API Gateway verified (user ARN, else access key id); None when absent."""
    context = event.get("requestContext")
    identity = context.get("identity") if isinstance(context, Mapping) else None
    if not isinstance(identity, Mapping):
        return None
    for field in ("userArn", "accessKey"):
        value = identity.get(field)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _error(status: HTTPStatus, error: str, reason: str, **extra: Any) -> Response[str]:
    headers = extra.pop("headers", None)
    body = ErrorResponse(error=error, reason=reason, **extra)
    return Response(
        status_code=status.value,
        content_type=content_types.APPLICATION_JSON,
        body=body.model_dump_json(exclude_none=True),
        headers=headers,
    )


def _forbidden() -> Response[str]:
    return _error(HTTPStatus.FORBIDDEN, "forbidden", "the review API accepts IAM-signed requests only")


def _field_name(loc: Sequence[Any]) -> str:
    parts = [str(part) for part in loc if part not in ("body", "query", "path") and not isinstance(part, int)]
    name = ".".join(parts) or "body"
    return name if all(_SAFE_FIELD.match(part) for part in parts) else "(unrecognised field)"


def _details(errors: Sequence[Mapping[str, Any]]) -> list[ErrorDetail]:
    """Field and message only: pydantic's `input` and `ctx` would echo what was sent."""
    details: list[ErrorDetail] = []
    for error in errors:
        kind = str(error.get("type", ""))
        if kind == "json_invalid":
            details.append(ErrorDetail(field="body", message=INVALID_JSON))
        elif kind == "extra_forbidden":
            # The name of an unknown field is the caller's text (it may be anything): never echoed.
            details.append(ErrorDetail(field="body", message="unknown field"))
        else:
            details.append(
                ErrorDetail(field=_field_name(error.get("loc", ())), message=str(error.get("msg", "")))
            )
    return details


def _json(status: HTTPStatus, body: Any) -> Response[str]:
    return Response(
        status_code=status.value, content_type=content_types.APPLICATION_JSON, body=body.model_dump_json()
    )


def create_resolver() -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)

    def service() -> ReviewService:
        found: ReviewService = app.context[SERVICE_KEY]
        return found

    def reviewer() -> str:
        caller = iam_caller(app.current_event.raw_event)
        if caller is None:  # the middleware already refused; this keeps the type honest
            raise PermissionError("no IAM caller")
        return caller

    def iam_only(resolver: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[Any]:
        if iam_caller(resolver.current_event.raw_event) is None:
            logger.warning("review refused: no IAM caller")
            return _forbidden()
        return next_middleware(resolver)

    app.use(middlewares=[iam_only])

    @app.get(CANDIDATES_PATH, operation_id="listCandidates", tags=["review"])
    def list_candidates(
        namespace: Annotated[Namespace, Query()],
        status: Annotated[InboxStatus, Query()] = InboxStatus.PENDING_REVIEW,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
        cursor: Annotated[str | None, Query(max_length=2048)] = None,
    ) -> CandidateList:
        page = service().list_candidates(namespace, status, limit, cursor)
        return CandidateList(candidates=[CandidateView.of(c) for c in page.candidates], cursor=page.cursor)

    @app.post(CANDIDATES_PATH, operation_id="addMemory", tags=["review"])
    def add_memory(request: Annotated[ManualAddRequest, Body()]) -> Response[str]:
        memory = service().add_memory(
            request.namespace, request.summary, request.memory_type, request.sensitivity, reviewer()
        )
        return _json(HTTPStatus.CREATED, ManualAddResponse(memory=MemoryView.of(memory)))

    @app.get(CANDIDATE_PATH, operation_id="getCandidate", tags=["review"])
    def get_candidate(candidate_id: str) -> CandidateView:
        return CandidateView.of(service().get_candidate(candidate_id))

    @app.post(f"{CANDIDATE_PATH}/approve", operation_id="approveCandidate", tags=["review"])
    def approve(
        candidate_id: str, request: Annotated[ApproveRequest | None, Body()] = None
    ) -> ApproveResponse:
        body = request or ApproveRequest()
        edits = ApprovalEdits(
            summary=body.summary,
            memory_type=body.memory_type,
            sensitivity=body.sensitivity,
            namespace=body.namespace,
        )
        approved = service().approve(candidate_id, edits, reviewer())
        return ApproveResponse(
            candidate=CandidateView.of(approved.candidate), memory=MemoryView.of(approved.memory)
        )

    @app.post(f"{CANDIDATE_PATH}/reject", operation_id="rejectCandidate", tags=["review"])
    def reject(candidate_id: str, request: Annotated[RejectRequest | None, Body()] = None) -> RejectResponse:
        note = request.reason if request else None
        return RejectResponse(candidate=CandidateView.of(service().reject(candidate_id, note, reviewer())))

    @app.get(FEEDBACK_SUMMARY_PATH, operation_id="feedbackSummary", tags=["feedback"])
    def feedback_summary(
        namespace: Annotated[Namespace | None, Query()] = None,
        days: Annotated[int, Query(ge=1, le=365)] = DEFAULT_WINDOW_DAYS,
    ) -> FeedbackSummaryResponse:
        namespaces = [namespace] if namespace else list(Namespace)
        figures = service().feedback_summary(namespaces, days)
        return FeedbackSummaryResponse.of(figures, namespaces, days)

    def invalid_request(error: RequestValidationError) -> Response[str]:
        if iam_caller(app.current_event.raw_event) is None:  # validation runs before the middleware
            return _forbidden()
        return _invalid_request(error)

    def undecodable_body(_: UnicodeDecodeError) -> Response[str]:
        if iam_caller(app.current_event.raw_event) is None:
            return _forbidden()
        return _error(HTTPStatus.BAD_REQUEST, "invalid_json", "the body is not UTF-8 JSON")

    # Registered by call: Powertools' decorator is untyped, and strict typing keeps these typed.
    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(UnicodeDecodeError)(undecodable_body)
    app.exception_handler(RequestUnsupportedContentType)(_unsupported_type)
    app.exception_handler(ReviewError)(_refused)
    app.exception_handler(StorageUnavailableError)(_unavailable)
    app.exception_handler(StorageError)(_storage_failed)
    app.exception_handler(Exception)(_unexpected)
    return app


def _invalid_request(error: RequestValidationError) -> Response[str]:
    details = _details(list(error.errors()))
    if any(detail.message == INVALID_JSON for detail in details):
        return _error(HTTPStatus.BAD_REQUEST, "invalid_json", INVALID_JSON, details=details)
    reason = "; ".join(f"{detail.field}: {detail.message}" for detail in details)
    return _error(HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_request", reason, details=details)


def _unsupported_type(_: RequestUnsupportedContentType) -> Response[str]:
    return _error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_content_type", "send the body as JSON")


def _refused(error: ReviewError) -> Response[str]:
    logger.info("review refused", extra={"error": error.code, "current_status": error.current_status})
    return _error(error.status, error.code, str(error), current_status=error.current_status)


def _unavailable(error: StorageUnavailableError) -> Response[str]:
    logger.warning("storage unavailable", extra={"operation": error.operation, "code": error.code})
    return _error(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "storage is busy; nothing was written, retry shortly",
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    )


def _storage_failed(error: StorageError) -> Response[str]:
    logger.error("storage failed", extra={"operation": error.operation, "code": error.code})
    return _error(HTTPStatus.INTERNAL_SERVER_ERROR, "storage_error", "storage failed")


def _unexpected(error: Exception) -> Response[str]:
    # The type only: messages of library errors can quote the data they choked on.
    logger.error("review failed", extra={"error_type": type(error).__name__})
    return _error(HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error", "the request could not be completed")
