"""The ingest function's configuration, read from the environment the template sets."""

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_MAX_MARKDOWN_BYTES = 2 * 1024 * 1024


class IngestSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    documents_table: str = Field(alias="DOCUMENTS_TABLE", min_length=3)
    revisions_table: str = Field(alias="REVISIONS_TABLE", min_length=3)
    chunks_table: str = Field(alias="CHUNKS_TABLE", min_length=3)
    projections_table: str = Field(alias="PROJECTIONS_TABLE", min_length=3)
    memory_bucket: str = Field(alias="MEMORY_BUCKET", min_length=3)
    max_markdown_bytes: int = Field(
        default=DEFAULT_MAX_MARKDOWN_BYTES, ge=1, le=50 * 1024 * 1024, alias="MAX_MARKDOWN_BYTES"
    )
    # S3 has no rename: a delete and a create of the same content this close together count as one.
    rename_window_seconds: int = Field(default=3600, ge=0, le=7 * 24 * 3600, alias="RENAME_WINDOW_SECONDS")
    # One try plus the two asynchronous retries the template configures; then the event goes to the DLQ.
    max_projection_attempts: int = Field(default=3, ge=1, le=20, alias="MAX_PROJECTION_ATTEMPTS")
    service_name: str = Field(default="pandora-memory", alias="POWERTOOLS_SERVICE_NAME")
    metrics_namespace: str = Field(default="Pandora", alias="POWERTOOLS_METRICS_NAMESPACE")


def load_ingest_settings(environ: Mapping[str, str] | None = None) -> IngestSettings:
    return IngestSettings.model_validate(dict(os.environ if environ is None else environ))
