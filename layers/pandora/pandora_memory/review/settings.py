"""The review function's configuration: the table names the template gives every function.

A frozen dataclass read by `env_config`, like the other settings: no pydantic model to build at start.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from pandora_memory.env_config import metrics_namespace, resource_name, service_name


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
        candidates_table=resource_name(environ, "CANDIDATES_TABLE"),
        memory_table=resource_name(environ, "MEMORY_TABLE"),
        feedback_table=resource_name(environ, "FEEDBACK_TABLE"),
        projections_table=resource_name(environ, "PROJECTIONS_TABLE"),
        metrics_namespace=metrics_namespace(environ),
        service_name=service_name(environ),
    )


@cache
def get_review_settings() -> ReviewSettings:
    return load_review_settings(os.environ)
