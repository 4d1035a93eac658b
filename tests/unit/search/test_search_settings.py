import pytest
from pandora_memory.env_config import ConfigurationError
from pandora_memory.search.settings import load_search_settings

ENV = {
    "PROJECTIONS_TABLE": "stack-memory-projections",
    "REVISIONS_TABLE": "stack-memory-revisions",
    "MEMORY_TABLE": "stack-memory-events",
    "MEMORY_BUCKET": "stack-memory-123456789012",
    "UNRELATED": "ignored",
}


def test_template_names_and_safe_defaults() -> None:
    settings = load_search_settings(ENV)

    assert (settings.projections_table, settings.memory_table, settings.memory_bucket) == (
        "stack-memory-projections",
        "stack-memory-events",
        "stack-memory-123456789012",
    )
    assert (settings.memory_limit, settings.memory_max_age_seconds) == (200, 300)


def test_tunables_come_from_the_environment() -> None:
    settings = load_search_settings(
        {**ENV, "PANDORA_SEARCH_MEMORY_LIMIT": "50", "PANDORA_SEARCH_MEMORY_MAX_AGE_SECONDS": "0"}
    )

    assert (settings.memory_limit, settings.memory_max_age_seconds) == (50, 0)


@pytest.mark.parametrize(
    "change",
    [
        {"PROJECTIONS_TABLE": "p"},
        {"MEMORY_BUCKET": None},
        {"PANDORA_SEARCH_MEMORY_LIMIT": "0"},
        {"PANDORA_SEARCH_MEMORY_LIMIT": "many"},
        {"PANDORA_SEARCH_MEMORY_MAX_AGE_SECONDS": str(24 * 3600 + 1)},
    ],
)
def test_bad_configuration_fails_at_start(change: dict[str, str | None]) -> None:
    environ = {name: value for name, value in {**ENV, **change}.items() if value is not None}
    with pytest.raises(ConfigurationError, match=next(iter(change))):
        load_search_settings(environ)
