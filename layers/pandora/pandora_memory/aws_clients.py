"""boto3 clients for the functions: one timeout policy, and a client built only when a request uses it.

Creating a client loads its service model and endpoint rules (tens of milliseconds each); a request
that never reaches a service (a turn that loads no search snapshot never reads S3) should not pay
for it. Clients come from the default session, so AWS_ENDPOINT_URL can point them at a local
emulator without the code knowing.
"""

from typing import Any

import boto3
from botocore.config import Config

# Fail fast inside the 10 s function timeout; the API answers 503 and the caller retries.
FAIL_FAST = Config(connect_timeout=2, read_timeout=3, retries={"mode": "standard", "max_attempts": 3})


class ClientOnFirstUse:
    """Stands in for a boto3 client and creates it at the first attribute a caller reads."""

    def __init__(self, service: str, config: Config = FAIL_FAST) -> None:
        self._service = service
        self._config = config
        self._client: Any = None

    @property
    def created(self) -> bool:
        return self._client is not None

    def __getattr__(self, name: str) -> Any:
        if self._client is None:
            self._client = boto3.client(self._service, config=self._config)  # type: ignore[call-overload]
        return getattr(self._client, name)


def client(service: str, config: Config = FAIL_FAST) -> Any:
    """A client built now: for the services every request of a function calls."""
    return boto3.client(service, config=config)  # type: ignore[call-overload]


def client_on_first_use(service: str, config: Config = FAIL_FAST) -> Any:
    """A client built when a request first uses it (typed as the client by the caller)."""
    return ClientOnFirstUse(service, config)
