"""Turning an upload's bytes into Markdown text, or refusing them with a reason."""

from pandora_memory.ingest.outcomes import IngestRejectedError, RejectReason

_BOM = "\ufeff"


def decode_markdown(raw: bytes, max_bytes: int) -> str:
    if len(raw) > max_bytes:
        raise IngestRejectedError(RejectReason.OVERSIZED)
    if b"\x00" in raw:
        raise IngestRejectedError(RejectReason.NUL_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise IngestRejectedError(RejectReason.INVALID_UTF8) from None
    # Editors on some platforms prepend a byte-order mark; it is not content.
    return text.removeprefix(_BOM)
