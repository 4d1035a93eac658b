"""Which table an --apply writes to: --table, --stack-name, or the local stack's description."""

import json
from pathlib import Path

import pytest
from pandora_memory.backfill.target import resolve_target
from pandora_memory.cli.local_target import LocalTargetError

LOCAL = {
    "api_url": "http://127.0.0.1:3000",
    "aws_endpoint": "http://127.0.0.1:4566",
    "region": "eu-west-1",
    "access_key_id": "local",
    "secret_access_key": "local-only",
    "stack_name": "pandora-local",
    "table_names": {"CandidatesTable": "pandora-local-memory-capture-candidates-x"},
}


def write_local(tmp_path: Path, **changes: object) -> Path:
    path = tmp_path / "local.json"
    path.write_text(json.dumps({**LOCAL, **changes}))
    return path


def test_table_and_stack_name_need_no_local_stack(tmp_path: Path) -> None:
    missing = tmp_path / "absent.json"
    by_table = resolve_target(table="t1", stack_name="s", local=False, region=None, local_config=missing)
    by_stack = resolve_target(
        table=None, stack_name="prod", local=False, region="eu-west-1", local_config=missing
    )
    assert by_table is not None and by_table.table == "t1"
    assert by_stack is not None and by_stack.table == "prod-memory-capture-candidates"
    assert by_stack.region == "eu-west-1"
    assert resolve_target(table=None, stack_name=None, local=False, region=None, local_config=missing) is None


def test_local_reads_the_table_and_endpoint_from_the_stack_description(tmp_path: Path) -> None:
    target = resolve_target(
        table=None, stack_name=None, local=True, region=None, local_config=write_local(tmp_path)
    )
    assert target is not None
    assert target.table == "pandora-local-memory-capture-candidates-x"
    client = target.dynamodb()
    assert client.meta.endpoint_url == "http://127.0.0.1:4566"
    assert client.meta.region_name == "eu-west-1"


def test_local_falls_back_to_the_stack_name(tmp_path: Path) -> None:
    path = write_local(tmp_path, table_names={})
    target = resolve_target(table=None, stack_name=None, local=True, region=None, local_config=path)
    assert target is not None and target.table == "pandora-local-memory-capture-candidates"


def test_local_without_a_running_stack_says_so(tmp_path: Path) -> None:
    with pytest.raises(LocalTargetError, match="make dev"):
        resolve_target(
            table=None, stack_name=None, local=True, region=None, local_config=tmp_path / "no.json"
        )
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(LocalTargetError, match="make dev"):
        resolve_target(table=None, stack_name=None, local=True, region=None, local_config=broken)
