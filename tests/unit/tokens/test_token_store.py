from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import boto3
import pytest
from moto import mock_aws
from pandora_memory.namespaces import Namespace
from pandora_memory.storage.token_store import TokenAlreadyExistsError, TokenStore, UnknownTokenError
from pandora_memory.tokens import mint_token, parse_token

if TYPE_CHECKING:
    from mypy_boto3_ssm import SSMClient

PATH = "/pandora/test/tokens"


@pytest.fixture
def ssm() -> Iterator["SSMClient"]:
    with mock_aws():
        yield boto3.client("ssm", region_name="us-east-1")


def test_put_stores_a_secure_string_holding_only_the_hash(ssm: "SSMClient") -> None:
    minted = mint_token([Namespace.AU], label="laptop")
    TokenStore(ssm, PATH).put(minted.record)
    parameter = ssm.get_parameter(Name=f"{PATH}/{minted.record.token_id}", WithDecryption=True)["Parameter"]
    assert parameter["Type"] == "SecureString"
    assert parse_token(minted.token).secret not in parameter["Value"]
    assert minted.record.sha256 in parameter["Value"]


def test_get_returns_the_record_or_none(ssm: "SSMClient") -> None:
    store = TokenStore(ssm, PATH)
    minted = mint_token([Namespace.REAL_LIFE, Namespace.AU])
    store.put(minted.record)
    assert store.get(minted.record.token_id) == minted.record
    assert store.get("zzzzzzzzzzzz") is None


def test_put_never_overwrites(ssm: "SSMClient") -> None:
    store = TokenStore(ssm, PATH)
    record = mint_token([Namespace.AU]).record
    store.put(record)
    with pytest.raises(TokenAlreadyExistsError):
        store.put(replace(record, namespaces=(Namespace.REAL_LIFE,)))
    assert store.get(record.token_id) == record


def test_list_and_revoke(ssm: "SSMClient") -> None:
    store = TokenStore(ssm, PATH)
    records = [mint_token([Namespace.AU], label=str(n)).record for n in range(12)]
    for record in records:
        store.put(record)
    TokenStore(ssm, "/pandora/other/tokens").put(mint_token([Namespace.AU]).record)
    assert {r.token_id for r in store.list()} == {r.token_id for r in records}

    store.revoke(records[0].token_id)
    assert store.get(records[0].token_id) is None
    assert records[0].token_id not in {r.token_id for r in store.list()}
    with pytest.raises(UnknownTokenError):
        store.revoke(records[0].token_id)


def test_reads_are_cached_so_revocation_elsewhere_takes_up_to_the_cache_age(ssm: "SSMClient") -> None:
    reader = TokenStore(ssm, PATH)
    record = mint_token([Namespace.AU]).record
    reader.put(record)
    assert reader.get(record.token_id) == record
    TokenStore(ssm, PATH).revoke(record.token_id)
    assert reader.get(record.token_id) == record  # cached copy, as a warm authorizer would see
    assert TokenStore(ssm, PATH).get(record.token_id) is None


def test_path_must_be_absolute(ssm: "SSMClient") -> None:
    with pytest.raises(ValueError, match="absolute"):
        TokenStore(ssm, "pandora/dev/tokens")
