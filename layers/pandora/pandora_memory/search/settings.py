"""The search reader's configuration, read from the environment the template gives every function.

A frozen dataclass read by `env_config`, like the other settings: no pydantic model to build at start.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass

from pandora_memory.env_config import integer, resource_name


@dataclass(frozen=True)
class SearchSettings:
    projections_table: str
    revisions_table: str
    memory_table: str
    memory_bucket: str
    # One Query page of the newest approved memories joins the chunks in the index.
    memory_limit: int
    # A writer that forgets to bump memory_generation is still seen after this long; 0 trusts the
    # generation alone (the warm path then never re-reads memories on its own).
    memory_max_age_seconds: int


def load_search_settings(environ: Mapping[str, str] | None = None) -> SearchSettings:
    """The settings in `environ` (the process's by default); `env_config.ConfigurationError` names a bad
    variable."""
    env = os.environ if environ is None else environ
    return SearchSettings(
        projections_table=resource_name(env, "PROJECTIONS_TABLE"),
        revisions_table=resource_name(env, "REVISIONS_TABLE"),
        memory_table=resource_name(env, "MEMORY_TABLE"),
        memory_bucket=resource_name(env, "MEMORY_BUCKET"),
        memory_limit=integer(env, "PANDORA_SEARCH_MEMORY_LIMIT", default=200, ge=1, le=1000),
        memory_max_age_seconds=integer(
            env, "PANDORA_SEARCH_MEMORY_MAX_AGE_SECONDS", default=300, ge=0, le=24 * 3600
        ),
    )
