"""One sync of a folder into `memory/<namespace>/[<prefix>/]`: scan, list, plan, then (unless a dry
run) upload, and delete only with `delete=True`. Used by `pandora-memory sync` and by the local
stack's example seeding (which never deletes)."""

from dataclasses import dataclass
from pathlib import Path

from pandora_memory.namespaces import Namespace
from pandora_memory.sync.keys import base_key
from pandora_memory.sync.local_files import LocalScan, scan_directory
from pandora_memory.sync.plan import SyncPlan, keys_needing_digest, plan_sync
from pandora_memory.sync.remote import Applied, Progress, S3Mirror, quiet


class NothingToSyncError(RuntimeError):
    """The folder holds no Markdown while the bucket does: most likely the wrong folder."""


@dataclass(frozen=True)
class SyncOutcome:
    scan: LocalScan
    plan: SyncPlan
    applied: Applied | None  # None for a dry run


def prepare(
    mirror: S3Mirror, root: Path, namespace: Namespace, prefix: str = "", *, delete: bool = False
) -> tuple[LocalScan, SyncPlan]:
    scan = scan_directory(root, namespace, prefix)
    base = base_key(namespace, prefix)
    remote = mirror.listing(base)
    remote = mirror.with_digests(remote, keys_needing_digest(scan.files, remote, base))
    return scan, plan_sync(scan.files, remote, base, keep=scan.kept_paths(), delete=delete)


def sync_folder(
    mirror: S3Mirror,
    root: Path,
    namespace: Namespace,
    prefix: str = "",
    *,
    dry_run: bool = False,
    delete: bool = False,
    progress: Progress = quiet,
) -> SyncOutcome:
    scan, plan = prepare(mirror, root, namespace, prefix, delete=delete)
    if not scan.files and not scan.kept_paths() and plan.deletes:
        raise NothingToSyncError(
            f"{root} holds no Markdown, so every one of the {len(plan.deletes)} files under "
            f"{plan.base_key} would be deleted; nothing was changed"
        )
    if dry_run:
        return SyncOutcome(scan, plan, None)
    return SyncOutcome(scan, plan, mirror.apply(plan, root, progress))
