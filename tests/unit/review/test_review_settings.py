import pytest
from pandora_memory.env_config import ConfigurationError
from pandora_memory.review.settings import load_review_settings

ENV = {
    "CANDIDATES_TABLE": "stack-memory-capture-candidates",
    "MEMORY_TABLE": "stack-memory-events",
    "FEEDBACK_TABLE": "stack-memory-feedback",
    "PROJECTIONS_TABLE": "stack-memory-projections",
    "UNRELATED": "ignored",
}


def test_template_names_and_defaults() -> None:
    settings = load_review_settings({**ENV, "POWERTOOLS_METRICS_NAMESPACE": "PandoraDev"})

    assert (settings.candidates_table, settings.feedback_table, settings.projections_table) == (
        "stack-memory-capture-candidates",
        "stack-memory-feedback",
        "stack-memory-projections",
    )
    assert (settings.metrics_namespace, settings.service_name) == ("PandoraDev", "pandora-memory")


@pytest.mark.parametrize("change", [{"FEEDBACK_TABLE": ""}, {"MEMORY_TABLE": None}])
def test_bad_configuration_fails_at_start(change: dict[str, str | None]) -> None:
    environ = {name: value for name, value in {**ENV, **change}.items() if value is not None}
    with pytest.raises(ConfigurationError, match=next(iter(change))):
        load_review_settings(environ)
