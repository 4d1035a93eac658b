"""The byte layout of a search snapshot, format version 2 (the writer is snapshot.py).

The stored object is a series of gzip members, so `gzip.decompress` of it gives plain bytes:

  member 0   MAGIC, a 4-byte little-endian header length, the header (UTF-8 JSON), then the arrays
  member 1+  the entry texts, one member per block of consecutive entries (texts.py)

Header: {"format": "pandora-search-index", "version": 2, "tokenizer": <tokenizer version>,
"tables": {name: [string or [string...], ...]}, "arrays": [[name, typecode, count], ...]}.
Arrays follow the header in that order, unsigned little-endian integers of the narrowest width that
holds their values ("B", "H", "I" or "Q"). A multi-byte array is stored byte-shuffled (every element's
first byte, then every second byte...): the high bytes of small numbers are runs of zeros that
compress to almost nothing. Reading is inflate + a few slice copies per array; no per-element work.
"""

import gzip
import json
import struct
import sys
import zlib
from array import array
from collections.abc import Iterable, Mapping, Sequence

from pandora_memory.search.segment import MalformedSnapshotError

MAGIC = b"pandora-search-index\n"
_LENGTH = struct.Struct("<I")
_WIDTHS = {"B": 1, "H": 2, "I": 4, "Q": 8}  # the format's names
_NAMES = {width: name for name, width in _WIDTHS.items()}
_TYPECODES = {array(code).itemsize: code for code in _WIDTHS}  # the platform's typecode per width
_GZIP_WBITS = 31
INDEX_COMPRESSION_LEVEL = 6


def _width(values: "array[int]") -> int:
    """The fewest bytes that hold every value."""
    if values.itemsize == 1:
        return 1
    top = max(values, default=0)
    return next(width for width in (1, 2, 4, 8) if top < 1 << (8 * width))


def _planes(values: "array[int]", width: int) -> bytes:
    """The values' little-endian bytes, byte-shuffled, keeping the low `width` bytes of each."""
    if sys.byteorder == "big" and values.itemsize > 1:
        values = array(values.typecode, values)
        values.byteswap()
    raw = values.tobytes()
    size = values.itemsize
    if size == 1:
        return raw
    return b"".join(raw[plane::size] for plane in range(width))


def _unshuffled(planes: memoryview, width: int, count: int) -> bytearray | memoryview:
    if width == 1:
        return planes
    raw = bytearray(count * width)
    for plane in range(width):
        raw[plane::width] = planes[plane * count : (plane + 1) * count]
    return raw


def pack(
    header: Mapping[str, object], arrays: Iterable[tuple[str, "array[int]"]], tail: Sequence[bytes]
) -> bytes:
    spec: list[list[object]] = []
    payload: list[bytes] = []
    for name, values in arrays:
        width = _width(values)
        spec.append([name, _NAMES[width], len(values)])
        payload.append(_planes(values, width))
    document = json.dumps({**header, "arrays": spec}, ensure_ascii=False, separators=(",", ":")).encode()
    body = b"".join([MAGIC, _LENGTH.pack(len(document)), document, *payload])
    return b"".join([gzip.compress(body, INDEX_COMPRESSION_LEVEL, mtime=0), *tail])


def first_member(data: bytes) -> tuple[bytes, bytes]:
    """Member 0 inflated, and the bytes after it."""
    inflater = zlib.decompressobj(_GZIP_WBITS)
    try:
        head = inflater.decompress(data)
    except zlib.error as error:
        raise MalformedSnapshotError(f"search snapshot is not gzip: {error}") from error
    if not inflater.eof:
        raise MalformedSnapshotError("search snapshot is truncated")
    return head, inflater.unused_data


def unpack(head: bytes) -> tuple[dict[str, object], dict[str, "array[int]"]]:
    if not head.startswith(MAGIC) or len(head) < len(MAGIC) + _LENGTH.size:
        raise MalformedSnapshotError("not a binary search snapshot")
    (length,) = _LENGTH.unpack_from(head, len(MAGIC))
    start = len(MAGIC) + _LENGTH.size
    try:
        header = json.loads(head[start : start + length])
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MalformedSnapshotError(f"search snapshot header does not decode: {error}") from error
    if not isinstance(header, dict):
        raise MalformedSnapshotError("search snapshot header must be an object")
    return header, _read_arrays(header.get("arrays"), memoryview(head)[start + length :])


def _read_arrays(spec: object, payload: memoryview) -> dict[str, "array[int]"]:
    if not isinstance(spec, list):
        raise MalformedSnapshotError("search snapshot header lists no arrays")
    arrays: dict[str, array[int]] = {}
    offset = 0
    for item in spec:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            raise MalformedSnapshotError("search snapshot array entry must be [name, typecode, count]")
        name, code, count = item
        if code not in _WIDTHS or not isinstance(count, int) or count < 0:
            raise MalformedSnapshotError(f"search snapshot array {name!r} has a bad type or count")
        width = _WIDTHS[code]
        size = width * count
        if offset + size > len(payload):
            raise MalformedSnapshotError(f"search snapshot array {name!r} runs past the end")
        values: array[int] = array(_TYPECODES[width])
        values.frombytes(_unshuffled(payload[offset : offset + size], width, count))
        if sys.byteorder == "big" and width > 1:
            values.byteswap()
        arrays[name] = values
        offset += size
    if offset != len(payload):
        raise MalformedSnapshotError("search snapshot has bytes after its last array")
    return arrays
