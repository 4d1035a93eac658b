"""Review refusals, each with its HTTP status and a machine-readable code. No request text inside."""

from http import HTTPStatus


class ReviewError(Exception):
    status = HTTPStatus.BAD_REQUEST
    code = "review_error"
    current_status: str | None = None


class InvalidCandidateIdError(ReviewError):
    code = "invalid_candidate_id"

    def __init__(self) -> None:
        super().__init__("a candidate id is <namespace>.<64 hex characters>, as the inbox lists it")


class InvalidCursorError(ReviewError):
    code = "invalid_cursor"

    def __init__(self) -> None:
        super().__init__("the cursor is not one this listing returned; start again without it")


class CandidateNotFoundError(ReviewError):
    status = HTTPStatus.NOT_FOUND
    code = "candidate_not_found"

    def __init__(self) -> None:
        super().__init__("no candidate with this id")


class StatusConflictError(ReviewError):
    """The candidate is no longer (or never was) waiting for review."""

    status = HTTPStatus.CONFLICT
    code = "status_conflict"

    def __init__(self, current_status: str) -> None:
        super().__init__(f"the candidate is {current_status}; only a pending candidate can be reviewed")
        self.current_status = current_status


class EditRequiredError(ReviewError):
    status = HTTPStatus.CONFLICT
    code = "edited_summary_required"

    def __init__(self, current_status: str) -> None:
        super().__init__(
            "this candidate held a secret: approve it only with an edited summary that leaves it out"
        )
        self.current_status = current_status


class DuplicateMemoryError(ReviewError):
    status = HTTPStatus.CONFLICT
    code = "memory_exists"

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"the same memory is already stored as {memory_id}")
        self.memory_id = memory_id


class SecretInSummaryError(ReviewError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "secret_in_summary"

    def __init__(self, kinds: list[str]) -> None:
        named = ", ".join(kinds) or "credential"
        super().__init__(f"the summary holds a secret ({named}); nothing was stored. Leave it out and retry")
        self.kinds = kinds


class InvalidEditError(ReviewError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "invalid_edit"
