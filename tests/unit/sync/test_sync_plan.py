"""The sync decision as a pure function: new, changed, unchanged and deleted, by content digest."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pandora_memory.sync.local_files import digest_file
from pandora_memory.sync.plan import (
    LocalFile,
    RemoteObject,
    UploadReason,
    keys_needing_digest,
    plan_sync,
)

BASE = "memory/real_life/claude/"


def local(path: str, text: str) -> LocalFile:
    return digest_file(path, text.encode("utf-8"))


def remote(path: str, text: str, *, etag: str | None = None, sha256: str | None = None) -> RemoteObject:
    data = text.encode("utf-8")
    md5 = hashlib.md5(data, usedforsecurity=False).hexdigest()
    return RemoteObject(BASE + path, len(data), f'"{md5}"' if etag is None else etag, sha256)


def test_new_changed_unchanged_and_deleted_files() -> None:
    files = {
        "MEMORY.md": local("MEMORY.md", "# Memory\n\n- deploys on Tuesday\n"),
        "topics/new.md": local("topics/new.md", "# New\n"),
        "topics/edited.md": local("topics/edited.md", "# Edited\n\nsecond draft\n"),
    }
    objects = {
        BASE + "MEMORY.md": remote("MEMORY.md", "# Memory\n\n- deploys on Tuesday\n"),
        BASE + "topics/edited.md": remote("topics/edited.md", "# Edited\n\nfirst draft, longer\n"),
        BASE + "topics/gone.md": remote("topics/gone.md", "# Gone\n"),
    }

    plan = plan_sync(files, objects, BASE, delete=True)

    assert [(u.relative_path, u.reason) for u in plan.uploads] == [
        ("topics/edited.md", UploadReason.CHANGED),
        ("topics/new.md", UploadReason.NEW),
    ]
    assert plan.unchanged == (BASE + "MEMORY.md",)
    assert plan.deletes == (BASE + "topics/gone.md",)
    assert plan.remote_only == ()
    assert (plan.new, plan.changed, plan.empty) == (1, 1, False)

    kept = plan_sync(files, objects, BASE)
    assert kept.deletes == (), "without delete nothing is deleted"
    assert kept.remote_only == (BASE + "topics/gone.md",)
    assert kept.uploads == plan.uploads


def test_same_size_content_is_settled_by_the_stored_sha256_when_the_etag_is_no_proof() -> None:
    text, other = "# Plan\n\nship friday\n", "# Plan\n\nship monday\n"
    assert len(text) == len(other)
    files = {"plan.md": local("plan.md", text), "notes.md": local("notes.md", text)}
    kms_etag = '"' + "f" * 32 + '"'  # an ETag that is not the MD5 (KMS, or another upload method)
    objects = {
        BASE + "plan.md": remote("plan.md", other, etag=kms_etag),
        BASE + "notes.md": remote("notes.md", text, etag='"0123456789abcdef0123456789abcdef-2"'),
    }

    assert keys_needing_digest(files, objects, BASE) == [BASE + "notes.md", BASE + "plan.md"]
    unknown = plan_sync(files, objects, BASE)
    assert {u.relative_path for u in unknown.uploads} == {"plan.md", "notes.md"}, "unknown means upload"

    digest = hashlib.sha256(text.encode()).hexdigest()
    settled = {
        BASE + "plan.md": objects[BASE + "plan.md"].with_sha256(hashlib.sha256(other.encode()).hexdigest()),
        BASE + "notes.md": objects[BASE + "notes.md"].with_sha256(digest),
    }
    plan = plan_sync(files, settled, BASE)
    assert [(u.relative_path, u.reason) for u in plan.uploads] == [("plan.md", UploadReason.CHANGED)]
    assert plan.unchanged == (BASE + "notes.md",)


def test_a_matching_etag_needs_no_digest_and_a_different_size_is_a_change() -> None:
    files = {"a.md": local("a.md", "same"), "b.md": local("b.md", "grown text")}
    objects = {BASE + "a.md": remote("a.md", "same"), BASE + "b.md": remote("b.md", "short")}

    assert keys_needing_digest(files, objects, BASE) == []
    plan = plan_sync(files, objects, BASE)
    assert plan.unchanged == (BASE + "a.md",)
    assert [u.reason for u in plan.uploads] == [UploadReason.CHANGED]


def test_only_managed_keys_under_the_base_are_ever_deleted() -> None:
    objects = {
        key: RemoteObject(key, 1, '"x"')
        for key in (
            BASE + "old.md",
            BASE + ".obsidian/cache.md",
            BASE + "image.png",
            "memory/real_life/elsewhere/old.md",
            "memory/real_life/claude-archive/old.md",
        )
    }

    plan = plan_sync({}, objects, BASE, delete=True)

    assert plan.deletes == (BASE + "old.md",)


def test_files_kept_locally_but_not_uploaded_are_not_deleted_remotely() -> None:
    objects = {BASE + "huge.md": RemoteObject(BASE + "huge.md", 10, '"x"')}

    assert plan_sync({}, objects, BASE, keep=["huge.md"], delete=True).deletes == ()
    assert plan_sync({}, objects, BASE, delete=True).deletes == (BASE + "huge.md",)


def test_a_synced_folder_plans_nothing() -> None:
    files = {f"t{n}.md": local(f"t{n}.md", f"# Topic {n}\n") for n in range(5)}
    objects = {BASE + path: remote(path, f"# Topic {path[1]}\n") for path in files}

    plan = plan_sync(files, objects, BASE)

    assert plan.empty
    assert len(plan.unchanged) == 5


_paths = st.lists(st.sampled_from(["a.md", "b.md", "c/d.md", "c/e.md", "f.md"]), unique=True)


@given(_paths, _paths, st.booleans(), st.data())
def test_every_path_lands_in_exactly_one_bucket(
    local_paths: list[str], remote_paths: list[str], delete: bool, data: st.DataObject
) -> None:
    files = {path: local(path, data.draw(st.sampled_from(["x", "yy"]))) for path in local_paths}
    objects = {BASE + path: remote(path, data.draw(st.sampled_from(["x", "yy"]))) for path in remote_paths}

    plan = plan_sync(files, objects, BASE, delete=delete)

    uploaded = [u.key for u in plan.uploads]
    everything = uploaded + list(plan.unchanged) + list(plan.deletes) + list(plan.remote_only)
    assert sorted(everything) == sorted(set(everything))
    assert set(everything) == {BASE + path for path in {*local_paths, *remote_paths}}
    missing = {BASE + path for path in set(remote_paths) - set(local_paths)}
    assert set(plan.deletes if delete else plan.remote_only) == missing
    assert not (plan.remote_only if delete else plan.deletes)
    for upload in plan.uploads:
        assert (upload.reason is UploadReason.NEW) == (upload.key not in objects)


@pytest.mark.parametrize("text", ["", "# Only a heading\n", "ünïcödé — 카엘\n"])
def test_digest_is_of_the_bytes(text: str) -> None:
    data = text.encode("utf-8")
    file = digest_file("x.md", data)
    assert file.size == len(data)
    assert file.sha256 == hashlib.sha256(data).hexdigest()
