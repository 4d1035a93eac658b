"""`pandora-memory sync` against the bucket provisioned from template.yaml inside moto."""

import argparse
import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
import pytest
from pandora_memory.cli import sync_cmd

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from pandora_devstack.provision import ProvisionedStack


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="pandora-memory")
    sync_cmd.register(parser.add_subparsers(required=True))
    args = parser.parse_args(list(argv))
    code: int = args.run(args)
    return code


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def bucket(provisioned_stack: "ProvisionedStack") -> str:
    return provisioned_stack.bucket


@pytest.fixture
def s3(provisioned_stack: "ProvisionedStack") -> "S3Client":
    return boto3.client("s3")


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "claude-memory"
    write(root, "MEMORY.md", "# Memory\n\n- [Deploys](deploys.md)\n- [Family](family.md)\n")
    write(root, "deploys.md", "# Deploys\n\nProduction deploys go out on Tuesday mornings.\n")
    write(root, "family.md", "# Family\n\nCall grandma on Sundays.\n")
    write(root, "notes.txt", "not markdown")
    write(root, ".obsidian/app.md", "# settings\n")
    yield root


def keys(s3: "S3Client", bucket: str, prefix: str = "memory/") -> list[str]:
    return sorted(
        item["Key"] for item in s3.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])
    )


def test_sync_uploads_then_finds_nothing_to_do_then_mirrors_changes(
    folder: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket) == 0
    out = capsys.readouterr().out
    assert keys(s3, bucket) == [
        "memory/real_life/MEMORY.md",
        "memory/real_life/deploys.md",
        "memory/real_life/family.md",
    ]
    assert "uploaded 3 (3 new, 0 changed), unchanged 0, deleted 0, skipped 2, refused 0" in out
    assert "skip notes.txt (not markdown)" in out
    assert "skip .obsidian/ (hidden folder, not entered)" in out
    head = s3.head_object(Bucket=bucket, Key="memory/real_life/deploys.md")
    expected = hashlib.sha256((folder / "deploys.md").read_bytes()).hexdigest()
    assert head["Metadata"]["sha256"] == expected
    assert head["ContentType"].startswith("text/markdown")

    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket) == 0
    assert "uploaded 0 (0 new, 0 changed), unchanged 3, deleted 0" in capsys.readouterr().out

    write(folder, "deploys.md", "# Deploys\n\nProduction deploys go out on Wednesday mornings.\n")
    (folder / "family.md").unlink()
    write(folder, "topics/garden.md", "# Garden\n\nWater the tomatoes.\n")
    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket) == 0
    out = capsys.readouterr().out
    assert "upload memory/real_life/deploys.md (changed)" in out
    assert "upload memory/real_life/topics/garden.md (new)" in out
    assert "leave memory/real_life/family.md (not in DIR; --delete would delete it)" in out
    assert "uploaded 2 (1 new, 1 changed), unchanged 1, deleted 0, left 1 not in DIR" in out
    assert "memory/real_life/family.md" in keys(s3, bucket), "nothing is deleted without --delete"

    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket, "--delete") == 0
    out = capsys.readouterr().out
    assert "delete memory/real_life/family.md" in out
    assert "uploaded 0 (0 new, 0 changed), unchanged 3, deleted 1" in out
    assert keys(s3, bucket) == [
        "memory/real_life/MEMORY.md",
        "memory/real_life/deploys.md",
        "memory/real_life/topics/garden.md",
    ]
    body = s3.get_object(Bucket=bucket, Key="memory/real_life/deploys.md")["Body"].read()
    assert b"Wednesday" in body


def test_a_dry_run_writes_nothing(
    folder: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    s3.put_object(Bucket=bucket, Key="memory/au/seeded.md", Body=b"# Seeded\n")
    assert run("sync", str(folder), "--namespace", "au", "--bucket", bucket, "--dry-run") == 0

    out = capsys.readouterr().out
    assert "would upload memory/au/MEMORY.md (new)" in out
    assert "would upload 3 (3 new, 0 changed)" in out
    assert "leave memory/au/seeded.md (not in DIR; --delete would delete it)" in out
    assert "dry run" in out

    assert run("sync", str(folder), "--namespace", "au", "--bucket", bucket, "--dry-run", "--delete") == 0

    out = capsys.readouterr().out
    assert "would delete memory/au/seeded.md" in out
    assert "would delete 1" in out
    assert keys(s3, bucket) == ["memory/au/seeded.md"]


def test_files_the_ingest_would_refuse_are_listed_not_uploaded_and_fail_the_run(
    folder: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "latin1.md").write_bytes("# Café crème\n".encode("latin-1"))
    (folder / "binary.md").write_bytes(b"# x\x00y\n")
    s3.put_object(Bucket=bucket, Key="memory/real_life/latin1.md", Body=b"# old\n")

    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket, "--delete") == 1

    captured = capsys.readouterr()
    assert "refuse latin1.md (invalid_utf8: not UTF-8 text; save it as UTF-8)" in captured.err
    assert "refuse binary.md (nul_bytes: " in captured.err
    assert "2 files refused" in captured.err
    assert "upload memory/real_life/latin1.md" not in captured.out
    assert "refused 2" in captured.out
    assert keys(s3, bucket) == [
        "memory/real_life/MEMORY.md",
        "memory/real_life/deploys.md",
        "memory/real_life/family.md",
        "memory/real_life/latin1.md",  # a refused file's remote copy is not deleted, even with --delete
    ]
    assert s3.get_object(Bucket=bucket, Key="memory/real_life/latin1.md")["Body"].read() == b"# old\n"


def test_a_prefix_confines_uploads_and_deletes(
    folder: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    s3.put_object(Bucket=bucket, Key="memory/real_life/journal/day.md", Body=b"# Day\n")
    s3.put_object(Bucket=bucket, Key="memory/real_life/claude/stale.md", Body=b"# Stale\n")
    s3.put_object(Bucket=bucket, Key="memory/real_life/claude/.hidden/keep.md", Body=b"# Keep\n")

    code = run(
        "sync",
        str(folder),
        "--namespace",
        "real_life",
        "--prefix",
        "/claude/",
        "--bucket",
        bucket,
        "--delete",
    )

    assert code == 0
    assert keys(s3, bucket) == [
        "memory/real_life/claude/.hidden/keep.md",
        "memory/real_life/claude/MEMORY.md",
        "memory/real_life/claude/deploys.md",
        "memory/real_life/claude/family.md",
        "memory/real_life/journal/day.md",
    ]
    assert "deleted 1" in capsys.readouterr().out


def test_objects_uploaded_by_other_clients_are_compared_by_etag_then_by_content(
    folder: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    same = (folder / "deploys.md").read_bytes()
    edited = same.replace(b"Tuesday", b"Fridays")  # same length, other content
    assert len(edited) == len(same)
    s3.put_object(Bucket=bucket, Key="memory/real_life/deploys.md", Body=same)
    s3.put_object(Bucket=bucket, Key="memory/real_life/family.md", Body=(folder / "family.md").read_bytes())
    write(folder, "family.md", (folder / "family.md").read_text().replace("Sundays", "Mondays"))

    assert run("sync", str(folder), "--namespace", "real_life", "--bucket", bucket) == 0

    out = capsys.readouterr().out
    assert "upload memory/real_life/family.md (changed)" in out
    assert "upload memory/real_life/deploys.md" not in out, "an equal ETag proves equal content"
    assert "uploaded 2 (1 new, 1 changed), unchanged 1" in out


def test_a_missing_directory_is_a_one_line_error(
    tmp_path: Path, bucket: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"

    assert run("sync", str(missing), "--namespace", "real_life", "--bucket", bucket) == 1

    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("pandora-memory sync:") and "not a directory" in err


def test_an_empty_folder_never_wipes_the_namespace(
    tmp_path: Path, bucket: str, s3: "S3Client", capsys: pytest.CaptureFixture[str]
) -> None:
    s3.put_object(Bucket=bucket, Key="memory/real_life/keep.md", Body=b"# Keep\n")
    empty = tmp_path / "empty"
    empty.mkdir()

    assert run("sync", str(empty), "--namespace", "real_life", "--bucket", bucket, "--delete") == 1

    assert "nothing was changed" in capsys.readouterr().err
    assert keys(s3, bucket) == ["memory/real_life/keep.md"]

    assert run("sync", str(empty), "--namespace", "real_life", "--bucket", bucket) == 0
    assert "left 1 not in DIR" in capsys.readouterr().out
    assert keys(s3, bucket) == ["memory/real_life/keep.md"]


def test_local_without_a_running_stack_is_a_one_line_error(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)

    assert run("sync", str(folder), "--namespace", "real_life", "--local") == 1

    err = capsys.readouterr().err
    assert "make dev" in err and err.count("\n") == 1


def test_a_target_is_required_and_exclusive(folder: Path) -> None:
    with pytest.raises(SystemExit):
        run("sync", str(folder), "--namespace", "real_life")
    with pytest.raises(SystemExit):
        run("sync", str(folder), "--namespace", "real_life", "--local", "--bucket", "b")
    with pytest.raises(SystemExit):
        run("sync", str(folder), "--namespace", "everything", "--bucket", "b")
