"""The storage decision's mutation tests: what each kind of change writes, and what search then sees."""

import json
from typing import Any

import pytest
from pandora_memory.ingest.outcomes import ChangeKind, IngestStepError, OutcomeKind
from pandora_memory.ingest.projections import ProjectionRepository
from pandora_memory.markdown.chunking import CHUNKER_NAME, CHUNKER_VERSION
from pandora_memory.namespaces import Namespace
from pandora_memory.search.index import LexicalIndex
from unit.ingest.ingest_harness import IngestHarness, ingest_fixture  # noqa: F401 - the `ingest` fixture

PLAN_V1 = (
    "# Plan\n\nShip the ingest pipeline on Friday.\n\n## Risks\n\nThe projection swap must stay atomic.\n"
)
PLAN_V2 = "# Plan\n\nShip the ingest pipeline on Monday.\n\n## Owners\n\nAda reviews the projection swap.\n"


def test_a_new_document_becomes_a_revision_its_chunks_and_a_searchable_projection(
    ingest: IngestHarness,
) -> None:
    outcome = ingest.upload("projects/plan", PLAN_V1)

    assert outcome.kind is OutcomeKind.INGESTED
    assert outcome.change_kind is ChangeKind.CREATE
    document = ingest.document("projects/plan")
    assert document is not None
    assert document["projection_status"] == "active"
    assert document["active_revision"] == document["current_revision"] == outcome.revision_key
    [revision] = ingest.history("projects/plan")
    assert revision.change_kind == "create"
    assert revision.chunker is not None
    assert revision.chunker["name"] == CHUNKER_NAME
    assert revision.chunker["version"] == CHUNKER_VERSION
    assert revision.chunker["config"]["strategy"] == "adaptive"
    assert revision.chunk_count == len(ingest.chunk_items("projects/plan")) > 0
    assert "Friday" in ingest.searchable_text("projects/plan")
    assert ingest.projected_documents() == {"projects/plan": revision.content_hash}
    assert ingest.metrics.documents == ["create"]
    assert ingest.metrics.swaps == 1


def test_source_hash_and_redacted_hash_are_kept_apart(ingest: IngestHarness) -> None:
    ingest.upload(
        "ops/deploy", "# Deploy\n\nUse token ghp_Zx81Qw02Er93Ty74Ui65Op56As47Df38Gh29 for the bot.\n"
    )

    document = ingest.document("ops/deploy")
    assert document is not None
    assert document["source_hash"] != document["current_hash"]
    assert document["source_size"] > 0


def test_identical_content_at_two_paths_is_two_documents(ingest: IngestHarness) -> None:
    ingest.upload("a/notes", PLAN_V1)
    ingest.upload("b/notes", PLAN_V1)

    documents = {item["logical_path"] for item in ingest.items("DocumentsTable")}
    assert documents == {"a/notes", "b/notes"}
    assert {revision.logical_path for revision in ingest.history("a/notes") + ingest.history("b/notes")} == {
        "a/notes",
        "b/notes",
    }
    searchable_paths = {entry.logical_path for entry in ingest.searchable()}
    assert searchable_paths == {"a/notes", "b/notes"}
    assert ingest.chunk_items("a/notes") and ingest.chunk_items("b/notes")


def test_reuploading_identical_content_writes_no_revision_and_no_chunks(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    revisions_before = ingest.items("RevisionsTable")
    chunks_before = ingest.items("ChunksTable")
    generation_before = ingest.pointer().generation
    first = ingest.document("projects/plan")

    outcome = ingest.upload("projects/plan", PLAN_V1)

    assert outcome.kind is OutcomeKind.UNCHANGED
    assert ingest.items("RevisionsTable") == revisions_before
    assert ingest.items("ChunksTable") == chunks_before
    assert ingest.pointer().generation == generation_before
    document = ingest.document("projects/plan")
    assert first is not None and document is not None
    assert document["version_id"] != first["version_id"]  # the bookkeeping follows the new upload
    assert document["active_revision"] == first["active_revision"]
    assert ingest.metrics.documents == ["create", "unchanged"]


def test_an_update_replaces_the_stale_search_rows(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    outcome = ingest.upload("projects/plan", PLAN_V2)

    assert outcome.change_kind is ChangeKind.UPDATE
    searchable = ingest.searchable_text("projects/plan")
    assert "Monday" in searchable
    assert "Friday" not in searchable
    assert "Risks" not in searchable
    old, new = ingest.history("projects/plan")
    assert new.revision_key == outcome.revision_key
    assert old.superseded_by == new.revision_key
    assert old.superseded_at is not None
    assert old.summary is not None and "sections added: Owners" in old.summary
    assert old.diff is not None and "-Ship the ingest pipeline on Friday." in old.diff
    # The old revision's chunks stay as history, keyed by their own revision, out of search.
    revisions_with_chunks = {item["revision_key"] for item in ingest.chunk_items("projects/plan")}
    assert revisions_with_chunks == {old.revision_key, new.revision_key}
    assert {entry.revision_id for entry in ingest.searchable()} == {new.revision_key}


def test_reverting_to_earlier_text_reuses_its_revision_and_clears_its_supersession(
    ingest: IngestHarness,
) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    ingest.upload("projects/plan", PLAN_V2)
    outcome = ingest.upload("projects/plan", PLAN_V1)

    assert outcome.kind is OutcomeKind.INGESTED
    history = {revision.revision_key: revision for revision in ingest.history("projects/plan")}
    assert len(history) == 2
    reverted = history[outcome.revision_key or ""]
    assert reverted.superseded_at is None
    assert "Friday" in ingest.searchable_text("projects/plan")


def test_a_delete_tombstones_the_document_and_removes_its_search_rows(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    ingest.upload("projects/other", PLAN_V2)

    outcome = ingest.delete("projects/plan")

    assert outcome.change_kind is ChangeKind.DELETE
    assert {entry.logical_path for entry in ingest.searchable()} == {"projects/other"}
    assert "projects/plan" not in ingest.projected_documents()
    document = ingest.document("projects/plan")
    assert document is not None
    assert document["tombstoned"] is True
    assert "active_revision" not in document
    assert document["projection_status"] == "active"
    created, deleted = ingest.history("projects/plan")
    assert deleted.change_kind == "delete"
    assert created.superseded_by == deleted.revision_key
    assert created.summary == "deleted"


def test_a_delete_then_create_of_the_same_text_is_a_rename(ingest: IngestHarness) -> None:
    ingest.upload("drafts/plan", PLAN_V1)
    ingest.delete("drafts/plan")

    outcome = ingest.upload("projects/plan", PLAN_V1)

    assert outcome.change_kind is ChangeKind.RENAME
    [revision] = ingest.history("projects/plan")
    [original, _deleted] = ingest.history("drafts/plan")
    assert revision.change_kind == "rename"
    assert revision.previous_logical_path == "drafts/plan"
    assert revision.content_hash == original.content_hash
    assert {entry.logical_path for entry in ingest.searchable()} == {"projects/plan"}
    old = ingest.document("drafts/plan")
    assert old is not None and old["renamed_to"] == "projects/plan"


def test_a_rename_source_is_used_once(ingest: IngestHarness) -> None:
    ingest.upload("drafts/plan", PLAN_V1)
    ingest.delete("drafts/plan")
    assert ingest.upload("projects/plan", PLAN_V1).change_kind is ChangeKind.RENAME

    assert ingest.upload("archive/plan", PLAN_V1).change_kind is ChangeKind.CREATE


def test_the_same_text_deleted_at_several_paths_makes_the_create_a_plain_create(
    ingest: IngestHarness,
) -> None:
    ingest.upload("a/plan", PLAN_V1)
    ingest.upload("b/plan", PLAN_V1)
    ingest.clock.advance(ingest.settings.rename_window_seconds + 1)  # long-standing twins, not a copy
    ingest.delete("a/plan")
    ingest.delete("b/plan")

    outcome = ingest.upload("c/plan", PLAN_V1)

    assert outcome.change_kind is ChangeKind.CREATE
    [revision] = ingest.history("c/plan")
    assert revision.previous_logical_path is None


def test_a_copy_then_delete_is_recorded_as_a_rename_on_the_delete(ingest: IngestHarness) -> None:
    """S3 renames arrive as a create of the new key, then a delete of the old one."""
    ingest.upload("drafts/plan", PLAN_V1)
    assert ingest.upload("projects/plan", PLAN_V1).change_kind is ChangeKind.CREATE

    outcome = ingest.delete("drafts/plan")

    assert outcome.change_kind is ChangeKind.RENAME
    [original, moved] = ingest.history("drafts/plan")
    assert moved.change_kind == "rename" and moved.renamed_to == "projects/plan"
    assert original.superseded_by == moved.revision_key and original.summary == "renamed to projects/plan"
    old = ingest.document("drafts/plan")
    assert old is not None and old["tombstoned"] is True and old["renamed_to"] == "projects/plan"
    assert [revision.change_kind for revision in ingest.history("projects/plan")] == ["create"]
    assert {entry.logical_path for entry in ingest.searchable()} == {"projects/plan"}
    assert ingest.metrics.documents == ["create", "create", "rename"]
    # The consumed tombstone is the source of no later rename.
    assert ingest.upload("archive/plan", PLAN_V1).change_kind is ChangeKind.CREATE


def test_a_delete_is_a_plain_delete_when_the_copy_is_ambiguous_old_or_edited(ingest: IngestHarness) -> None:
    ingest.upload("a/plan", PLAN_V1)
    ingest.upload("b/plan", PLAN_V1)
    ingest.upload("c/plan", PLAN_V1)
    assert ingest.delete("a/plan").change_kind is ChangeKind.DELETE, "two copies: which one is unknowable"

    ingest.upload("d/notes", PLAN_V2)
    ingest.upload("e/notes", PLAN_V1)
    ingest.upload("e/notes", PLAN_V2)  # an edit: e/notes is no fresh copy of d/notes
    assert ingest.delete("d/notes").change_kind is ChangeKind.DELETE

    ingest.upload("f/log", "# Log\n\nKept twice on purpose.\n")
    ingest.upload("g/log", "# Log\n\nKept twice on purpose.\n")
    ingest.clock.advance(ingest.settings.rename_window_seconds + 1)
    assert ingest.delete("f/log").change_kind is ChangeKind.DELETE, "the copy is older than the window"
    assert "renamed_to" not in (ingest.document("f/log") or {})


def test_a_rename_on_delete_whose_copy_changed_before_the_swap_is_retried_as_a_delete(
    ingest: IngestHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest.upload("drafts/plan", PLAN_V1)
    ingest.upload("projects/plan", PLAN_V1)
    original = ProjectionRepository.swap
    edited: list[str] = []

    def edit_first(self: ProjectionRepository, *args: Any, **kwargs: Any) -> Any:
        if not edited:
            edited.append("projects/plan")
            ingest.upload("projects/plan", PLAN_V2)  # the copy is edited between lookup and swap
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ProjectionRepository, "swap", edit_first)
    record = ingest.remove("drafts/plan")
    with pytest.raises(IngestStepError):
        ingest.deliver(record)
    assert "Friday" in ingest.searchable_text("drafts/plan"), "the refused swap hid nothing"

    outcome = ingest.deliver(record)

    assert outcome.change_kind is ChangeKind.DELETE
    old = ingest.document("drafts/plan")
    assert old is not None and "renamed_to" not in old
    assert {entry.logical_path for entry in ingest.searchable()} == {"projects/plan"}


def test_a_create_long_after_a_delete_is_not_a_rename(ingest: IngestHarness) -> None:
    ingest.upload("drafts/plan", PLAN_V1)
    ingest.delete("drafts/plan")
    ingest.clock.advance(ingest.settings.rename_window_seconds + 1)

    assert ingest.upload("projects/plan", PLAN_V1).change_kind is ChangeKind.CREATE


def test_recreating_a_deleted_path_makes_it_searchable_again(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    ingest.delete("projects/plan")

    outcome = ingest.upload("projects/plan", PLAN_V2)

    assert outcome.change_kind is ChangeKind.CREATE
    document = ingest.document("projects/plan")
    assert document is not None and document["tombstoned"] is False
    assert "Monday" in ingest.searchable_text("projects/plan")


def test_history_lists_only_the_exact_path_even_when_another_path_extends_it(ingest: IngestHarness) -> None:
    ingest.upload("notes", PLAN_V1)
    ingest.upload("notes#2", PLAN_V2)

    assert [revision.logical_path for revision in ingest.history("notes")] == ["notes"]
    assert [revision.logical_path for revision in ingest.history("notes#2")] == ["notes#2"]


def test_namespaces_never_share_a_projection(ingest: IngestHarness) -> None:
    ingest.upload("world/map", "# Map\n\nThe northern isles.\n", namespace="au")
    ingest.upload("projects/plan", PLAN_V1)

    assert {entry.namespace for entry in ingest.searchable("au")} == {"au"}
    assert {entry.namespace for entry in ingest.searchable("real_life")} == {"real_life"}
    assert ingest.pointer("au").generation == 1
    assert ingest.pointer("real_life").generation == 1


def test_every_key_written_starts_with_the_namespace(ingest: IngestHarness) -> None:
    ingest.upload("world/map", "# Map\n\nThe northern isles.\n", namespace="au")
    ingest.upload("projects/plan", PLAN_V1)
    ingest.upload("projects/plan", PLAN_V2)
    ingest.delete("world/map", namespace="au")

    for item in ingest.raw_items():
        assert item["namespace"]["S"] in {"au", "real_life"}
    au_paths = {item["logical_path"] for item in ingest.items("ChunksTable") if item["namespace"] == "au"}
    assert au_paths == {"world/map"}
    for key in ingest.stored_objects():
        assert key.startswith(
            ("revisions/au/", "revisions/real_life/", "projections/au/", "projections/real_life/")
        )


def test_a_large_document_keeps_every_item_small(ingest: IngestHarness) -> None:
    sections = [
        f"## Section {n}\n\n" + f"Line {n} of the long handbook with ordinary words. " * 40 for n in range(80)
    ]
    text = "# Handbook\n\n" + "\n\n".join(sections)
    assert len(text.encode()) > 150_000

    outcome = ingest.upload("handbook", text)

    assert outcome.chunk_count > 25  # more than one BatchWriteItem
    assert len(ingest.chunk_items("handbook")) == outcome.chunk_count
    for item in ingest.raw_items():
        assert len(json.dumps(item)) < 40_000
    [revision] = ingest.history("handbook")
    assert revision.snapshot_key is not None
    assert ingest.revisions.read_text(revision.snapshot_key) == text


def test_the_shards_build_the_search_index_the_reader_uses(ingest: IngestHarness) -> None:
    ingest.upload("projects/plan", PLAN_V1)
    ingest.upload("projects/launch", "# Launch\n\nThe rocket leaves at dawn.\n")
    ingest.upload("projects/plan", PLAN_V2)

    pointer = ingest.projections.pointer(Namespace.REAL_LIFE)
    index = LexicalIndex([shard.segment for shard in ingest.projections.shards(pointer)])

    [hit] = index.search("rocket dawn", limit=1)
    assert hit.entry.logical_path == "projects/launch"
    assert all(hit.entry.logical_path == "projects/plan" for hit in index.search("Monday"))
    assert index.search("Friday") == []
