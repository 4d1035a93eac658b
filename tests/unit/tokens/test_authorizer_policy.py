import pytest
from aws_lambda_powertools.utilities.data_classes.api_gateway_authorizer_event import (
    APIGatewayAuthorizerResponse,
)
from pandora_memory.authorizer_policy import MalformedMethodArnError, allow_stage_policy, stage_routes_arn

CONTEXT = {"token_id": "abcdefghij12", "namespaces": "real_life,au"}


@pytest.mark.parametrize(
    "method_arn",
    [
        "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/POST/api/memory/adaptive/turn",
        "arn:aws:execute-api:eu-west-3:210987654321:zz9yy8xx7w/prod/GET/api/memory/search",
        "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/POST/",
        "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/ANY",
    ],
)
def test_the_policy_is_the_one_powertools_builds(method_arn: str) -> None:
    expected = APIGatewayAuthorizerResponse.from_route_arn(
        method_arn, principal_id="abcdefghij12", context=CONTEXT
    )
    expected.allow_all_routes()

    assert allow_stage_policy(method_arn, principal_id="abcdefghij12", context=CONTEXT) == expected.asdict()


def test_the_allowed_resource_is_every_route_of_the_stage() -> None:
    arn = "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/POST/api/memory/adaptive/turn"

    assert stage_routes_arn(arn) == "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/*/*"
    assert "context" not in allow_stage_policy(arn, principal_id="p", context={})


@pytest.mark.parametrize(
    "method_arn",
    [
        "",
        "not-an-arn",
        "arn:aws:lambda:us-east-1:123456789012:function:x",
        "arn:aws:execute-api:us-east-1:1:api",
    ],
)
def test_a_malformed_method_arn_is_refused(method_arn: str) -> None:
    with pytest.raises(MalformedMethodArnError):
        stage_routes_arn(method_arn)
