"""The API's routes and their authentication, read from the functions' `Api` events in template.yaml.

SAM semantics: an event's `Auth.Authorizer` wins, else the API's `DefaultAuthorizer`; `AWS_IAM` means
SigV4-signed calls only, `NONE` (or no authorizer at all) means open, any other name is a Lambda
authorizer declared under the API's `Auth.Authorizers`.
"""

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

SERVERLESS_FUNCTION = "AWS::Serverless::Function"
SERVERLESS_API = "AWS::Serverless::Api"
IAM = "AWS_IAM"
NO_AUTH = "NONE"
ANY_METHOD = "ANY"


class UnsupportedTemplateError(ValueError):
    """The template uses an API feature the local stack cannot reproduce faithfully."""


@dataclass(frozen=True)
class TokenAuthorizer:
    name: str
    function_id: str
    header: str
    validation_expression: str | None


@dataclass(frozen=True)
class IamAuth:
    pass


@dataclass(frozen=True)
class OpenAuth:
    pass


RouteAuth = TokenAuthorizer | IamAuth | OpenAuth


@dataclass(frozen=True)
class Route:
    function_id: str
    event_name: str
    resource: str
    method: str
    auth: RouteAuth
    api_id: str

    @property
    def pattern(self) -> re.Pattern[str]:
        return _resource_pattern(self.resource)

    def path_parameters(self, path: str) -> dict[str, str] | None:
        match = self.pattern.fullmatch(path)
        return None if match is None else match.groupdict()

    def accepts(self, method: str) -> bool:
        return self.method in (ANY_METHOD, method.upper())

    def specificity(self) -> tuple[int, ...]:
        """Sort key: literal segments beat `{param}`, which beats `{proxy+}`; a named method beats ANY."""
        ranks = [
            2 if seg.endswith("+}") else 1 if seg.startswith("{") else 0 for seg in _segments(self.resource)
        ]
        return (*ranks, 1 if self.method == ANY_METHOD else 0)


def _segments(resource: str) -> list[str]:
    return [segment for segment in resource.split("/") if segment]


@functools.cache
def _resource_pattern(resource: str) -> re.Pattern[str]:
    parts: list[str] = []
    for segment in _segments(resource):
        greedy = re.fullmatch(r"\{(\w+)\+\}", segment)
        named = re.fullmatch(r"\{(\w+)\}", segment)
        if greedy:
            parts.append(f"(?P<{greedy.group(1)}>.+)")
        elif named:
            parts.append(f"(?P<{named.group(1)}>[^/]+)")
        else:
            parts.append(re.escape(segment))
    return re.compile("/" + "/".join(parts))


def _function_id_of(function_arn: object, authorizer_name: str) -> str:
    if isinstance(function_arn, Mapping) and "Fn::GetAtt" in function_arn:
        logical_id, attribute = function_arn["Fn::GetAtt"]
        if attribute == "Arn":
            return str(logical_id)
    raise UnsupportedTemplateError(
        f"authorizer {authorizer_name}: FunctionArn must be !GetAtt <Function>.Arn of this template"
    )


def _token_authorizer(name: str, spec: Mapping[str, Any]) -> TokenAuthorizer:
    if "UserPoolArn" in spec:
        raise UnsupportedTemplateError(f"authorizer {name}: Cognito authorizers are not served locally")
    if spec.get("FunctionPayloadType", "TOKEN") != "TOKEN":
        raise UnsupportedTemplateError(f"authorizer {name}: only TOKEN Lambda authorizers are served locally")
    identity = spec.get("Identity", {})
    return TokenAuthorizer(
        name=name,
        function_id=_function_id_of(spec.get("FunctionArn"), name),
        header=str(identity.get("Header", "Authorization")),
        validation_expression=identity.get("ValidationExpression"),
    )


def _route_auth(api_id: str, api: Mapping[str, Any], event_auth: Mapping[str, Any]) -> RouteAuth:
    auth = api.get("Properties", {}).get("Auth", {})
    name = event_auth.get("Authorizer", auth.get("DefaultAuthorizer"))
    if name is None or name == NO_AUTH:
        return OpenAuth()
    if name == IAM:
        return IamAuth()
    authorizers = auth.get("Authorizers", {})
    if name not in authorizers:
        raise UnsupportedTemplateError(f"API {api_id} has no authorizer named {name}")
    return _token_authorizer(str(name), authorizers[name])


def _api_events(resources: Mapping[str, Any]) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
    for function_id, resource in resources.items():
        if resource.get("Type") != SERVERLESS_FUNCTION:
            continue
        for event_name, event in resource.get("Properties", {}).get("Events", {}).items():
            if event.get("Type") == "HttpApi":
                raise UnsupportedTemplateError(f"{function_id}.{event_name}: HttpApi events are not served")
            if event.get("Type") == "Api":
                yield function_id, event_name, event.get("Properties", {})


def read_routes(template: Mapping[str, Any]) -> list[Route]:
    """Every Api event of every function, most specific first (the order API Gateway matches in)."""
    resources = template["Resources"]
    routes: list[Route] = []
    for function_id, event_name, props in _api_events(resources):
        rest_api = props.get("RestApiId")
        api_id = rest_api.get("Ref") if isinstance(rest_api, Mapping) else None
        if api_id is None or resources.get(api_id, {}).get("Type") != SERVERLESS_API:
            raise UnsupportedTemplateError(
                f"{function_id}.{event_name}: RestApiId must !Ref an AWS::Serverless::Api of this template"
            )
        routes.append(
            Route(
                function_id=function_id,
                event_name=event_name,
                resource=str(props["Path"]),
                method=str(props["Method"]).upper(),
                auth=_route_auth(api_id, resources[api_id], props.get("Auth", {})),
                api_id=api_id,
            )
        )
    return sorted(routes, key=Route.specificity)


def match_route(routes: Iterable[Route], method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    for route in routes:
        parameters = route.path_parameters(path)
        if parameters is not None and route.accepts(method):
            return route, parameters
    return None
