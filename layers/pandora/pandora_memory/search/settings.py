"""The search reader's configuration, read from the environment the template gives every function."""

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field


class SearchSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    projections_table: str = Field(alias="PROJECTIONS_TABLE", min_length=3)
    revisions_table: str = Field(alias="REVISIONS_TABLE", min_length=3)
    memory_table: str = Field(alias="MEMORY_TABLE", min_length=3)
    memory_bucket: str = Field(alias="MEMORY_BUCKET", min_length=3)
    # One Query page of the newest approved memories joins the chunks in the index.
    memory_limit: int = Field(default=200, ge=1, le=1000, alias="PANDORA_SEARCH_MEMORY_LIMIT")
    # A writer that forgets to bump memory_generation is still seen after this long; 0 trusts the
    # generation alone (the warm path then never re-reads memories on its own).
    memory_max_age_seconds: int = Field(
        default=300, ge=0, le=24 * 3600, alias="PANDORA_SEARCH_MEMORY_MAX_AGE_SECONDS"
    )


def load_search_settings(environ: Mapping[str, str] | None = None) -> SearchSettings:
    return SearchSettings.model_validate(dict(os.environ if environ is None else environ))
