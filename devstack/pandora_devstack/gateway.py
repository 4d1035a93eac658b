"""The local API Gateway: route lookup, authentication, proxy event, handler call, HTTP answer.

A thin adapter over the template: routes, authorizers and handlers all come from template.yaml, and
the handlers receive the events API Gateway would send them.
"""

import sys
import traceback
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pandora_devstack.api_routes import IamAuth, OpenAuth, Route, TokenAuthorizer, match_route
from pandora_devstack.authorizers import method_arn, run_token_authorizer
from pandora_devstack.lambda_runtime import FunctionInitError, LocalFunction
from pandora_devstack.messages import HttpRequest, HttpResponse, json_response
from pandora_devstack.proxy_events import (
    ApiIdentity,
    ApiStage,
    bad_gateway,
    proxy_result_to_http,
    rest_proxy_event,
)
from pandora_devstack.sigv4 import SigV4Verifier


@dataclass(frozen=True)
class IamUser:
    """The one IAM identity of the local stack, reported to handlers of signed calls."""

    access_key_id: str
    user_arn: str
    user_id: str
    account_id: str


@dataclass(frozen=True)
class _Authenticated:
    identity: ApiIdentity
    authorizer: Mapping[str, Any] | None


class ApiGateway:
    def __init__(
        self,
        routes: Sequence[Route],
        functions: Mapping[str, LocalFunction],
        stage: ApiStage,
        region: str,
        verifier: SigV4Verifier,
        iam_user: IamUser,
    ) -> None:
        self._routes = list(routes)
        self._functions = functions
        self._stage = stage
        self._region = region
        self._verifier = verifier
        self._iam_user = iam_user

    def handle(self, request: HttpRequest) -> HttpResponse:
        request_id = str(uuid.uuid4())
        response = self._handle(request, request_id)
        return HttpResponse(
            response.status, (*response.headers, ("x-amzn-RequestId", request_id)), response.body
        )

    def _handle(self, request: HttpRequest, request_id: str) -> HttpResponse:
        found = match_route(self._routes, request.method, request.path)
        if found is None:
            return json_response(404, {"message": "Not Found"}, error_type="NotFoundException")
        route, path_parameters = found
        authenticated = self._authenticate(route, request)
        if isinstance(authenticated, HttpResponse):
            return authenticated
        event = rest_proxy_event(
            request,
            route,
            path_parameters,
            self._stage,
            request_id,
            authenticated.identity,
            authenticated.authorizer,
        )
        return self._invoke(self._functions[route.function_id], event)

    def _authenticate(self, route: Route, request: HttpRequest) -> _Authenticated | HttpResponse:
        anonymous = ApiIdentity(source_ip=request.source_ip, user_agent=request.header("User-Agent"))
        if isinstance(route.auth, OpenAuth):
            return _Authenticated(anonymous, None)
        if isinstance(route.auth, IamAuth):
            result = self._verifier.verify(request)
            if not result.ok:
                return json_response(403, {"message": result.message}, error_type=result.error_type)
            user = self._iam_user
            identity = ApiIdentity(
                source_ip=request.source_ip,
                user_agent=request.header("User-Agent"),
                access_key=result.access_key_id,
                user_arn=user.user_arn,
                account_id=user.account_id,
                user=user.user_id,
            )
            return _Authenticated(identity, None)
        return self._run_authorizer(route.auth, route, request, anonymous)

    def _run_authorizer(
        self, authorizer: TokenAuthorizer, route: Route, request: HttpRequest, identity: ApiIdentity
    ) -> _Authenticated | HttpResponse:
        arn = method_arn(
            self._region,
            self._stage.account_id,
            self._stage.api_id,
            self._stage.stage,
            request.method,
            request.path,
        )
        decision = run_token_authorizer(authorizer, self._functions[authorizer.function_id], request, arn)
        if decision.refusal is not None:
            return decision.refusal
        return _Authenticated(identity, decision.context)

    @staticmethod
    def _invoke(function: LocalFunction, event: dict[str, Any]) -> HttpResponse:
        try:
            result = function.invoke(event)
        except FunctionInitError as error:
            # Its traceback was printed at start-up; once is enough.
            print(f"[pandora-local] {error}", file=sys.stderr)
            return bad_gateway()
        except Exception as error:
            print(f"[pandora-local] {function.spec.logical_id} failed:", file=sys.stderr)
            traceback.print_exception(error, file=sys.stderr)
            return bad_gateway()
        return proxy_result_to_http(result)
