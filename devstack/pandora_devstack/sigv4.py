"""Checks AWS SigV4 `Authorization` headers the way API Gateway does for AWS_IAM routes.

The signature is recomputed with botocore's own signer over the request as received (method, raw
path, query, the headers the caller listed as signed, the body) and compared in constant time. Only
the local stack's one key pair is known; presigned (query-string) signatures are not accepted.
"""

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from botocore.auth import SIGV4_TIMESTAMP, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from pandora_devstack.messages import HttpRequest

ALGORITHM = "AWS4-HMAC-SHA256"
SERVICE = "execute-api"
MAX_CLOCK_SKEW = timedelta(minutes=5)

MISSING_AUTHENTICATION = "Missing Authentication Token"
UNRECOGNIZED_CLIENT = "The security token included in the request is invalid."
SIGNATURE_MISMATCH = (
    "The request signature we calculated does not match the signature you provided. Check your AWS "
    "Secret Access Key and signing method. Consult the service documentation for details."
)

_FIELDS = re.compile(r"(Credential|SignedHeaders|Signature)=([^,\s]+)")


@dataclass(frozen=True)
class SigV4Result:
    ok: bool
    message: str = ""
    error_type: str = ""
    access_key_id: str = ""


def _refused(message: str, error_type: str) -> SigV4Result:
    return SigV4Result(ok=False, message=message, error_type=error_type)


@dataclass(frozen=True)
class _SignedParts:
    access_key_id: str
    scope_date: str
    scope_region: str
    scope_service: str
    signed_headers: tuple[str, ...]
    signature: str


def _parse_authorization(header: str) -> _SignedParts | None:
    if not header.startswith(ALGORITHM + " "):
        return None
    fields = dict(_FIELDS.findall(header[len(ALGORITHM) :]))
    credential = fields.get("Credential", "").split("/")
    if len(credential) != 5 or credential[4] != "aws4_request" or "SignedHeaders" not in fields:
        return None
    if "Signature" not in fields:
        return None
    return _SignedParts(
        access_key_id=credential[0],
        scope_date=credential[1],
        scope_region=credential[2],
        scope_service=credential[3],
        signed_headers=tuple(fields["SignedHeaders"].split(";")),
        signature=fields["Signature"],
    )


class SigV4Verifier:
    def __init__(
        self,
        access_key_id: str,
        secret_access_key: str,
        region: str,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._credentials = Credentials(access_key_id, secret_access_key)
        self._region = region
        self._clock = clock

    def verify(self, request: HttpRequest) -> SigV4Result:
        authorization = request.header("Authorization")
        if authorization is None:
            return _refused(MISSING_AUTHENTICATION, "MissingAuthenticationTokenException")
        parts = _parse_authorization(authorization)
        if parts is None:
            return _refused(
                f"Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' "
                f"parameters ({ALGORITHM}).",
                "IncompleteSignatureException",
            )
        problem = self._check_scope(request, parts)
        if problem is not None:
            return problem
        expected = self._signature(request, parts)
        if expected is None or not hmac.compare_digest(expected, parts.signature):
            return _refused(SIGNATURE_MISMATCH, "InvalidSignatureException")
        return SigV4Result(ok=True, access_key_id=parts.access_key_id)

    def _check_scope(self, request: HttpRequest, parts: _SignedParts) -> SigV4Result | None:
        if parts.access_key_id != self._credentials.access_key or request.header("X-Amz-Security-Token"):
            return _refused(UNRECOGNIZED_CLIENT, "UnrecognizedClientException")
        if "host" not in parts.signed_headers:
            return _refused(
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.",
                "IncompleteSignatureException",
            )
        if parts.scope_service != SERVICE or parts.scope_region != self._region:
            return _refused(
                f"Credential should be scoped to a valid region and to service '{SERVICE}' "
                f"(this stack: {self._region}).",
                "InvalidSignatureException",
            )
        amz_date = request.header("X-Amz-Date") or ""
        try:
            signed_at = datetime.strptime(amz_date, SIGV4_TIMESTAMP).replace(tzinfo=UTC)
        except ValueError:
            return _refused(
                "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.",
                "IncompleteSignatureException",
            )
        if parts.scope_date != amz_date[:8]:
            return _refused("Credential date does not match X-Amz-Date.", "InvalidSignatureException")
        if abs(self._clock() - signed_at) > MAX_CLOCK_SKEW:
            return _refused(
                f"Signature expired: {amz_date} is outside the 5 minute window.", "InvalidSignatureException"
            )
        return None

    def _signature(self, request: HttpRequest, parts: _SignedParts) -> str | None:
        declared_hash = request.header("X-Amz-Content-SHA256")
        # botocore trusts this header as the payload hash, so it must describe the body we received.
        if declared_hash is not None and declared_hash != hashlib.sha256(request.body).hexdigest():
            return None
        host = request.header("Host") or ""
        rebuilt = AWSRequest(
            method=request.method, url=f"http://{host}{request.raw_target}", data=request.body
        )
        signed = set(parts.signed_headers)
        for name, value in request.headers:
            if name.lower() in signed:
                rebuilt.headers[name] = value  # HTTPHeaders appends, so repeated headers stay repeated
        rebuilt.context["timestamp"] = request.header("X-Amz-Date")
        signer = SigV4Auth(self._credentials, SERVICE, self._region)
        canonical = signer.canonical_request(rebuilt)
        if signer.signed_headers(signer.headers_to_sign(rebuilt)) != ";".join(parts.signed_headers):
            return None
        return str(signer.signature(signer.string_to_sign(rebuilt, canonical), rebuilt))
