"""Entry texts in blocks of plain UTF-8, each compressed as its own gzip member.

A reloaded index inflates a block only when one of its entries is returned, so a cold search does not
pay for the whole corpus's text. The blocks of a snapshot are consecutive gzip members: `gzip.decompress`
of the stored object still yields every text in plain form, which is what leak scans read.

Block boundaries depend on the entries' keys and sizes only (a block ends after an entry whose key hash
says so, once it holds MIN_BLOCK_BYTES, or at MAX_BLOCK_BYTES). Replacing one document therefore
re-compresses the blocks around it and keeps every other block byte for byte.
"""

import gzip
import zlib
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

MIN_BLOCK_BYTES = 32 * 1024
MAX_BLOCK_BYTES = 256 * 1024
_CUT_BITS = 3  # about one entry in eight may end a block once it is big enough
_MIX = 0x9E3779B1  # spreads every bit of the key's CRC into the top bits (a CRC alone is linear)
TEXT_COMPRESSION_LEVEL = 6
# Inflated blocks kept per store: a warm container of up to ~10k chunks ends up holding every text.
_CACHED_TEXT_BYTES = 24 * 1024 * 1024
_GZIP_WBITS = 31


class TextStore(Protocol):
    def __len__(self) -> int: ...

    def text(self, index: int) -> str: ...


class ListTexts:
    """Texts of a segment built in this process, held as they came."""

    def __init__(self, texts: list[str]) -> None:
        self._texts = texts

    def __len__(self) -> int:
        return len(self._texts)

    def text(self, index: int) -> str:
        return self._texts[index]


@dataclass(frozen=True)
class TextBlock:
    first: int  # index of the block's first entry in its segment
    ends: "array[int]"  # end offset of each entry's UTF-8 bytes inside the block
    member: bytes  # the block's bytes as one gzip member

    def moved(self, shift: int) -> "TextBlock":
        return self if not shift else TextBlock(self.first + shift, self.ends, self.member)


def _cuts_after(key: str, size: int) -> bool:
    if size >= MAX_BLOCK_BYTES:
        return True
    return size >= MIN_BLOCK_BYTES and (zlib.crc32(key.encode("utf-8")) * _MIX) & 0xFFFFFFFF < 1 << (
        32 - _CUT_BITS
    )


class _Blocker:
    """Cuts a run of (key, UTF-8 text) items into blocks, numbering entries from `first`."""

    def __init__(self, first: int) -> None:
        self.first = first
        self._parts: list[bytes] = []
        self._ends: array[int] = array("I")
        self._size = 0

    def add(self, key: str, raw: bytes) -> "TextBlock | None":
        """The block this item closes, if it closes one."""
        self._parts.append(raw)
        self._size += len(raw)
        self._ends.append(self._size)
        return self.finish() if _cuts_after(key, self._size) else None

    def finish(self) -> "TextBlock | None":
        if not self._ends:
            return None
        member = gzip.compress(b"".join(self._parts), TEXT_COMPRESSION_LEVEL, mtime=0)
        block = TextBlock(self.first, self._ends, member)
        self.first += len(self._ends)
        self._parts, self._ends, self._size = [], array("I"), 0
        return block


def block_texts(items: Iterable[tuple[str, bytes]], first: int = 0) -> Iterator[TextBlock]:
    """Blocks of (key, UTF-8 text) items, numbered from entry `first`."""
    blocker = _Blocker(first)
    for key, raw in items:
        block = blocker.add(key, raw)
        if block is not None:
            yield block
    last = blocker.finish()
    if last is not None:
        yield last


class BlockTexts:
    """Texts of a decoded snapshot; the most recently used inflated blocks are kept."""

    def __init__(self, blocks: Sequence[TextBlock]) -> None:
        self.blocks = tuple(blocks)
        self._firsts = array("I", [block.first for block in self.blocks])
        self._count = self.blocks[-1].first + len(self.blocks[-1].ends) if self.blocks else 0
        self._inflated: OrderedDict[int, bytes] = OrderedDict()
        self._inflated_bytes = 0

    def __len__(self) -> int:
        return self._count

    def raw(self, index: int) -> bytes:
        if not 0 <= index < self._count:
            raise IndexError(index)
        number = bisect_right(self._firsts, index) - 1
        block = self.blocks[number]
        content = self._inflated.get(number)
        if content is None:
            content = zlib.decompress(block.member, _GZIP_WBITS)
            self._inflated[number] = content
            self._inflated_bytes += len(content)
            while self._inflated_bytes > _CACHED_TEXT_BYTES and len(self._inflated) > 1:
                self._inflated_bytes -= len(self._inflated.popitem(last=False)[1])
        else:
            self._inflated.move_to_end(number)
        local = index - block.first
        return content[block.ends[local - 1] if local else 0 : block.ends[local]]

    def text(self, index: int) -> str:
        return self.raw(index).decode("utf-8")


def _raw(store: TextStore, index: int) -> bytes:
    return store.raw(index) if isinstance(store, BlockTexts) else store.text(index).encode("utf-8")


def as_blocks(store: TextStore, keys: Sequence[str]) -> tuple[TextBlock, ...]:
    if isinstance(store, BlockTexts):
        return store.blocks
    return tuple(block_texts(zip(keys, (_raw(store, i) for i in range(len(store))), strict=True)))


def splice_texts(
    store: TextStore,
    keys: Sequence[str],
    start: int,
    stop: int,
    new_keys: Sequence[str],
    new_texts: Sequence[str],
) -> TextStore:
    """Entries start..stop replaced by the new ones; blocks away from the change are reused as they are."""
    if not isinstance(store, BlockTexts):
        texts = [store.text(i) for i in range(len(store))]
        return ListTexts([*texts[:start], *new_texts, *texts[stop:]])
    blocks = store.blocks
    if not blocks:
        return BlockTexts(
            list(block_texts(zip(new_keys, (t.encode("utf-8") for t in new_texts), strict=True)))
        )
    count = len(store)
    holding = bisect_right(array("I", [b.first for b in blocks]), min(start, count - 1)) - 1
    begin, shift = blocks[holding].first, len(new_keys) - (stop - start)
    old_block_at = {block.first: number for number, block in enumerate(blocks)}
    spliced = list(blocks[:holding])

    def stream() -> Iterator[tuple[str, bytes, int]]:
        """(key, text, old index or -1) from the first changed block to the end."""
        for index in range(begin, start):
            yield keys[index], store.raw(index), index
        for key, text in zip(new_keys, new_texts, strict=True):
            yield key, text.encode("utf-8"), -1
        for index in range(stop, count):
            yield keys[index], store.raw(index), index

    blocker = _Blocker(begin)
    for key, raw, old_index in stream():
        block = blocker.add(key, raw)
        if block is None:
            continue
        spliced.append(block)
        resumed = old_block_at.get(old_index + 1) if old_index >= stop else None
        if resumed is not None:  # cut where the old blocking cut: the rest is unchanged
            spliced.extend(old.moved(shift) for old in blocks[resumed:])
            return BlockTexts(spliced)
    last = blocker.finish()
    if last is not None:
        spliced.append(last)
    return BlockTexts(spliced)
