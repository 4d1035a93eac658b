"""The review function's configuration: the table names the template gives every function.

A frozen dataclass read by `env_config`, like the other settings: no pydantic model to build at start.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from pandora_memory.env_config import text


@dataclass(frozen=True)
class ReviewSettings:
    candidates_table: str
    memory_table: str
    feedback_table: str
    projections_table: str
    metrics_namespace: str
    service_name: str


def load_review_settings(environ: Mapping[str, str]) -> ReviewSettings:
    """The settings in `environ`; `env_config.ConfigurationError` names a bad variable."""
    return ReviewSettings(
        candidates_table=text(environ, "CANDIDATES_TABLE", min_length=3),
        memory_table=text(environ, "MEMORY_TABLE", min_length=3),
        feedback_table=text(environ, "FEEDBACK_TABLE", min_length=3),
        projections_table=text(environ, "PROJECTIONS_TABLE", min_length=3),
        metrics_namespace=text(environ, "POWERTOOLS_METRICS_NAMESPACE", default="Pandora"),
        service_name=text(environ, "POWERTOOLS_SERVICE_NAME", default="pandora-memory"),
    )


@cache
def get_review_settings() -> ReviewSettings:
    return load_review_settings(os.environ)
