"""Any text at all gives a valid, deterministic retrieve decision and never raises."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import RetrievalMode, RetrieveDecision
from pandora_memory.policy.retrieve import should_auto_retrieve_memory

_NAMESPACES = st.sampled_from([None, "real_life", "au", Namespace.AU, Namespace.REAL_LIFE])


@settings(max_examples=300, deadline=None)
@given(
    message=st.text(),
    namespace=_NAMESPACES,
    current_task=st.none() | st.text(max_size=60),
    conversation_type=st.none() | st.text(max_size=20),
)
def test_any_text_gives_a_valid_decision(
    message: str, namespace: str | Namespace | None, current_task: str | None, conversation_type: str | None
) -> None:
    decision = should_auto_retrieve_memory(message, conversation_type, namespace, current_task)
    assert isinstance(decision, RetrieveDecision)
    assert decision.reason.startswith("retrieve: " if decision.should_retrieve else "skip: ")
    assert (decision.retrieval_mode is RetrievalMode.NONE) is not decision.should_retrieve
    assert decision.rules
    if namespace is not None:
        assert decision.namespace is Namespace(str(namespace))
    assert decision == should_auto_retrieve_memory(message, conversation_type, namespace, current_task)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "my",
                "deploy",
                "again",
                "what",
                "is",
                "a",
                "it",
                "she",
                "chapter",
                "4",
                "지난번에",
                "ok",
                "next",
                "week",
                "how",
                "do",
                "i",
                "vercel",
                "?",
                ".",
            ]
        ),
        max_size=40,
    )
)
def test_cue_rich_word_salad_gives_a_valid_decision(words: list[str]) -> None:
    decision = should_auto_retrieve_memory(" ".join(words), namespace="real_life")
    assert decision.reason.startswith("retrieve: " if decision.should_retrieve else "skip: ")
