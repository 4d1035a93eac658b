"""SigV4 signing (service `execute-api`) as a `requests` auth, for callers that build requests for us.

The request is signed as sent: method, URL with its encoded query, body bytes, and the content type,
host and date headers only, so whatever else the HTTP client adds cannot break the signature.
"""

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from requests import PreparedRequest
from requests.auth import AuthBase

SERVICE = "execute-api"
_SIGNED_HEADERS = ("Content-Type",)
_SIGNATURE_HEADERS = ("Authorization", "X-Amz-Date", "X-Amz-Security-Token")


class SigV4RequestsAuth(AuthBase):
    def __init__(self, access_key_id: str, secret_access_key: str, region: str) -> None:
        self._credentials = Credentials(access_key_id, secret_access_key)
        self._region = region

    def __call__(self, request: PreparedRequest) -> PreparedRequest:
        body = request.body
        data = body.encode("utf-8") if isinstance(body, str) else (body or b"")
        headers = {name: request.headers[name] for name in _SIGNED_HEADERS if name in request.headers}
        signed = AWSRequest(method=request.method, url=request.url, data=data, headers=headers)
        SigV4Auth(self._credentials, SERVICE, self._region).add_auth(signed)
        for name in _SIGNATURE_HEADERS:
            if name in signed.headers:
                request.headers[name] = signed.headers[name]
        return request
