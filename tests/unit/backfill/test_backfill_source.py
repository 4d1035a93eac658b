"""Finding conversations.json: a plain file, the export zip (flat or nested), or the export folder."""

import json
import zipfile
from pathlib import Path

import pytest
from pandora_memory.backfill.conversations import ConversationReader
from pandora_memory.backfill.errors import ExportError
from pandora_memory.backfill.json_array import JsonArrayItems
from pandora_memory.backfill.source import ExportSource, locate_export
from unit.backfill.export_factory import simple_conversation, write_export_zip

CONVERSATIONS = [simple_conversation(f"c{n}", [(f"message {n}", "ok")]) for n in range(3)]


def read_ids(source: ExportSource) -> list[str]:
    with source.open() as stream:
        return [c.id for c in ConversationReader(JsonArrayItems(stream, source.name), source.name)]


def test_plain_zip_nested_zip_and_folder_read_the_same_conversations(tmp_path: Path) -> None:
    data = json.dumps(CONVERSATIONS).encode()
    plain = tmp_path / "folder" / "conversations.json"
    plain.parent.mkdir()
    plain.write_bytes(data)
    nested = tmp_path / "nested.zip"
    with zipfile.ZipFile(nested, "w") as archive:
        archive.writestr("export-2024/conversations.json", data)
        archive.writestr("export-2024/user.json", "{}")
    flat = write_export_zip(tmp_path / "export.zip", CONVERSATIONS)
    expected = [c["conversation_id"] for c in CONVERSATIONS]
    sources = [locate_export(p) for p in (plain, plain.parent, nested, flat)]
    for source in sources:
        assert read_ids(source) == expected
    assert sources[2].member == "export-2024/conversations.json"
    assert sources[0].size == len(data)


def test_the_fingerprint_is_the_document_s_whether_zipped_or_not(tmp_path: Path) -> None:
    data = json.dumps(CONVERSATIONS).encode()
    plain = tmp_path / "conversations.json"
    plain.write_bytes(data)
    with zipfile.ZipFile(tmp_path / "export.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", data)
    zipped = locate_export(tmp_path / "export.zip")
    assert zipped.fingerprint() == locate_export(plain).fingerprint()
    plain.write_bytes(data.replace(b"message 1", b"message 9"))
    assert zipped.fingerprint() != locate_export(plain).fingerprint()


def test_a_zip_without_conversations_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photos.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("user.json", "{}")
    with pytest.raises(ExportError, match=r"holds no conversations\.json"):
        locate_export(path)


def test_missing_paths_and_folders_without_the_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no such file"):
        locate_export(tmp_path / "absent.json")
    with pytest.raises(ExportError, match=r"has no conversations\.json"):
        locate_export(tmp_path)


@pytest.mark.parametrize("where", [2, 3, 4, 5])
def test_a_damaged_zip_member_is_an_export_error(tmp_path: Path, where: int) -> None:
    path = write_export_zip(tmp_path / "export.zip", CONVERSATIONS * 50)
    data = bytearray(path.read_bytes())
    start = len(data) // where
    data[start : start + 64] = bytes(64)  # damage the compressed stream, keep the directory
    path.write_bytes(bytes(data))
    with pytest.raises(ExportError, match=r"damaged zip"):
        read_ids(locate_export(path))
