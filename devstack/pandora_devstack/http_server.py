"""Serves an ApiGateway over plain HTTP on loopback with the standard library's threading server."""

import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pandora_devstack.messages import HttpRequest, HttpResponse

Dispatch = Callable[[HttpRequest], HttpResponse]
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _handler_class(dispatch: Dispatch, access_log: bool) -> type[BaseHTTPRequestHandler]:
    class ApiRequestHandler(BaseHTTPRequestHandler):
        server_version = "PandoraLocalApi"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = HttpRequest(
                method=self.command,
                raw_target=self.path,
                headers=tuple(self.headers.items()),
                body=self.rfile.read(length) if length else b"",
                source_ip=self.client_address[0],
            )
            response = dispatch(request)
            self.send_response(response.status)
            for name, value in response.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(response.body)

        def log_message(self, format: str, *args: object) -> None:
            if access_log:
                sys.stderr.write(f"[pandora-local] {self.address_string()} {format % args}\n")

    for method in METHODS:
        setattr(ApiRequestHandler, f"do_{method}", ApiRequestHandler._serve)
    return ApiRequestHandler


class ApiServer:
    """A ThreadingHTTPServer on its own thread; port 0 picks a free port."""

    def __init__(self, dispatch: Dispatch, host: str, port: int, access_log: bool = True) -> None:
        self._server = ThreadingHTTPServer((host, port), _handler_class(dispatch, access_log))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="pandora-local-api", daemon=True
        )

    @property
    def host(self) -> str:
        """`address:port` as clients put it in the Host header."""
        host, port = self._server.server_address[:2]
        return f"{host!s}:{port}"

    @property
    def url(self) -> str:
        return f"http://{self.host}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        # shutdown() waits for serve_forever to notice, so it would hang if the loop never started.
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()
