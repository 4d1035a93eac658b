"""Reading the user's uploads under `memory/`. Only the key's current version is ever read."""

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from botocore.exceptions import ClientError

from pandora_memory.ingest.outcomes import IngestRejectedError, RejectReason, SkipReason

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_MISSING_CODES = frozenset({"NoSuchKey", "404", "NotFound", "NoSuchVersion"})


@dataclass(frozen=True)
class Upload:
    raw: bytes
    version_id: str | None
    etag: str | None
    last_modified: datetime


@dataclass(frozen=True)
class NotReadable:
    reason: SkipReason


def _is_missing(error: ClientError) -> bool:
    return str(error.response.get("Error", {}).get("Code", "")) in _MISSING_CODES


class UploadStore:
    def __init__(self, s3: "S3Client", bucket: str) -> None:
        self._s3 = s3
        self._bucket = bucket

    def read_current(self, key: str, max_bytes: int, expected_version: str | None) -> Upload | NotReadable:
        """The key's current object, if it is still the version the event named (when it named one)."""
        try:
            response = self._s3.get_object(Bucket=self._bucket, Key=key)
        except ClientError as error:
            if _is_missing(error):
                return NotReadable(SkipReason.OBJECT_GONE)
            raise
        body = response["Body"]
        try:
            version_id = response.get("VersionId")
            if expected_version is not None and version_id != expected_version:
                return NotReadable(SkipReason.SUPERSEDED_IN_S3)
            if response.get("ContentLength", 0) > max_bytes:
                raise IngestRejectedError(RejectReason.OVERSIZED)
            raw = body.read(max_bytes + 1)  # never more than the limit, whatever the header said
        finally:
            body.close()
        if len(raw) > max_bytes:
            raise IngestRejectedError(RejectReason.OVERSIZED)
        return Upload(
            raw=raw,
            version_id=version_id if version_id and version_id != "null" else None,
            etag=str(response.get("ETag", "")).strip('"') or None,
            last_modified=response["LastModified"],
        )

    def exists(self, key: str) -> bool:
        """True while the key has a current object (a delete marker counts as no object)."""
        try:
            self._s3.head_object(Bucket=self._bucket, Key=key)
        except ClientError as error:
            if _is_missing(error):
                return False
            raise
        return True
