"""The sync decision as a pure function: which files to upload, which are unchanged, which to delete.

Remote Markdown that the folder does not hold is deleted only when the caller asks (`delete=True`,
the CLI's `--delete`, as with `aws s3 sync`); otherwise it is listed as `remote_only` and left alone:
files may reach the bucket by other means (the seeded examples, an S3 client).

Content identity is the SHA-256 of the file's bytes. Uploads store it as object metadata
(`x-amz-meta-sha256`), which holds for any upload method and encryption. A listing gives no
metadata, only the ETag, which is the MD5 of the bytes for a single-part upload without KMS (this
bucket uses SSE-S3): an ETag equal to the local MD5 proves the content equal without another request.
Only a same-size object whose ETag does not match has its metadata read (`keys_needing_digest`).
Anything still unknown is uploaded: a repeated upload of identical text is a no-op for ingest.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from pandora_memory.sync.keys import is_managed


@dataclass(frozen=True)
class LocalFile:
    relative_path: str  # '/'-separated, below the synced folder
    size: int
    sha256: str
    md5: str


@dataclass(frozen=True)
class RemoteObject:
    key: str
    size: int
    etag: str = ""
    sha256: str | None = None  # from x-amz-meta-sha256, when it was read

    def with_sha256(self, sha256: str | None) -> "RemoteObject":
        return replace(self, sha256=sha256)


class UploadReason(StrEnum):
    NEW = "new"
    CHANGED = "changed"


@dataclass(frozen=True)
class Upload:
    key: str
    relative_path: str
    reason: UploadReason


@dataclass(frozen=True)
class SyncPlan:
    base_key: str
    uploads: tuple[Upload, ...] = ()
    unchanged: tuple[str, ...] = ()
    deletes: tuple[str, ...] = ()
    remote_only: tuple[str, ...] = ()  # not in the folder, left in place (no `delete=True`)

    @property
    def new(self) -> int:
        return sum(1 for upload in self.uploads if upload.reason is UploadReason.NEW)

    @property
    def changed(self) -> int:
        return sum(1 for upload in self.uploads if upload.reason is UploadReason.CHANGED)

    @property
    def empty(self) -> bool:
        return not self.uploads and not self.deletes


def _single_part_md5(etag: str) -> str | None:
    value = etag.strip('"').lower()
    if len(value) == 32 and all(char in "0123456789abcdef" for char in value):
        return value
    return None  # multipart ("<md5>-<parts>") or otherwise not a plain digest


def _same_content(local: LocalFile, remote: RemoteObject) -> bool | None:
    """True or False when it is known, None when only the metadata digest could tell."""
    if local.size != remote.size:
        return False
    if _single_part_md5(remote.etag) == local.md5:
        return True
    if remote.sha256 is not None:
        return remote.sha256 == local.sha256
    return None


def keys_needing_digest(
    local: Mapping[str, LocalFile], remote: Mapping[str, RemoteObject], base_key: str
) -> list[str]:
    """Keys whose equality only their stored SHA-256 can settle (same size, ETag no proof)."""
    needed: list[str] = []
    for relative_path, file in sorted(local.items()):
        found = remote.get(base_key + relative_path)
        if found is not None and _same_content(file, found) is None:
            needed.append(found.key)
    return needed


def plan_sync(
    local: Mapping[str, LocalFile],
    remote: Mapping[str, RemoteObject],
    base_key: str,
    *,
    keep: Iterable[str] = (),
    delete: bool = False,
) -> SyncPlan:
    """Local files keyed by relative path; remote objects by key (all under `base_key`).

    `keep` names relative paths present locally but not uploaded (too large, say): their remote
    copies are left alone even with `delete`. Without `delete`, nothing is deleted: the keys that
    would be are `remote_only`.
    """
    uploads: list[Upload] = []
    unchanged: list[str] = []
    for relative_path, file in sorted(local.items()):
        key = base_key + relative_path
        found = remote.get(key)
        if found is None:
            uploads.append(Upload(key, relative_path, UploadReason.NEW))
        elif _same_content(file, found):
            unchanged.append(key)
        else:
            uploads.append(Upload(key, relative_path, UploadReason.CHANGED))
    wanted = {base_key + path for path in local} | {base_key + path for path in keep}
    missing = tuple(
        sorted(
            key
            for key in remote
            if key.startswith(base_key) and is_managed(key[len(base_key) :]) and key not in wanted
        )
    )
    if delete:
        return SyncPlan(base_key, tuple(uploads), tuple(unchanged), deletes=missing)
    return SyncPlan(base_key, tuple(uploads), tuple(unchanged), remote_only=missing)
