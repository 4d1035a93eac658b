import pytest
from pandora_memory.env_config import ConfigurationError
from pandora_memory.settings import load_settings

ENV = {
    "CANDIDATES_TABLE": "stack-memory-capture-candidates",
    "MEMORY_TABLE": "stack-memory-events",
    "FLAGS_PATH": "/pandora/dev/flags",
    "UNRELATED": "ignored",
}


def test_template_names_and_safe_defaults() -> None:
    settings = load_settings(ENV)
    assert (settings.candidates_table, settings.memory_table, settings.flags_path) == (
        "stack-memory-capture-candidates",
        "stack-memory-events",
        "/pandora/dev/flags",
    )
    assert (settings.context_budget_tokens, settings.auto_capture_min_confidence) == (1500, 0.8)
    assert settings.flags_max_age_seconds == 60


def test_tunables_come_from_the_environment() -> None:
    settings = load_settings(
        {**ENV, "PANDORA_CONTEXT_BUDGET_TOKENS": "800", "PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE": "0.9"}
    )
    assert (settings.context_budget_tokens, settings.auto_capture_min_confidence) == (800, 0.9)


@pytest.mark.parametrize(
    "change",
    [
        {"MEMORY_TABLE": ""},
        {"FLAGS_PATH": "pandora/dev/flags"},
        {"PANDORA_AUTO_CAPTURE_MIN_CONFIDENCE": "0.1"},
        {"PANDORA_CONTEXT_BUDGET_TOKENS": "lots"},
        {"PANDORA_FLAGS_MAX_AGE_SECONDS": "-1"},
        {"CANDIDATES_TABLE": None},
    ],
)
def test_bad_configuration_fails_at_start(change: dict[str, str | None]) -> None:
    environ = {name: value for name, value in {**ENV, **change}.items() if value is not None}
    with pytest.raises(ConfigurationError, match=next(iter(change))):
        load_settings(environ)
