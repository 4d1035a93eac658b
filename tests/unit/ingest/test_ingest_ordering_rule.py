"""The ordering rule in isolation: sequencers compare as numbers, times by the second, claims break ties."""

from datetime import UTC, datetime

from pandora_memory.ingest.ordering import admits, event_order, normalise_sequencer

T0 = datetime(2025, 3, 1, 12, 0, 0, 100_000, tzinfo=UTC)


def test_sequencers_compare_as_hex_numbers_after_padding() -> None:
    assert normalise_sequencer("ff") < normalise_sequencer("0100")
    assert normalise_sequencer("0055B5E2C1D1E0A7F1") == normalise_sequencer("55b5e2c1d1e0a7f1")
    assert event_order("FF", T0, None).order_key < event_order("100", T0, None).order_key


def test_an_event_with_a_sequencer_ignores_times() -> None:
    early = event_order("20", T0, "v1")
    late = event_order("20", T0.replace(hour=13), "v1")

    assert early == late


def test_times_count_whole_seconds_and_the_version_tells_two_changes_apart() -> None:
    first = event_order(None, T0, "v1")
    same_second = event_order(None, T0.replace(microsecond=900_000), "v2")

    assert first.order_key == same_second.order_key
    assert first.claim != same_second.claim


def test_admits_newer_and_refuses_older_or_completed_repeats() -> None:
    stored = event_order("20", T0, "v2")

    assert admits(None, None, None, stored)
    assert admits(stored.order_key, stored.claim, "active", event_order("21", T0, "v3"))
    assert not admits(stored.order_key, stored.claim, "active", event_order("1F", T0, "v1"))
    assert not admits(stored.order_key, stored.claim, "active", stored)


def test_admits_a_repeat_whose_projection_is_unfinished() -> None:
    stored = event_order("20", T0, "v2")

    assert admits(stored.order_key, stored.claim, "pending", stored)
    assert admits(stored.order_key, stored.claim, "failed", stored)


def test_admits_another_version_within_the_same_second() -> None:
    stored = event_order(None, T0, "v1")

    assert admits(stored.order_key, stored.claim, "active", event_order(None, T0, "v2"))
