import pytest
from pandora_memory.env_config import ConfigurationError
from pandora_memory.ingest.config import DEFAULT_MAX_MARKDOWN_BYTES, load_ingest_settings

ENV = {
    "DOCUMENTS_TABLE": "stack-memory-documents",
    "REVISIONS_TABLE": "stack-memory-revisions",
    "CHUNKS_TABLE": "stack-memory-chunks",
    "PROJECTIONS_TABLE": "stack-memory-projections",
    "MEMORY_BUCKET": "stack-memory-123456789012",
    "UNRELATED": "ignored",
}


def test_template_names_and_safe_defaults() -> None:
    settings = load_ingest_settings(ENV)

    assert (settings.documents_table, settings.chunks_table, settings.memory_bucket) == (
        "stack-memory-documents",
        "stack-memory-chunks",
        "stack-memory-123456789012",
    )
    assert settings.max_markdown_bytes == DEFAULT_MAX_MARKDOWN_BYTES
    assert (settings.rename_window_seconds, settings.max_projection_attempts) == (3600, 3)
    assert (settings.service_name, settings.metrics_namespace) == ("pandora-memory", "Pandora")


def test_tunables_come_from_the_environment() -> None:
    settings = load_ingest_settings(
        {**ENV, "MAX_MARKDOWN_BYTES": "1024", "RENAME_WINDOW_SECONDS": "0", "MAX_PROJECTION_ATTEMPTS": "5"}
    )

    assert (settings.max_markdown_bytes, settings.rename_window_seconds) == (1024, 0)
    assert settings.max_projection_attempts == 5


@pytest.mark.parametrize(
    "change",
    [
        {"CHUNKS_TABLE": "ab"},
        {"MEMORY_BUCKET": None},
        {"MAX_MARKDOWN_BYTES": "0"},
        {"MAX_MARKDOWN_BYTES": "2MB"},
        {"RENAME_WINDOW_SECONDS": str(8 * 24 * 3600)},
        {"MAX_PROJECTION_ATTEMPTS": "21"},
    ],
)
def test_bad_configuration_fails_at_start(change: dict[str, str | None]) -> None:
    environ = {name: value for name, value in {**ENV, **change}.items() if value is not None}
    with pytest.raises(ConfigurationError, match=next(iter(change))):
        load_ingest_settings(environ)
