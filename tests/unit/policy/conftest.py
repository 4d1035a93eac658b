from collections.abc import Iterator

import pytest
from pandora_memory.policy import reading
from pandora_memory.policy.retrieve_lexicon import retrieve_rules


@pytest.fixture
def rules_only_lookup(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The lookup decision without the learned counts' say: for tests of what the written rules read,
    where the counts would settle the score either way."""
    weights = retrieve_rules().weights
    monkeypatch.setitem(weights, "learned_lift", 0.0)
    monkeypatch.setitem(weights, "learned_lower", 0.0)
    yield


@pytest.fixture
def rules_only_types(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The memory type the written rules choose, without the learned counts' choice between types:
    for tests of what the rules read, where the counts would weigh in."""
    monkeypatch.setattr(reading, "_learned_choice", lambda *_: None)
    yield
