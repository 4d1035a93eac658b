"""The checkpoint records finished conversations once each and refuses to mix runs."""

from pathlib import Path

import pytest
from pandora_memory.backfill.checkpoint import Checkpoint, CheckpointKey, discard
from pandora_memory.backfill.errors import CheckpointError
from pandora_memory.namespaces import Namespace

KEY = CheckpointKey("ab" * 32, Namespace.REAL_LIFE, "pandora-memory-capture-candidates")


def test_marked_conversations_survive_a_reload(tmp_path: Path) -> None:
    with Checkpoint.load(tmp_path, KEY, writable=True) as checkpoint:
        checkpoint.mark_done("c-1")
        checkpoint.mark_done("c-2")
        checkpoint.mark_done("c-1")
    reloaded = Checkpoint.load(tmp_path, KEY, writable=True)
    assert "c-1" in reloaded and "c-2" in reloaded and "c-3" not in reloaded
    assert len(reloaded) == 2
    assert len((tmp_path / KEY.file_name()).read_text().splitlines()) == 3  # header and two ids


def test_a_read_only_checkpoint_writes_nothing(tmp_path: Path) -> None:
    checkpoint = Checkpoint.load(tmp_path, KEY, writable=False)
    checkpoint.mark_done("c-1")
    assert not (tmp_path / KEY.file_name()).exists()


def test_each_namespace_and_table_has_its_own_file(tmp_path: Path) -> None:
    other = CheckpointKey(KEY.export_sha256, Namespace.AU, KEY.table)
    with Checkpoint.load(tmp_path, KEY, writable=True) as checkpoint:
        checkpoint.mark_done("c-1")
    assert "c-1" not in Checkpoint.load(tmp_path, other, writable=True)
    assert KEY.file_name() != other.file_name()


def test_a_file_of_another_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / KEY.file_name()).write_text('{"format": "something else"}\n"c-1"\n')
    with pytest.raises(CheckpointError, match="--restart"):
        Checkpoint.load(tmp_path, KEY, writable=True)


def test_a_line_cut_by_a_crash_is_ignored_and_appending_starts_a_new_line(tmp_path: Path) -> None:
    with Checkpoint.load(tmp_path, KEY, writable=True) as checkpoint:
        checkpoint.mark_done("c-1")
    path = tmp_path / KEY.file_name()
    path.write_text(path.read_text() + '"c-2')  # the process died mid-write
    with Checkpoint.load(tmp_path, KEY, writable=True) as checkpoint:
        assert "c-1" in checkpoint and len(checkpoint) == 1
        checkpoint.mark_done("c-3")
    reloaded = Checkpoint.load(tmp_path, KEY, writable=False)
    assert "c-1" in reloaded and "c-2" not in reloaded and "c-3" in reloaded


def test_discard_removes_the_file(tmp_path: Path) -> None:
    with Checkpoint.load(tmp_path, KEY, writable=True) as checkpoint:
        checkpoint.mark_done("c-1")
    assert discard(tmp_path, KEY) is True
    assert discard(tmp_path, KEY) is False
    assert len(Checkpoint.load(tmp_path, KEY, writable=True)) == 0
