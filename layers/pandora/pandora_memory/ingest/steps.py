"""The named steps of an ingest, and what is known about the record in flight when one fails."""

from dataclasses import dataclass
from enum import StrEnum

from pandora_memory.ingest.ordering import EventOrder
from pandora_memory.ingest.s3_keys import MemoryKey


class Step(StrEnum):
    """Stored in `projection_error` and used as the IngestFailures metric's dimension."""

    S3_READ = "s3_read"
    DOCUMENT_READ = "document_read"
    REDACTION = "redaction"
    RENAME_LOOKUP = "rename_lookup"
    CLAIM = "claim"
    CHUNKING = "chunking"
    REVISION_WRITE = "revision_write"
    CHUNK_WRITE = "chunk_write"
    HISTORY_READ = "history_read"
    PROJECTION_READ = "projection_read"
    SNAPSHOT_WRITE = "snapshot_write"
    SWAP = "swap"


@dataclass
class Attempt:
    """Updated as the ingest advances, so a failure flags the right document state."""

    key: MemoryKey
    step: Step = Step.S3_READ
    order: EventOrder | None = None
    claim: str | None = None
