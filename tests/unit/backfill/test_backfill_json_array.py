"""The streaming reader yields exactly what `json.loads` would, window by window, and names bad input."""

import io
import json

import pytest
from pandora_memory.backfill.errors import ExportError
from pandora_memory.backfill.json_array import JsonArrayItems


def items(data: bytes, chunk_bytes: int = 5) -> list[object]:
    return list(JsonArrayItems(io.BytesIO(data), "conversations.json", chunk_bytes=chunk_bytes))


def test_items_cross_read_windows_including_multibyte_characters() -> None:
    document = [
        {"title": "café ☕ and 日本語", "mapping": {"a": {"parts": ["x" * 50, "ü" * 20]}}},
        {"title": "second", "nested": [1, 2.5, None, True, {"deep": "𝄞 clef"}]},
        {},
    ]
    data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")
    for chunk in (1, 3, 7, 64, 1 << 20):
        assert items(data, chunk) == document


def test_bytes_read_reaches_the_document_size() -> None:
    data = json.dumps([{"n": n} for n in range(100)]).encode()
    reader = JsonArrayItems(io.BytesIO(data), "c.json", chunk_bytes=16)
    seen = [reader.bytes_read for _ in reader]
    assert seen == sorted(seen)
    assert reader.bytes_read == len(data)


def test_an_empty_list_and_a_byte_order_mark_are_fine() -> None:
    assert items(b" [ ] \n") == []
    assert items('\ufeff[{"a": 1}]'.encode()) == [{"a": 1}]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty"),
        (b"   \n", "is empty"),
        (b"hello", "is not JSON"),
        (b'{"title": "one conversation"}', "holds one JSON object"),
        (b"[1, 2]", "item 1 is not a conversation"),
        (b'[{"a": 1}, "text"]', "item 2 is not a conversation"),
        (b'[{"a": 1} {"b": 2}]', "expected ','"),
        (b'[{"a": 1}, {"b": ', "not valid JSON in item 2"),
        (b'[{"a": 1}', "ends before its closing"),
        (b'[{"a": 1}] trailing', "extra data after the list"),
        (b'[{"a": "\xff"}]', "not UTF-8"),
        (b'[{"a": nope}]', "not valid JSON in item 1"),
    ],
)
def test_bad_input_names_the_problem_in_one_line(data: bytes, message: str) -> None:
    with pytest.raises(ExportError) as raised:
        items(data, chunk_bytes=4)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_errors_never_quote_the_content() -> None:
    with pytest.raises(ExportError) as raised:
        items(b'[{"password": "hunter2-Zq8x", "x": oops}]')
    assert "hunter2" not in str(raised.value)
