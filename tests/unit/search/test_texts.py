"""Entry texts in gzip-member blocks: exact texts back, plain bytes for gzip readers, bounded cache."""

import gzip

import pytest
from pandora_memory.search import texts
from pandora_memory.search.texts import BlockTexts, ListTexts, as_blocks, block_texts, splice_texts

TEXTS = [f"Entry {i}: 카엘은 검을 들었다, naïve café № {i}\n" * (1 + i % 5) for i in range(60)]
KEYS = [f"notes/{i // 4:02d}.md#h#{i:05d}" for i in range(60)]


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(texts, "MIN_BLOCK_BYTES", 300)
    monkeypatch.setattr(texts, "MAX_BLOCK_BYTES", 1200)


def test_blocks_give_every_text_back_and_gunzip_to_the_plain_texts() -> None:
    blocks = as_blocks(ListTexts(TEXTS), KEYS)
    store = BlockTexts(blocks)
    assert len(blocks) > 5
    assert len(store) == len(TEXTS)
    assert [store.text(i) for i in range(len(TEXTS))] == TEXTS
    assert [store.text(i) for i in reversed(range(len(TEXTS)))] == TEXTS[::-1]
    assert gzip.decompress(b"".join(block.member for block in blocks)) == "".join(TEXTS).encode()
    with pytest.raises(IndexError):
        store.text(len(TEXTS))


def test_no_block_passes_the_maximum_unless_one_entry_does() -> None:
    huge = "x" * 5000
    blocks = list(block_texts(zip(["a", "b", "c"], [b"y" * 10, huge.encode(), b"z" * 10], strict=True)))
    assert [len(block.ends) for block in blocks] == [2, 1]
    assert BlockTexts(blocks).text(1) == huge


def test_the_inflated_block_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(texts, "_CACHED_TEXT_BYTES", 2000)
    store = BlockTexts(as_blocks(ListTexts(TEXTS), KEYS))
    for i in range(len(TEXTS)):
        store.text(i)
    assert 0 < store._inflated_bytes <= 2000 + texts.MAX_BLOCK_BYTES + max(map(len, TEXTS)) * 4


@pytest.mark.parametrize(
    ("start", "stop", "added"), [(0, 0, 3), (0, 8, 0), (20, 24, 6), (56, 60, 1), (60, 60, 2)]
)
def test_splicing_equals_blocking_the_new_sequence(start: int, stop: int, added: int) -> None:
    new_keys = [f"notes/new.md#h#{i:05d}" for i in range(added)]
    new_texts = [f"new text {i} " * 40 for i in range(added)]
    store = BlockTexts(as_blocks(ListTexts(TEXTS), KEYS))

    spliced = splice_texts(store, KEYS, start, stop, new_keys, new_texts)

    keys = [*KEYS[:start], *new_keys, *KEYS[stop:]]
    expected_texts = [*TEXTS[:start], *new_texts, *TEXTS[stop:]]
    assert isinstance(spliced, BlockTexts)
    assert spliced.blocks == as_blocks(ListTexts(expected_texts), keys)
    listed = splice_texts(ListTexts(TEXTS), KEYS, start, stop, new_keys, new_texts)
    assert [listed.text(i) for i in range(len(listed))] == expected_texts
