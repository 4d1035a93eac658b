"""Object keys of the memory bucket: `memory/<namespace>/<logical path>.md` and the derived keys.

The logical path is everything below the namespace, without the `.md` suffix. It is a DynamoDB sort
key prefix, so it must stay well under DynamoDB's 1024-byte key limit once hashes are appended.
"""

from dataclasses import dataclass

from pandora_memory.ingest.outcomes import IngestRejectedError, RejectReason
from pandora_memory.namespaces import Namespace

MEMORY_PREFIX = "memory/"
MARKDOWN_SUFFIX = ".md"
REVISIONS_PREFIX = "revisions/"
PROJECTIONS_PREFIX = "projections/"
# Leaves room for "#<64 hex>#<ordinal>" in chunk keys below DynamoDB's 1024-byte sort-key limit.
MAX_LOGICAL_PATH_BYTES = 900
_TRAVERSAL_SEGMENTS = frozenset({".", ".."})


@dataclass(frozen=True)
class MemoryKey:
    namespace: Namespace
    logical_path: str

    @property
    def object_key(self) -> str:
        return f"{MEMORY_PREFIX}{self.namespace.value}/{self.logical_path}{MARKDOWN_SUFFIX}"


def parse_memory_key(key: str) -> MemoryKey:
    """Validate an (already URL-decoded) object key, or raise IngestRejectedError with the reason."""
    if not key.startswith(MEMORY_PREFIX):
        raise IngestRejectedError(RejectReason.OTHER_PREFIX)
    namespace_part, separator, below = key[len(MEMORY_PREFIX) :].partition("/")
    if not separator:
        raise IngestRejectedError(RejectReason.UNKNOWN_NAMESPACE)
    try:
        namespace = Namespace(namespace_part)  # exact: no trimming or case folding of key segments
    except ValueError:
        raise IngestRejectedError(RejectReason.UNKNOWN_NAMESPACE) from None
    _check_path_shape(below)
    if not below.endswith(MARKDOWN_SUFFIX):
        raise IngestRejectedError(RejectReason.NOT_MARKDOWN)
    logical_path = below[: -len(MARKDOWN_SUFFIX)]
    if not logical_path or logical_path.endswith("/"):
        raise IngestRejectedError(RejectReason.INVALID_PATH)
    if len(logical_path.encode("utf-8")) > MAX_LOGICAL_PATH_BYTES:
        raise IngestRejectedError(RejectReason.INVALID_PATH)
    return MemoryKey(namespace=namespace, logical_path=logical_path)


def _check_path_shape(path: str) -> None:
    # Backslashes are separators on some file systems a sync tool may mirror these keys into.
    segments = path.replace("\\", "/").split("/")
    if any(segment in _TRAVERSAL_SEGMENTS for segment in segments) or "\\" in path:
        raise IngestRejectedError(RejectReason.PATH_TRAVERSAL)
    if any(not segment for segment in segments):
        raise IngestRejectedError(RejectReason.INVALID_PATH)
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in path):
        raise IngestRejectedError(RejectReason.INVALID_PATH)


def revision_snapshot_key(namespace: Namespace, content_hash: str) -> str:
    """Content-addressed: the same redacted text in one namespace is stored once."""
    return f"{REVISIONS_PREFIX}{namespace.value}/{content_hash}.md"


def projection_prefix(namespace: Namespace) -> str:
    """Every projection object of a namespace lies under this prefix, and nothing of another does."""
    return f"{PROJECTIONS_PREFIX}{namespace.value}/"


def projection_manifest_key(namespace: Namespace, generation: int, digest: str) -> str:
    """Generation plus content digest: two writers racing for one generation never share an object."""
    return f"{projection_prefix(namespace)}manifests/{generation:012d}-{digest[:16]}.json.gz"


def projection_shard_key(namespace: Namespace, label: str, generation: int, digest: str) -> str:
    """A shard's segment (binary columnar, gzip members: see pandora_memory.search.container).

    Before shards, one `<generation>-<digest>.json.gz` object held the whole namespace in the same
    binary format; readers still open such a key when an unmigrated pointer names it.
    """
    return f"{projection_prefix(namespace)}shards/s{label}/{generation:012d}-{digest[:16]}.idx.gz"
