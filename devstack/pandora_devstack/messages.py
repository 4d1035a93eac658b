"""The HTTP request and response the local API Gateway passes around, independent of sockets."""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class HttpRequest:
    method: str
    # Path and query exactly as they arrived on the request line (still percent-encoded).
    raw_target: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    source_ip: str = "127.0.0.1"

    @property
    def path(self) -> str:
        return urlsplit(self.raw_target).path or "/"

    @property
    def raw_query(self) -> str:
        return urlsplit(self.raw_target).query

    def header(self, name: str) -> str | None:
        """The last value of a header, case-insensitively (API Gateway's `headers` keeps the last)."""
        wanted = name.lower()
        found = None
        for key, value in self.headers:
            if key.lower() == wanted:
                found = value
        return found


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""


def json_response(
    status: int, document: object, headers: Iterable[tuple[str, str]] = (), error_type: str | None = None
) -> HttpResponse:
    """A JSON answer shaped like API Gateway's own errors (with `x-amzn-ErrorType` when given)."""
    all_headers = [("Content-Type", "application/json"), *headers]
    if error_type is not None:
        all_headers.append(("x-amzn-ErrorType", error_type))
    return HttpResponse(status, tuple(all_headers), json.dumps(document).encode("utf-8"))
