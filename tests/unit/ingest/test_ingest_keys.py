"""Object keys: `memory/<namespace>/<logical path>.md` parses; everything else names its reason."""

import pytest
from pandora_memory.ingest.outcomes import IngestRejectedError
from pandora_memory.ingest.s3_keys import (
    MAX_LOGICAL_PATH_BYTES,
    MemoryKey,
    parse_memory_key,
    projection_manifest_key,
    projection_shard_key,
    revision_snapshot_key,
)
from pandora_memory.namespaces import Namespace


@pytest.mark.parametrize(
    ("key", "namespace", "path"),
    [
        ("memory/real_life/plan.md", Namespace.REAL_LIFE, "plan"),
        ("memory/au/world/northern isles.md", Namespace.AU, "world/northern isles"),
        ("memory/real_life/projects/pandora notes.md", Namespace.REAL_LIFE, "projects/pandora notes"),
        ("memory/real_life/journal/2024-05-01.md", Namespace.REAL_LIFE, "journal/2024-05-01"),
        ("memory/real_life/C# notes.md", Namespace.REAL_LIFE, "C# notes"),
        ("memory/au/..hidden.md", Namespace.AU, "..hidden"),
        ("memory/au/café/été.md", Namespace.AU, "café/été"),
    ],
)
def test_a_memory_key_names_its_namespace_and_logical_path(key: str, namespace: Namespace, path: str) -> None:
    parsed = parse_memory_key(key)

    assert parsed == MemoryKey(namespace, path)
    assert parsed.object_key == key


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("notes/real_life/plan.md", "other_prefix"),
        ("Memory/real_life/plan.md", "other_prefix"),
        ("revisions/real_life/abc.md", "other_prefix"),
        ("memory/work/plan.md", "unknown_namespace"),
        ("memory/Real_Life/plan.md", "unknown_namespace"),
        ("memory/ au/plan.md", "unknown_namespace"),
        ("memory/plan.md", "unknown_namespace"),
        ("memory/real_life/plan.txt", "not_markdown"),
        ("memory/real_life/plan.MD", "not_markdown"),
        ("memory/real_life/plan.md.bak", "not_markdown"),
        ("memory/real_life/../au/plan.md", "path_traversal"),
        ("memory/real_life/notes/./plan.md", "path_traversal"),
        ("memory/real_life/notes/../../plan.md", "path_traversal"),
        ("memory/real_life/notes\\..\\plan.md", "path_traversal"),
        ("memory/real_life/..", "path_traversal"),
        ("memory/real_life//plan.md", "invalid_path"),
        ("memory/real_life/plan/.md", "invalid_path"),
        ("memory/real_life/.md", "invalid_path"),
        ("memory/real_life/pl\x00an.md", "invalid_path"),
        ("memory/real_life/pl\nan.md", "invalid_path"),
        ("memory/real_life/" + "x" * (MAX_LOGICAL_PATH_BYTES + 1) + ".md", "invalid_path"),
    ],
)
def test_a_bad_key_is_refused_with_its_reason(key: str, reason: str) -> None:
    with pytest.raises(IngestRejectedError) as refused:
        parse_memory_key(key)

    assert refused.value.reason.value == reason


def test_the_longest_allowed_path_still_fits_a_chunk_key() -> None:
    path = "é" * (MAX_LOGICAL_PATH_BYTES // 2)
    parsed = parse_memory_key(f"memory/au/{path}.md")

    chunk_key = f"{parsed.logical_path}#{'0' * 64}#00000"
    assert len(chunk_key.encode()) < 1024


def test_derived_keys_start_with_their_namespace() -> None:
    assert revision_snapshot_key(Namespace.AU, "ab" * 32).startswith("revisions/au/")
    assert projection_manifest_key(Namespace.REAL_LIFE, 7, "cd" * 32) == (
        f"projections/real_life/manifests/000000000007-{'cd' * 8}.json.gz"
    )
    assert projection_shard_key(Namespace.AU, "01", 7, "cd" * 32) == (
        f"projections/au/shards/s01/000000000007-{'cd' * 8}.idx.gz"
    )
