"""The functions' configuration, read once from the environment the template sets.

Only names and tunables live here; feature flags live in SSM (see `pandora_memory.flags`) so they can
change without a deploy. A frozen dataclass read by `env_config`: the authorizer reads these settings
and would otherwise import pydantic for them alone.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from pandora_memory.env_config import integer, metrics_namespace, number, resource_name, service_name, text


@dataclass(frozen=True)
class Settings:
    candidates_table: str
    memory_table: str
    flags_path: str
    memory_bucket: str
    tokens_path: str
    # Review outcomes that tune the candidate policy (the turn only; other functions leave it unset).
    feedback_table: str
    stage: str
    service_name: str
    metrics_namespace: str

    flags_max_age_seconds: int
    # ~4 characters per token is the usual estimate for English text.
    context_budget_tokens: int
    auto_capture_min_confidence: float


def load_settings(environ: Mapping[str, str]) -> Settings:
    """The settings in `environ`; `env_config.ConfigurationError` (a ValueError) names a bad variable."""
    return Settings(
        candidates_table=resource_name(environ, "CANDIDATES_TABLE"),
        memory_table=resource_name(environ, "MEMORY_TABLE"),
        flags_path=text(environ, "FLAGS_PATH", prefix="/"),
        memory_bucket=text(environ, "MEMORY_BUCKET", default=""),
        tokens_path=text(environ, "TOKENS_PATH", default=""),
        feedback_table=text(environ, "FEEDBACK_TABLE", default=""),
        stage=text(environ, "STAGE", default="dev"),
        service_name=service_name(environ),
        metrics_namespace=metrics_namespace(environ),
        flags_max_age_seconds=integer(environ, "PANDORA_FLAGS_MAX_AGE_SECONDS", default=60, ge=0, le=3600),
        context_budget_tokens=integer(
            environ, "PANDORA_CONTEXT_BUDGET_TOKENS", default=1500, ge=100, le=20000
        ),
        auto_capture_min_confidence=number(
            environ, "PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE", default=0.8, ge=0.5, le=1.0
        ),
    )


@cache
def get_settings() -> Settings:
    """The process's settings, parsed once per container."""
    return load_settings(os.environ)
