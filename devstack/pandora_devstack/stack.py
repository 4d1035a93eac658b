"""The embedded local stack: moto as every AWS service, storage provisioned from template.yaml, the
functions served behind a local API Gateway that reads its routes and authorizers from the template.

`LocalStack` is used by `python -m pandora_devstack` and, in-process on free ports, by the tests.
The handlers only see the environment the template gives them plus the standard AWS_ENDPOINT_URL.
"""

import secrets
import string
import sys
import threading
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import boto3
from moto.server import ThreadedMotoServer
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.token_store import TokenStore
from pandora_memory.tokens import mint_token

from pandora_devstack.api_routes import IamAuth, OpenAuth, Route, read_routes
from pandora_devstack.background import BackgroundTask, RunningStack
from pandora_devstack.environment import EnvironmentPatch
from pandora_devstack.gateway import ApiGateway, IamUser
from pandora_devstack.http_server import ApiServer
from pandora_devstack.lambda_runtime import LocalFunction, function_specs, load_functions
from pandora_devstack.local_config import LocalStackInfo, remove_local_json, write_local_json
from pandora_devstack.messages import HttpRequest, HttpResponse
from pandora_devstack.observability.console import LocalObservability
from pandora_devstack.provision import LOCAL_STACK_NAME, ProvisionedStack, function_environment, provision
from pandora_devstack.proxy_events import ApiStage
from pandora_devstack.sigv4 import SigV4Verifier
from pandora_devstack.template import TEMPLATE_PATH, Resolver, load_template

DEFAULT_API_PORT = 3000
LOOPBACK = "127.0.0.1"
# moto's default account; the template's `${AWS::AccountId}` resolves to it locally.
ACCOUNT_ID = "123456789012"
LOCAL_USER = "pandora-local-developer"
DEV_LABEL = "local dev stack"

# Settings that would send SDK calls elsewhere than the emulator, or to a real account.
_FOREIGN_AWS_SETTINGS = ("AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE")


class LocalStackError(RuntimeError):
    pass


# moto keeps every service's state in module globals, so two stacks in one process would share it.
_RUNNING = threading.Lock()


def _reset_emulator(endpoint: str) -> None:
    """Empties every moto backend (state left by an earlier stack or test in this process)."""
    # The URL is the loopback emulator this module started, never user input.
    request = urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        response.read()


def _random(alphabet: str, length: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def _describe(route: Route) -> str:
    auth = (
        "open" if isinstance(route.auth, OpenAuth) else "IAM" if isinstance(route.auth, IamAuth) else "bearer"
    )
    return f"{route.method} {route.resource} ({auth}, {route.function_id})"


def _functions_environment(template: Mapping[str, Any], resolver: Resolver) -> dict[str, str]:
    """One process hosts every function, so they must agree on each variable they share."""
    merged: dict[str, str] = {}
    for logical_id, resource in template["Resources"].items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        for name, value in function_environment(template, resolver, logical_id).items():
            if merged.setdefault(name, value) != value:
                raise LocalStackError(
                    f"functions disagree on {name}; the local stack runs them all in one process"
                )
    return merged


class LocalStack:
    def __init__(
        self,
        template_path: Path = TEMPLATE_PATH,
        *,
        api_port: int = DEFAULT_API_PORT,
        state_dir: Path | None = None,
        stage: str = "dev",
        stack_name: str = LOCAL_STACK_NAME,
        region: str = "us-east-1",
        background_tasks: Sequence[BackgroundTask] = (),
        access_log: bool = True,
    ) -> None:
        self.template_path = template_path
        self.api_port = api_port
        self.state_dir = state_dir
        self.stage = stage
        self.stack_name = stack_name
        self.region = region
        self.background_tasks = list(background_tasks)
        self.access_log = access_log
        self.access_key_id = "LOCAL" + _random(string.ascii_uppercase + string.digits, 15)
        self.secret_access_key = _random(string.ascii_letters + string.digits, 40)
        self._env = EnvironmentPatch()
        self._moto: ThreadedMotoServer | None = None
        self._api: ApiServer | None = None
        self._functions: dict[str, LocalFunction] = {}
        self._gateway: ApiGateway | None = None
        self._observability: LocalObservability | None = None
        self._started_tasks: list[BackgroundTask] = []
        self._info: LocalStackInfo | None = None
        self._holds_lock = False

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> LocalStackInfo:
        if not _RUNNING.acquire(blocking=False):
            raise LocalStackError("another local stack is running in this process")
        self._holds_lock = True
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        for task in reversed(self._started_tasks):
            try:
                task.stop()
            except Exception as error:  # one task failing to stop must not keep the servers up
                print(f"[pandora-local] background task {task.name} did not stop: {error!r}", file=sys.stderr)
        self._started_tasks.clear()
        if self._api is not None:
            self._api.stop()
            self._api = None
        if self._moto is not None:
            # Leaves no emulator state behind for whatever runs next in this process.
            host, port = self._moto.get_host_and_port()
            try:
                _reset_emulator(f"http://{host}:{port}")
            except OSError as error:
                print(f"[pandora-local] could not reset the emulator: {error}", file=sys.stderr)
            self._moto.stop()
            self._moto = None
        for function in self._functions.values():
            function.unload()
        self._functions.clear()
        self._observability = None
        self._env.restore()
        if self._info is not None and self.state_dir is not None:
            remove_local_json(self._info, self.state_dir)
        self._info = None
        if self._holds_lock:
            self._holds_lock = False
            _RUNNING.release()

    def __enter__(self) -> "LocalStack":
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

    # -- facts -------------------------------------------------------------------------------------
    @property
    def info(self) -> LocalStackInfo:
        if self._info is None:
            raise LocalStackError("the local stack is not running")
        return self._info

    @property
    def api_url(self) -> str:
        return self.info.api_url

    @property
    def aws_endpoint(self) -> str:
        return self.info.aws_endpoint

    def handle(self, request: HttpRequest) -> HttpResponse:
        """The gateway without sockets, for callers already in-process."""
        if self._gateway is None:
            raise LocalStackError("the local stack is not running")
        if self._observability is not None:
            # Serves /_local/dashboard and counts the API's requests as API Gateway would.
            return self._observability.handle(request, self._gateway.handle)
        return self._gateway.handle(request)

    def session(self) -> boto3.Session:
        """A boto3 session on the emulator with the local credentials (clients need endpoint_url)."""
        return boto3.Session(
            aws_access_key_id=self.access_key_id,
            aws_secret_access_key=self.secret_access_key,
            region_name=self.region,
        )

    # -- start-up steps ----------------------------------------------------------------------------
    def _start(self) -> LocalStackInfo:
        api = self._bind_api()
        aws_endpoint = self._start_emulator()
        session = self.session()
        provisioned = provision(session, self.template_path, self.stack_name, self.stage)
        template = load_template(self.template_path)
        resolver = Resolver(
            template,
            stack_name=self.stack_name,
            region=self.region,
            account_id=ACCOUNT_ID,
            parameters={"Stage": self.stage},
        )
        self._env.set({**provisioned.env, **_functions_environment(template, resolver)})
        tokens = self._mint_dev_tokens(session, provisioned.tokens_path)
        self._observability = LocalObservability.from_template(
            template,
            resolver,
            api_name=self.stack_name,  # SAM names the REST API after its stack
            stage=self.stage,
            sqs=session.client("sqs"),
            queue_urls=provisioned.queue_urls,
        )

        routes = read_routes(template)
        specs = function_specs(template, self.template_path.parent, self.stack_name, self.region, ACCOUNT_ID)
        self._functions = load_functions(specs, self._observability.monitor)
        self._gateway = self._build_gateway(routes, api.host)
        api.start()

        self._info = self._describe(provisioned, routes, tokens, aws_endpoint)
        if self.state_dir is not None:
            write_local_json(self._info, self.state_dir)
        running = RunningStack(self._info, provisioned, self._functions, session)
        for task in self.background_tasks:
            task.start(running)
            self._started_tasks.append(task)
        return self._info

    def _bind_api(self) -> ApiServer:
        """Bound first so a busy port fails before anything is provisioned; it serves once ready."""
        try:
            self._api = ApiServer(self.handle, LOOPBACK, self.api_port, self.access_log)
        except OSError as error:
            raise LocalStackError(
                f"cannot listen on {LOOPBACK}:{self.api_port} ({error.strerror}); set PANDORA_PORT"
            ) from error
        return self._api

    def _start_emulator(self) -> str:
        """Starts moto on a free port and points every SDK client of this process at it."""
        self._moto = ThreadedMotoServer(ip_address=LOOPBACK, port=0, verbose=False)
        self._moto.start()
        host, port = self._moto.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        _reset_emulator(endpoint)
        self._env.unset(_FOREIGN_AWS_SETTINGS)
        self._env.set(
            {
                "AWS_ENDPOINT_URL": endpoint,
                "AWS_ACCESS_KEY_ID": self.access_key_id,
                "AWS_SECRET_ACCESS_KEY": self.secret_access_key,
                "AWS_DEFAULT_REGION": self.region,
                "AWS_REGION": self.region,
                "AWS_EC2_METADATA_DISABLED": "true",
            }
        )
        return endpoint

    def _build_gateway(self, routes: Sequence[Route], host: str) -> ApiGateway:
        stage = ApiStage(
            api_id=_random(string.ascii_lowercase + string.digits, 10),
            stage=self.stage,
            account_id=ACCOUNT_ID,
            domain_name=host,
        )
        iam_user = IamUser(
            access_key_id=self.access_key_id,
            user_arn=f"arn:aws:iam::{ACCOUNT_ID}:user/{LOCAL_USER}",
            user_id="AIDA" + self.access_key_id[len("LOCAL") :],
            account_id=ACCOUNT_ID,
        )
        verifier = SigV4Verifier(self.access_key_id, self.secret_access_key, self.region)
        return ApiGateway(routes, self._functions, stage, self.region, verifier, iam_user)

    def _mint_dev_tokens(self, session: boto3.Session, tokens_path: str) -> dict[str, str]:
        store = TokenStore(session.client("ssm"), tokens_path)
        tokens: dict[str, str] = {}
        for namespace in Namespace:
            minted = mint_token([namespace], label=DEV_LABEL)
            store.put(minted.record)
            tokens[namespace.value] = minted.token
        return tokens

    def _describe(
        self,
        provisioned: ProvisionedStack,
        routes: Sequence[Route],
        tokens: dict[str, str],
        aws_endpoint: str,
    ) -> LocalStackInfo:
        assert self._api is not None
        return LocalStackInfo(
            api_url=self._api.url,
            tokens=tokens,
            aws_endpoint=aws_endpoint,
            s3_endpoint=aws_endpoint,
            bucket=provisioned.bucket,
            table_names=dict(provisioned.table_names),
            region=self.region,
            access_key_id=self.access_key_id,
            secret_access_key=self.secret_access_key,
            stage=self.stage,
            stack_name=self.stack_name,
            tokens_path=provisioned.tokens_path,
            flags_path=provisioned.flags_path,
            routes=tuple(_describe(route) for route in routes),
        )
