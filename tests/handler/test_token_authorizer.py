import importlib.util
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from pandora_devstack.lambda_runtime import LambdaContext
from pandora_memory.namespaces import Namespace
from pandora_memory.settings import get_settings
from pandora_memory.storage.token_store import TokenStore
from pandora_memory.tokens import MintedToken, mint_token, parse_token

if TYPE_CHECKING:
    from pandora_devstack.provision import ProvisionedStack

APP = Path(__file__).resolve().parents[2] / "functions" / "token_authorizer" / "app.py"
METHOD_ARN = "arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/POST/api/memory/adaptive/turn"


def _load_app() -> ModuleType:
    spec = importlib.util.spec_from_file_location("token_authorizer_app_under_test", APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class _Lines(logging.Handler):
    """Keeps the authorizer's log lines exactly as its Powertools formatter writes them."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def app(provisioned_stack: "ProvisionedStack") -> Iterator[ModuleType]:
    get_settings.cache_clear()
    module = _load_app()
    yield module
    module.token_store.cache_clear()
    get_settings.cache_clear()
    sys.modules.pop("token_authorizer_app_under_test", None)


@pytest.fixture
def log_lines(app: ModuleType) -> Iterator[list[str]]:
    handler = _Lines()
    handler.setFormatter(app.logger.registered_formatter)
    underlying = logging.getLogger(app.logger.name)
    underlying.addHandler(handler)
    yield handler.lines
    underlying.removeHandler(handler)


@pytest.fixture
def store(provisioned_stack: "ProvisionedStack") -> TokenStore:
    return TokenStore(boto3.client("ssm"), provisioned_stack.tokens_path)


def _minted(store: TokenStore, *namespaces: Namespace) -> MintedToken:
    minted = mint_token(namespaces, label="test")
    store.put(minted.record)
    return minted


def _context() -> LambdaContext:
    return LambdaContext(
        function_name="pandora-test-TokenAuthorizerFunction",
        invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:pandora-test-TokenAuthorizerFunction",
        memory_limit_in_mb=256,
        aws_request_id="c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
        timeout_s=5,
    )


def _call(app: ModuleType, header: str | None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "TOKEN", "methodArn": METHOD_ARN}
    if header is not None:
        event["authorizationToken"] = header
    result: dict[str, Any] = app.lambda_handler(event, _context())
    return result


def _decisions(printed: str) -> list[str]:
    """The `outcome` of every AuthorizerDecision metric the handler emitted (EMF lines on stdout)."""
    outcomes = []
    for line in printed.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            document = json.loads(line)
            metrics = document["_aws"]["CloudWatchMetrics"][0]
            if any(m["Name"] == "AuthorizerDecision" for m in metrics["Metrics"]):
                assert ["outcome", "service"] in metrics["Dimensions"] or ["outcome"] in metrics["Dimensions"]
                outcomes.append(document["outcome"])
    return outcomes


def test_valid_token_gets_an_allow_policy_for_the_whole_stage(
    app: ModuleType, store: TokenStore, capsys: pytest.CaptureFixture[str]
) -> None:
    minted = _minted(store, Namespace.AU)
    policy = _call(app, f"Bearer {minted.token}")
    assert policy["principalId"] == minted.record.token_id
    assert policy["policyDocument"]["Statement"] == [
        {
            "Action": "execute-api:Invoke",
            "Effect": "Allow",
            "Resource": ["arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/dev/*/*"],
        }
    ]
    assert policy["context"] == {"token_id": minted.record.token_id, "namespaces": "au"}
    assert _decisions(capsys.readouterr().out) == ["allow"]


def test_context_lists_every_namespace_of_the_scope(app: ModuleType, store: TokenStore) -> None:
    minted = _minted(store, Namespace.AU, Namespace.REAL_LIFE)
    assert _call(app, f"Bearer {minted.token}")["context"]["namespaces"] == "real_life,au"


def _wrong_secret(token: str) -> str:
    last = token[-1]
    return token[:-1] + ("A" if last != "A" else "B")


@pytest.mark.parametrize(
    "header_for",
    [
        pytest.param(lambda token: f"Bearer {_wrong_secret(token)}", id="wrong-secret"),
        pytest.param(lambda token: "Bearer " + mint_token([Namespace.AU]).token, id="unknown-id"),
        pytest.param(lambda token: token, id="no-scheme"),
        pytest.param(lambda token: f"Basic {token}", id="basic-scheme"),
        pytest.param(lambda token: f"Bearer {token[:-3]}", id="truncated"),
        pytest.param(lambda token: "Bearer ", id="empty"),
        pytest.param(lambda token: None, id="missing"),
    ],
)
def test_refusals_raise_unauthorized(
    app: ModuleType, store: TokenStore, capsys: pytest.CaptureFixture[str], header_for: Any
) -> None:
    minted = _minted(store, Namespace.REAL_LIFE)
    with pytest.raises(Exception) as raised:
        _call(app, header_for(minted.token))
    assert str(raised.value) == "Unauthorized"
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert _decisions(capsys.readouterr().out) == ["deny"]


def test_revoked_token_is_refused(app: ModuleType, store: TokenStore) -> None:
    minted = _minted(store, Namespace.AU)
    store.revoke(minted.record.token_id)
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        _call(app, f"Bearer {minted.token}")


def test_token_never_reaches_logs_or_output(
    app: ModuleType, store: TokenStore, log_lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    minted = _minted(store, Namespace.AU)
    secret = parse_token(minted.token).secret
    _call(app, f"Bearer {minted.token}")
    with pytest.raises(Exception, match="Unauthorized"):
        _call(app, f"Bearer {_wrong_secret(minted.token)}")
    printed = capsys.readouterr()
    everything = "\n".join([*log_lines, printed.out, printed.err])
    assert len(log_lines) == 2  # one line per decision, so the check below reads real output
    assert all(minted.record.token_id in line for line in log_lines)
    assert '"outcome":"allow"' in log_lines[0] and '"outcome":"deny"' in log_lines[1]
    assert secret not in everything
    assert _wrong_secret(minted.token)[-43:] not in everything
    assert minted.token not in everything
