"""The ingest function's configuration, read from the environment the template sets.

A frozen dataclass read by `env_config`, not a pydantic model: nothing else on the ingest path needs
pydantic, so its cold start does not import it.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass

from pandora_memory.env_config import integer, metrics_namespace, resource_name, service_name

DEFAULT_MAX_MARKDOWN_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class IngestSettings:
    documents_table: str
    revisions_table: str
    chunks_table: str
    projections_table: str
    memory_bucket: str
    max_markdown_bytes: int
    # S3 has no rename: a delete and a create of the same content this close together count as one.
    rename_window_seconds: int
    # One try plus the two asynchronous retries the template configures; then the event goes to the DLQ.
    max_projection_attempts: int
    service_name: str
    metrics_namespace: str


def load_ingest_settings(environ: Mapping[str, str] | None = None) -> IngestSettings:
    """The settings in `environ` (the process's by default); `env_config.ConfigurationError` names a bad
    variable."""
    env = os.environ if environ is None else environ
    return IngestSettings(
        documents_table=resource_name(env, "DOCUMENTS_TABLE"),
        revisions_table=resource_name(env, "REVISIONS_TABLE"),
        chunks_table=resource_name(env, "CHUNKS_TABLE"),
        projections_table=resource_name(env, "PROJECTIONS_TABLE"),
        memory_bucket=resource_name(env, "MEMORY_BUCKET"),
        max_markdown_bytes=integer(
            env, "MAX_MARKDOWN_BYTES", default=DEFAULT_MAX_MARKDOWN_BYTES, ge=1, le=50 * 1024 * 1024
        ),
        rename_window_seconds=integer(env, "RENAME_WINDOW_SECONDS", default=3600, ge=0, le=7 * 24 * 3600),
        max_projection_attempts=integer(env, "MAX_PROJECTION_ATTEMPTS", default=3, ge=1, le=20),
        service_name=service_name(env),
        metrics_namespace=metrics_namespace(env),
    )
