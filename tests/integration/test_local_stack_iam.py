"""IAM (SigV4) routes of the local API, checked through HTTP on a small template with an echo route.

The real template's IAM routes get their own end-to-end tests with their handlers; this one pins the
gateway behaviour: unsigned → 403, wrongly signed → 403, correctly signed → the handler, with the
caller's identity in requestContext.
"""

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from pandora_devstack.stack import LocalStack
from pandora_memory.settings import get_settings

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]

TEMPLATE = """\
Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage: {{ Type: String, Default: dev }}
Globals:
  Function:
    Runtime: python3.12
    Environment:
      Variables:
        STAGE: !Ref Stage
        CANDIDATES_TABLE: echo-candidates
        MEMORY_TABLE: echo-memory
        FLAGS_PATH: !Sub "/pandora/${{Stage}}/flags"
        TOKENS_PATH: !Sub "/pandora/${{Stage}}/tokens"
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: !Ref Stage
      Auth:
        DefaultAuthorizer: AWS_IAM
        Authorizers:
          Bearer:
            FunctionArn: !GetAtt TokenAuthorizerFunction.Arn
            Identity: {{ Header: Authorization }}
  TokenAuthorizerFunction:
    Type: AWS::Serverless::Function
    Properties: {{ CodeUri: {authorizer}, Handler: app.lambda_handler }}
  EchoFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: echo/
      Handler: app.lambda_handler
      Events:
        Signed:
          Type: Api
          Properties: {{ RestApiId: !Ref Api, Path: "/echo/{{id}}", Method: post }}
        Bearer:
          Type: Api
          Properties:
            RestApiId: !Ref Api
            Path: /bearer-echo
            Method: get
            Auth: {{ Authorizer: Bearer }}
  Bucket:
    Type: AWS::S3::Bucket
    Properties: {{ BucketName: !Sub "${{AWS::StackName}}-echo-${{AWS::AccountId}}" }}
"""

ECHO = """\
import json


def lambda_handler(event, context):
    return {
        "statusCode": 200,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps({"event": event, "function_name": context.function_name}),
    }
"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    root = tmp_path_factory.mktemp("echo-stack")
    (root / "echo").mkdir()
    (root / "echo" / "app.py").write_text(ECHO)
    template = root / "template.yaml"
    template.write_text(TEMPLATE.format(authorizer=REPO / "functions" / "token_authorizer"))
    get_settings.cache_clear()
    local = LocalStack(template, api_port=0, stack_name="pandora-echo", access_log=False)
    local.start()
    yield local
    local.stop()
    get_settings.cache_clear()


def _signed(stack: LocalStack, url: str, body: bytes, secret_key: str | None = None) -> requests.Response:
    request = AWSRequest(method="POST", url=url, data=body, headers={"Content-Type": "application/json"})
    credentials = Credentials(stack.access_key_id, secret_key or stack.secret_access_key)
    SigV4Auth(credentials, "execute-api", stack.region).add_auth(request)
    return requests.post(url, data=body, headers=dict(request.headers.items()), timeout=10)


def _echoed(response: requests.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    event: dict[str, Any] = response.json()["event"]
    return event


def test_unsigned_call_is_403(stack: LocalStack) -> None:
    response = requests.post(stack.api_url + "/echo/1", json={}, timeout=10)
    assert response.status_code == 403
    assert response.json() == {"message": "Missing Authentication Token"}


def test_wrongly_signed_call_is_403(stack: LocalStack) -> None:
    response = _signed(stack, stack.api_url + "/echo/1", b"{}", secret_key=secrets.token_urlsafe(30))
    assert response.status_code == 403
    assert "signature" in response.json()["message"]


def test_correctly_signed_call_reaches_the_handler_with_identity(stack: LocalStack) -> None:
    body = json.dumps({"hello": "world"}).encode()
    event = _echoed(_signed(stack, stack.api_url + "/echo/real_life.abc?x=1", body))
    assert event["resource"] == "/echo/{id}"
    assert event["path"] == "/echo/real_life.abc"
    assert event["httpMethod"] == "POST"
    assert event["pathParameters"] == {"id": "real_life.abc"}
    assert event["queryStringParameters"] == {"x": "1"}
    assert json.loads(event["body"]) == {"hello": "world"}
    assert event["isBase64Encoded"] is False
    identity = event["requestContext"]["identity"]
    assert identity["accessKey"] == stack.access_key_id
    assert identity["userArn"].startswith("arn:aws:iam::")
    assert event["requestContext"]["stage"] == "dev"
    assert event["requestContext"]["requestId"]
    assert "authorizer" not in event["requestContext"]


def test_bearer_route_passes_the_authorizer_context(stack: LocalStack) -> None:
    token = stack.info.tokens["au"]
    response = requests.get(
        stack.api_url + "/bearer-echo", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    event = _echoed(response)
    authorizer = event["requestContext"]["authorizer"]
    assert authorizer["namespaces"] == "au"
    assert authorizer["principalId"] == authorizer["token_id"] == token.split("_")[1]
    assert event["requestContext"]["identity"]["accessKey"] is None
    assert response.json()["function_name"] == "pandora-echo-EchoFunction"


def test_sigv4_does_not_open_bearer_routes(stack: LocalStack) -> None:
    request = AWSRequest(method="GET", url=stack.api_url + "/bearer-echo")
    SigV4Auth(
        Credentials(stack.access_key_id, stack.secret_access_key), "execute-api", stack.region
    ).add_auth(request)
    response = requests.get(stack.api_url + "/bearer-echo", headers=dict(request.headers.items()), timeout=10)
    assert response.status_code == 401
