"""The review function's configuration: the table names the template gives every function."""

import os
from collections.abc import Mapping
from functools import cache

from pydantic import BaseModel, ConfigDict, Field


class ReviewSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    candidates_table: str = Field(alias="CANDIDATES_TABLE", min_length=3)
    memory_table: str = Field(alias="MEMORY_TABLE", min_length=3)
    feedback_table: str = Field(alias="FEEDBACK_TABLE", min_length=3)
    projections_table: str = Field(alias="PROJECTIONS_TABLE", min_length=3)
    metrics_namespace: str = Field(default="Pandora", alias="POWERTOOLS_METRICS_NAMESPACE")
    service_name: str = Field(default="pandora-memory", alias="POWERTOOLS_SERVICE_NAME")


def load_review_settings(environ: Mapping[str, str]) -> ReviewSettings:
    return ReviewSettings.model_validate(dict(environ))


@cache
def get_review_settings() -> ReviewSettings:
    return load_review_settings(os.environ)
