"""The functions' configuration, read once from the environment the template sets.

Only names and tunables live here; feature flags live in SSM (see `pandora_memory.flags`) so they can
change without a deploy.
"""

import os
from collections.abc import Mapping
from functools import cache

from pydantic import BaseModel, ConfigDict, Field


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    candidates_table: str = Field(alias="CANDIDATES_TABLE", min_length=3)
    memory_table: str = Field(alias="MEMORY_TABLE", min_length=3)
    memory_bucket: str = Field(default="", alias="MEMORY_BUCKET")
    flags_path: str = Field(alias="FLAGS_PATH", pattern=r"^/")
    tokens_path: str = Field(default="", alias="TOKENS_PATH")
    # Review outcomes that tune the candidate policy (the turn only; other functions leave it unset).
    feedback_table: str = Field(default="", alias="FEEDBACK_TABLE")
    stage: str = Field(default="dev", alias="STAGE")
    service_name: str = Field(default="pandora-memory", alias="POWERTOOLS_SERVICE_NAME")
    metrics_namespace: str = Field(default="Pandora", alias="POWERTOOLS_METRICS_NAMESPACE")

    flags_max_age_seconds: int = Field(default=60, ge=0, le=3600, alias="PANDORA_FLAGS_MAX_AGE_SECONDS")
    # ~4 characters per token is the usual estimate for English text.
    context_budget_tokens: int = Field(default=1500, ge=100, le=20000, alias="PANDORA_CONTEXT_BUDGET_TOKENS")
    auto_capture_min_confidence: float = Field(
        default=0.8, ge=0.5, le=1.0, alias="PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE"
    )


def load_settings(environ: Mapping[str, str]) -> Settings:
    return Settings.model_validate(dict(environ))


@cache
def get_settings() -> Settings:
    """The process's settings, parsed once per container."""
    return load_settings(os.environ)
