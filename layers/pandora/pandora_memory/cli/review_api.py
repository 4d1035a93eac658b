"""A small client of the IAM-only review API: every call signed with SigV4 (service `execute-api`).

Credentials come from the default AWS chain, or with `--local` from the running local stack's
`.pandora/local.json`. Every failure becomes one clear line (ReviewApiError), never a traceback.
"""

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import boto3
import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import BotoCoreError
from pydantic import BaseModel, ConfigDict, ValidationError

from pandora_memory.cli.local_target import LOCAL_CONFIG_PATH

SERVICE = "execute-api"
API_URL_ENV = "PANDORA_API_URL"
DEFAULT_TIMEOUT_SECONDS = 15.0
_REGION_IN_URL = re.compile(r"\.execute-api\.([a-z0-9-]+)\.amazonaws\.com")

EXIT_REFUSED = 1  # the API answered with an error
EXIT_UNREACHABLE = 2  # no credentials, no URL, network down


class ReviewApiError(RuntimeError):
    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        current_status: str | None = None,
        exit_code: int = EXIT_REFUSED,
    ) -> None:
        super().__init__(" ".join(message.split()))  # always one line
        self.status = status
        self.code = code
        self.current_status = current_status
        self.exit_code = exit_code


class LocalStackFile(BaseModel):
    """The parts of `.pandora/local.json` the review and feedback commands use."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    api_url: str
    region: str
    access_key_id: str
    secret_access_key: str
    aws_endpoint: str = ""
    table_names: dict[str, str] = {}


def load_local_stack(path: Path = LOCAL_CONFIG_PATH) -> LocalStackFile:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReviewApiError(
            f"no local stack found ({path} is missing): run `make dev`", exit_code=EXIT_UNREACHABLE
        ) from None
    try:
        return LocalStackFile.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError):
        raise ReviewApiError(
            f"{path} does not describe a local stack: restart `make dev`", exit_code=EXIT_UNREACHABLE
        ) from None


@dataclass(frozen=True)
class SigningKeys:
    access_key: str
    secret_key: str = field(repr=False)
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class ApiTarget:
    api_url: str
    region: str
    credentials: SigningKeys


def _aws_credentials() -> SigningKeys:
    try:
        found = boto3.Session().get_credentials()
        frozen = found.get_frozen_credentials() if found is not None else None
    except BotoCoreError as error:
        raise ReviewApiError(
            f"AWS credentials unavailable ({type(error).__name__}): refresh them (aws sso login)",
            exit_code=EXIT_UNREACHABLE,
        ) from None
    if frozen is None or not frozen.access_key or not frozen.secret_key:
        raise ReviewApiError(
            "no AWS credentials found: configure them (aws configure, aws sso login) or use --local",
            exit_code=EXIT_UNREACHABLE,
        )
    return SigningKeys(frozen.access_key, frozen.secret_key, frozen.token)


def resolve_target(
    api_url: str | None, region: str | None, local: bool, config_path: Path = LOCAL_CONFIG_PATH
) -> ApiTarget:
    if local:
        stack = load_local_stack(config_path)
        credentials = SigningKeys(stack.access_key_id, stack.secret_access_key)
        return ApiTarget((api_url or stack.api_url).rstrip("/"), region or stack.region, credentials)
    url = api_url or os.environ.get(API_URL_ENV)
    if not url:
        raise ReviewApiError(
            f"no API URL: pass --api-url (the stack's ApiUrl output), set {API_URL_ENV}, or use --local",
            exit_code=EXIT_UNREACHABLE,
        )
    match = _REGION_IN_URL.search(url)
    chosen = region or (match.group(1) if match else None) or boto3.Session().region_name
    if not chosen:
        raise ReviewApiError("no AWS region: pass --region", exit_code=EXIT_UNREACHABLE)
    return ApiTarget(url.rstrip("/"), chosen, _aws_credentials())


def _refusal(status: int, body: Any) -> ReviewApiError:
    document = body if isinstance(body, Mapping) else {}
    reason = str(document.get("reason") or document.get("message") or f"HTTP {status}")
    code = str(document.get("error") or document.get("__type") or "") or None
    current = document.get("current_status")
    if status == 403:
        if "expired" in reason.lower():
            message = "AWS credentials expired (403): refresh them (aws sso login) and retry"
        else:
            message = (
                f"access denied (403): {reason}; the review API needs IAM-signed calls from this account"
            )
    elif status == 409 and current:
        message = f"{reason} (409, current status {current})"
    else:
        message = f"{reason} ({status}{', ' + code if code else ''})"
    return ReviewApiError(message, status=status, code=code, current_status=current)


class ReviewApi:
    def __init__(
        self,
        target: ApiTarget,
        session: requests.Session | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
    ) -> None:
        self._target = target
        self._session = session or requests.Session()
        self._timeout = timeout

    @property
    def api_url(self) -> str:
        return self._target.api_url

    # -- routes -----------------------------------------------------------------------------------

    def list_candidates(
        self, namespace: str, status: str = "pending_review", limit: int = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        params = {"namespace": namespace, "status": status, "limit": str(limit)}
        if cursor:
            params["cursor"] = cursor
        return self._call("GET", "/api/memory/candidates", params=params)

    def iter_candidates(self, namespace: str, status: str, page_size: int = 20) -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            page = self.list_candidates(namespace, status, page_size, cursor)
            yield from page.get("candidates", [])
            cursor = page.get("cursor")
            if not cursor:
                return

    def get(self, candidate_id: str) -> dict[str, Any]:
        return self._call("GET", f"/api/memory/candidates/{quote(candidate_id, safe='')}")

    def approve(self, candidate_id: str, **edits: str | None) -> dict[str, Any]:
        body = {name: value for name, value in edits.items() if value is not None}
        return self._call("POST", f"/api/memory/candidates/{quote(candidate_id, safe='')}/approve", body=body)

    def reject(self, candidate_id: str, reason: str | None = None) -> dict[str, Any]:
        body = {"reason": reason} if reason else {}
        return self._call("POST", f"/api/memory/candidates/{quote(candidate_id, safe='')}/reject", body=body)

    def add(self, namespace: str, summary: str, memory_type: str, sensitivity: str | None) -> dict[str, Any]:
        body = {"namespace": namespace, "summary": summary, "memory_type": memory_type}
        if sensitivity:
            body["sensitivity"] = sensitivity
        return self._call("POST", "/api/memory/candidates", body=body)

    def feedback_summary(self, namespace: str | None, days: int) -> dict[str, Any]:
        params = {"days": str(days)} | ({"namespace": namespace} if namespace else {})
        return self._call("GET", "/api/memory/feedback/summary", params=params)

    # -- transport --------------------------------------------------------------------------------

    def _call(
        self, method: str, path: str, params: Mapping[str, str] | None = None, body: Any = None
    ) -> dict[str, Any]:
        url = self._target.api_url + path + (f"?{urlencode(params)}" if params else "")
        data = json.dumps(body).encode("utf-8") if body is not None else b""
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        signed = AWSRequest(method=method, url=url, data=data, headers=headers)
        frozen = self._target.credentials
        credentials = Credentials(frozen.access_key, frozen.secret_key, frozen.token)
        SigV4Auth(credentials, SERVICE, self._target.region).add_auth(signed)
        try:
            response = self._session.request(
                method, url, data=data or None, headers=dict(signed.headers.items()), timeout=self._timeout
            )
        except requests.Timeout:
            raise ReviewApiError(
                f"the API at {self.api_url} did not answer in time", exit_code=EXIT_UNREACHABLE
            ) from None
        except requests.RequestException as error:
            raise ReviewApiError(
                f"cannot reach the API at {self.api_url} ({type(error).__name__})", exit_code=EXIT_UNREACHABLE
            ) from None
        try:
            document = response.json() if response.content else {}
        except ValueError:
            document = None
        if response.status_code >= 400:
            raise _refusal(response.status_code, document)
        if not isinstance(document, dict):
            raise ReviewApiError(f"unexpected answer from the API ({response.status_code}, not JSON)")
        return document
