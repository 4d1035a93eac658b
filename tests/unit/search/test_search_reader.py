"""The search reader over Markdown ingested by the real pipeline: ranking, prefixes, namespaces,
updates, deletes, failed replacements, approved memories and the separate history call."""

import gzip
from typing import Any

import pytest
from botocore.exceptions import ClientError
from pandora_memory.ingest.outcomes import IngestStepError
from pandora_memory.ingest.projections import ProjectionPointer, ProjectionRepository
from pandora_memory.namespaces import Namespace, UnknownNamespaceError
from pandora_memory.policy.models import MemoryType
from pandora_memory.search.index import SearchEntry, analyse_entry
from pandora_memory.search.reader import NamespaceMismatchError, SearchService, SearchUnavailableError
from pandora_memory.search.segment import build_segment
from pandora_memory.search.shards import Shard
from pandora_memory.storage.records import to_item
from unit.search.legacy_snapshot import version_1
from unit.search.search_harness import SearchHarness, search_fixture  # noqa: F401 - the `search` fixture

DEPLOY = """# Deploy notes

## Rollback

Roll back by pointing the live alias at the previous Lambda version.

## Regions

Production runs in eu-west-1; the staging stack lives in us-east-1.
"""
GARDEN = "# Garden\n\nThe tomatoes need watering every morning before work.\n"
RECIPES = "# Recipes\n\nSunday pancakes: oat milk, two eggs, a pinch of salt.\n"
PLAN_V1 = "# Plan\n\nShip the lighthouse release on Friday.\n"
PLAN_V2 = "# Plan\n\nShip the lighthouse release on Monday after the harbour review.\n"


def test_results_are_ranked_chunks_with_their_path_heading_and_active_revision(
    search: SearchHarness,
) -> None:
    search.ingest.upload("projects/deploy-notes", DEPLOY)
    search.ingest.upload("home/garden", GARDEN)
    search.ingest.upload("home/recipes", RECIPES)

    results = search.search("real_life", "how do I roll back the live alias", limit=3)

    assert results, "the rollback section must be found"
    top = results[0]
    assert top.logical_path == "projects/deploy-notes"
    assert top.kind == "chunk"
    assert top.namespace is Namespace.REAL_LIFE
    assert "live alias" in top.text
    assert top.heading_path[0] == "Deploy notes"
    document = search.ingest.document("projects/deploy-notes")
    assert document is not None
    assert top.revision_id == document["active_revision"]
    scores = [result.score for result in results]
    assert scores == sorted(scores, reverse=True)
    assert all(score > 0 for score in scores)
    assert search.paths("real_life", "oat milk pancakes")[0] == "home/recipes"


def test_path_prefix_keeps_results_under_a_folder_or_one_file(search: SearchHarness) -> None:
    search.ingest.upload("projects/deploy-notes", DEPLOY)
    search.ingest.upload("projects/plan", PLAN_V1)
    search.ingest.upload("home/garden", "# Garden\n\nShip the seed order on Friday.\n")

    everywhere = set(search.paths("real_life", "ship on friday", limit=10))
    assert everywhere == {"projects/plan", "home/garden"}
    assert search.paths("real_life", "ship on friday", path_prefix="home/") == ["home/garden"]
    assert search.paths("real_life", "ship on friday", path_prefix="projects") == ["projects/plan"]
    assert search.paths("real_life", "ship on friday", path_prefix="/projects/plan") == ["projects/plan"]
    assert search.paths("real_life", "ship on friday", path_prefix="proj") == []


def test_namespaces_never_mix_even_with_the_same_words(search: SearchHarness) -> None:
    search.ingest.upload("world/harbour", "# Harbour\n\nThe lighthouse keeper guards the harbour.\n")
    search.ingest.upload(
        "world/harbour", "# Harbour\n\nThe lighthouse keeper guards the harbour of Vel.\n", namespace="au"
    )
    search.ingest.upload("world/dragons", "# Dragons\n\nKael rides the ember dragon.\n", namespace="au")
    search.approve_memory("The lighthouse keeper is my uncle", Namespace.REAL_LIFE)
    search.approve_memory("Kael's lighthouse is canon", Namespace.AU, MemoryType.AU_CANON)

    real = search.search("real_life", "lighthouse keeper harbour", limit=10)
    fiction = search.search(Namespace.AU, "lighthouse keeper harbour", limit=10)

    assert {result.namespace for result in real} == {Namespace.REAL_LIFE}
    assert {result.namespace for result in fiction} == {Namespace.AU}
    assert not any("Vel" in result.text or "Kael" in result.text for result in real)
    assert any("Vel" in result.text for result in fiction)
    assert search.search("real_life", "ember dragon") == []
    assert search.paths("au", "ember dragon") == ["world/dragons"]
    with pytest.raises(UnknownNamespaceError):
        search.search("everything", "lighthouse")


def test_an_update_replaces_the_stale_rows(search: SearchHarness) -> None:
    search.ingest.upload("projects/plan", PLAN_V1)
    assert "Friday" in search.search("real_life", "lighthouse release")[0].text

    search.ingest.upload("projects/plan", PLAN_V2)

    results = search.search("real_life", "lighthouse release friday", limit=10)
    assert [result.logical_path for result in results] == ["projects/plan"]
    assert "Monday" in results[0].text
    assert "Friday" not in results[0].text
    assert search.search("real_life", "harbour review")[0].logical_path == "projects/plan"


def test_a_delete_removes_the_rows(search: SearchHarness) -> None:
    search.ingest.upload("home/garden", GARDEN)
    search.ingest.upload("home/recipes", RECIPES)
    assert search.paths("real_life", "tomatoes watering") == ["home/garden"]

    search.ingest.delete("home/garden")

    assert search.search("real_life", "tomatoes watering") == []
    assert search.paths("real_life", "pancakes") == ["home/recipes"]


def test_a_failed_replacement_keeps_the_previous_version_searchable(
    search: SearchHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    search.ingest.upload("projects/plan", PLAN_V1)
    original = ProjectionRepository.swap

    def failing(self: ProjectionRepository, *args: Any, **kwargs: Any) -> Any:
        raise ClientError({"Error": {"Code": "InternalServerError", "Message": "injected"}}, "Swap")

    monkeypatch.setattr(ProjectionRepository, "swap", failing)
    update = search.ingest.put("projects/plan", PLAN_V2)
    with pytest.raises(IngestStepError):
        search.ingest.deliver(update)

    document = search.ingest.document("projects/plan")
    assert document is not None
    assert document["projection_status"] == "pending"
    [result] = search.search("real_life", "lighthouse release")
    assert "Friday" in result.text
    assert search.search("real_life", "harbour review") == []

    monkeypatch.setattr(ProjectionRepository, "swap", original)
    search.ingest.deliver(update)
    [result] = search.search("real_life", "lighthouse release")
    assert "Monday" in result.text


def test_history_is_an_explicit_call_and_never_part_of_search(search: SearchHarness) -> None:
    search.ingest.upload("projects/plan", PLAN_V1)
    search.ingest.upload("projects/plan", PLAN_V2)
    search.calls.take()

    results = search.search("real_life", "lighthouse release friday monday", limit=10)

    assert len(results) == 1
    revisions_table = search.ingest.stack.table_names["RevisionsTable"]
    assert search.calls.tables and revisions_table not in search.calls.tables
    search.calls.take()
    history = search.service.history("real_life", "projects/plan")
    assert [record.change_kind for record in history] == ["create", "update"]
    old, new = history
    assert old.superseded_at is not None and old.superseded_by == new.revision_key
    assert old.summary
    assert results[0].revision_id == new.revision_key
    assert search.calls.tables == [revisions_table]
    assert search.calls.take() == [("dynamodb", "Query")]
    assert search.service.history("au", "projects/plan") == []


def test_approved_memories_are_searchable_entries_of_kind_memory(search: SearchHarness) -> None:
    search.ingest.upload("home/recipes", RECIPES)
    record = search.approve_memory("Prefers oat milk in coffee", memory_type=MemoryType.PREFERENCE)
    search.approve_memory("Renew the passport before March", memory_type=MemoryType.OPEN_LOOP, resolved=True)

    results = search.search("real_life", "oat milk", limit=5)

    memories = [result for result in results if result.kind == "memory"]
    assert len(memories) == 1
    assert memories[0].logical_path == "memory/preference"
    assert memories[0].heading_path == ("preference",)
    assert memories[0].revision_id == record.id
    assert {result.kind for result in results} == {"memory", "chunk"}
    assert search.search("real_life", "passport renew") == [], "a resolved open loop is done"
    only_memories = search.search("real_life", "oat milk", path_prefix="memory/")
    assert [result.kind for result in only_memories] == ["memory"]


def test_empty_queries_and_limits_read_nothing(search: SearchHarness) -> None:
    search.ingest.upload("home/garden", GARDEN)
    search.calls.take()

    assert search.search("real_life", "   ") == []
    assert search.search("real_life", "tomatoes", limit=0) == []
    assert search.calls.take() == []
    assert len(search.search("real_life", "tomatoes", limit=10_000)) == 1


def _install_legacy_pointer(search: SearchHarness, body: bytes) -> str:
    """The pointer as written before shards: one whole-namespace snapshot and the document map."""
    ingest = search.ingest
    documents = ingest.projected_documents()
    generation = ingest.pointer().generation
    key = f"projections/real_life/{generation:012d}-{'0' * 16}.json.gz"
    ingest.s3.put_object(Bucket=ingest.bucket, Key=key, Body=body)
    ingest.dynamodb.put_item(
        TableName=ingest.settings.projections_table,
        Item=to_item(
            {"namespace": "real_life", "generation": generation, "snapshot_key": key, "documents": documents}
        ),
    )
    return key


def test_a_pre_shard_version_1_snapshot_is_served_and_cut_into_shards_by_the_next_ingest(
    search: SearchHarness,
) -> None:
    search.ingest.upload("projects/deploy-notes", DEPLOY)
    search.ingest.upload("home/garden", GARDEN)
    expected = search.search("real_life", "roll back the live alias", limit=5)
    legacy_key = _install_legacy_pointer(search, version_1(search.ingest.searchable()))
    search.service.forget()

    assert search.search("real_life", "roll back the live alias", limit=5) == expected
    assert search.ingest.pointer().snapshot_key == legacy_key

    search.ingest.upload("home/recipes", RECIPES)
    assert search.paths("real_life", "oat milk pancakes")[0] == "home/recipes"
    assert search.paths("real_life", "roll back the live alias", limit=1) == [expected[0].logical_path]
    pointer = search.ingest.pointer()
    assert pointer.manifest_key is not None and pointer.legacy_snapshot_key is None
    assert pointer.legacy_documents == {}, "the swap drops the pointer's document map"
    assert set(search.ingest.projected_documents()) == {
        "projects/deploy-notes",
        "home/garden",
        "home/recipes",
    }
    manifest = search.ingest.projections.manifest(pointer)
    assert manifest is not None
    for ref in manifest.shards:
        stored = search.ingest.s3.get_object(Bucket=search.ingest.bucket, Key=ref.key)
        assert ref.key.endswith(".idx.gz")
        assert gzip.decompress(stored["Body"].read()).startswith(b"pandora-search-index")


class _ForeignSnapshot:
    """A projection whose shard wrongly holds an entry of the other namespace."""

    def pointer(self, namespace: Namespace, *, consistent: bool = False) -> ProjectionPointer:
        return ProjectionPointer(namespace=namespace, generation=1, manifest_key="projections/x.json.gz")

    def shard_keys(self, pointer: ProjectionPointer) -> tuple[str, ...]:
        return (f"projections/{pointer.namespace.value}/shards/s/1.idx.gz",)

    def load_shard(self, namespace: Namespace, key: str, label: str = "") -> Shard:
        entry = SearchEntry("world/harbour#abc#00000", "au", "world/harbour", (), "Vel harbour", "r")
        return Shard(label, build_segment([analyse_entry(entry)]), {"world/harbour": "abc"})


def test_a_snapshot_naming_another_namespace_is_refused_not_served() -> None:
    service = SearchService(_ForeignSnapshot(), lambda namespace: [])

    with pytest.raises(NamespaceMismatchError):
        service.search("real_life", "harbour")


class _Unreachable(_ForeignSnapshot):
    def pointer(self, namespace: Namespace, *, consistent: bool = False) -> ProjectionPointer:
        raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "GetItem")


def test_a_failed_pointer_read_is_reported_as_unavailable() -> None:
    service = SearchService(_Unreachable(), lambda namespace: [])

    with pytest.raises(SearchUnavailableError) as raised:
        service.search("real_life", "harbour")
    assert raised.value.step == "pointer"
    assert "slow down" not in str(raised.value)


def test_a_pointer_naming_another_namespaces_objects_is_refused(search: SearchHarness) -> None:
    search.ingest.upload("world/harbour", "# Harbour\n\nThe lighthouse keeper of Vel.\n", namespace="au")
    search.ingest.upload("home/garden", GARDEN)
    au = search.ingest.pointer("au")
    assert au.manifest_key is not None and au.manifest_key.startswith("projections/au/")
    assert au.inline_shard_keys
    table = search.ingest.settings.projections_table
    real_life = {"namespace": {"S": "real_life"}}
    foreign_keys = {"L": [{"S": key} for key in au.inline_shard_keys]}
    updates = (
        # Read through the manifest: the pointer lists no shard keys.
        (
            "SET manifest_key = :value, generation = generation + :one REMOVE shard_keys",
            {"S": au.manifest_key},
        ),
        # Listed on the pointer itself.
        ("SET shard_keys = :value, generation = generation + :one", foreign_keys),
    )
    for expression, value in updates:
        search.ingest.dynamodb.update_item(
            TableName=table,
            Key=real_life,
            UpdateExpression=expression,
            ExpressionAttributeValues={":value": value, ":one": {"N": "1"}},
        )
        with pytest.raises(SearchUnavailableError) as raised:
            search.search("real_life", "lighthouse keeper")
        assert raised.value.step == "snapshot"
    assert search.paths("au", "lighthouse keeper") == ["world/harbour"]
