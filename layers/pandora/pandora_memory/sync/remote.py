"""The bucket side of a sync: list what is there, read digests where needed, apply a plan."""

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pandora_memory.sync.keys import is_managed
from pandora_memory.sync.plan import RemoteObject, SyncPlan

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

SHA256_METADATA = "sha256"  # stored as x-amz-meta-sha256
CONTENT_TYPE = "text/markdown; charset=utf-8"

Progress = Callable[[str, str], None]  # (action, key)


def quiet(action: str, key: str) -> None:
    return None


@dataclass(frozen=True)
class Applied:
    uploaded: int
    deleted: int


class S3Mirror:
    def __init__(self, s3: "S3Client", bucket: str) -> None:
        self._s3 = s3
        self.bucket = bucket

    def listing(self, base_key: str) -> dict[str, RemoteObject]:
        """Managed objects under `base_key` (Markdown outside hidden folders), by key."""
        found: dict[str, RemoteObject] = {}
        for page in self._s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=base_key):
            for item in page.get("Contents", []):
                key = item["Key"]
                if is_managed(key[len(base_key) :]):
                    found[key] = RemoteObject(key=key, size=int(item["Size"]), etag=item.get("ETag", ""))
        return found

    def with_digests(self, remote: Mapping[str, RemoteObject], keys: list[str]) -> dict[str, RemoteObject]:
        """`remote` with the stored SHA-256 of `keys` filled in (one HEAD each)."""
        filled = dict(remote)
        for key in keys:
            metadata = self._s3.head_object(Bucket=self.bucket, Key=key).get("Metadata", {})
            filled[key] = remote[key].with_sha256(metadata.get(SHA256_METADATA))
        return filled

    def apply(self, plan: SyncPlan, root: Path, progress: Progress = quiet) -> Applied:
        uploaded = deleted = 0
        for upload in plan.uploads:
            data = (root / upload.relative_path).read_bytes()
            self._s3.put_object(
                Bucket=self.bucket,
                Key=upload.key,
                Body=data,
                ContentType=CONTENT_TYPE,
                # The digest of the bytes sent (the file may have changed since the scan).
                Metadata={SHA256_METADATA: hashlib.sha256(data).hexdigest()},
            )
            uploaded += 1
            progress("uploaded", upload.key)
        for key in plan.deletes:
            self._s3.delete_object(Bucket=self.bucket, Key=key)
            deleted += 1
            progress("deleted", key)
        return Applied(uploaded=uploaded, deleted=deleted)
