"""The `ObjectRemoved:DeleteMarkerCreated` events moto does not send.

A plain DeleteObject on a versioned bucket creates a delete marker; S3 notifies it, moto (5.2) does
not. The watcher lists the subscription's prefix with ListObjectVersions and turns every new latest
delete marker into the record S3 would have sent (key form-encoded as moto encodes it, the marker's
version id, its time). Only public S3 calls are used, so nothing depends on moto's internals.
"""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote_plus

from pandora_devstack.s3_subscriptions import S3Subscription

DELETE_MARKER_CREATED = "s3:ObjectRemoved:DeleteMarkerCreated"


def _event_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class DeleteMarkerWatcher:
    def __init__(
        self, s3: Any, subscription: S3Subscription, region: str, log: Callable[[str], None]
    ) -> None:
        self._s3 = s3
        self._subscription = subscription
        self._region = region
        self._log = log
        self._seen: set[tuple[str, str]] = set()

    def applies(self) -> bool:
        """Only versioned buckets make delete markers, and only removal subscriptions want them."""
        if not self._subscription.wants(DELETE_MARKER_CREATED):
            return False
        versioning = self._s3.get_bucket_versioning(Bucket=self._subscription.bucket)
        return bool(versioning.get("Status") == "Enabled")

    def baseline(self) -> None:
        """Markers that exist already were notified (or predate the stack): never re-announced."""
        self._seen = set(self._latest_markers())

    def poll(self) -> list[dict[str, Any]]:
        """One S3 event per delete marker that became the latest version since the last poll."""
        current = self._latest_markers()
        fresh = [marker for marker in current if marker not in self._seen]
        self._seen = set(current)
        return [self._event(key, version_id, current[key, version_id]) for key, version_id in fresh]

    def _latest_markers(self) -> dict[tuple[str, str], datetime]:
        markers: dict[tuple[str, str], datetime] = {}
        paginator = self._s3.get_paginator("list_object_versions")
        for page in paginator.paginate(Bucket=self._subscription.bucket, Prefix=self._subscription.prefix):
            for marker in page.get("DeleteMarkers", []):
                key = marker["Key"]
                if marker.get("IsLatest") and self._subscription.matches_key(key):
                    markers[key, marker["VersionId"]] = marker["LastModified"]
        return markers

    def _event(self, key: str, version_id: str, modified: datetime) -> dict[str, Any]:
        bucket = self._subscription.bucket
        record = {
            "eventVersion": "2.1",
            "eventSource": "aws:s3",
            "awsRegion": self._region,
            "eventTime": _event_time(modified),
            "eventName": DELETE_MARKER_CREATED.removeprefix("s3:"),
            "s3": {
                "s3SchemaVersion": "1.0",
                "configurationId": f"{self._subscription.function_id}-{self._subscription.event_id}",
                "bucket": {"name": bucket, "arn": f"arn:aws:s3:::{bucket}"},
                "object": {"key": quote_plus(key), "versionId": version_id},
            },
        }
        return {"Records": [record]}
