"""Compaction settings are checked when made; the message-count keep window stays paired."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.errors import SettingsError, SynopsisError
from tests.session.builders import Chain, assistant, call, tool_result, user


def test_defaults_are_pis() -> None:
    settings = CompactionSettings()
    assert settings.enabled
    assert (settings.reserve_tokens, settings.keep_recent_tokens) == (16384, 20000)
    assert settings.trigger_percent is None
    assert settings.keep_recent_messages is None


@pytest.mark.parametrize(
    "options",
    [
        {"reserve_tokens": -1},
        {"keep_recent_tokens": -5},
        {"reserve_tokens": True},
        {"keep_recent_tokens": False},
        {"reserve_tokens": 1.5},
        {"keep_recent_tokens": "20000"},
        {"keep_recent_tokens": None},
        {"keep_recent_messages": 0},
        {"keep_recent_messages": -3},
        {"keep_recent_messages": True},
        {"keep_recent_messages": 2.0},
        {"trigger_percent": 0},
        {"trigger_percent": -5},
        {"trigger_percent": 100.5},
        {"trigger_percent": True},
        {"trigger_percent": "50"},
        {"trigger_percent": float("nan")},
        {"token_counter": "cjk"},
        {"full_pass_every": 0},
        {"full_pass_every": 2.5},
        {"full_pass_summary_share": 0},
        {"full_pass_summary_share": 1.5},
    ],
)
def test_bad_values_are_a_settings_error(options: dict[str, Any]) -> None:
    with pytest.raises(SettingsError) as raised:
        CompactionSettings(**options)
    name = next(iter(options))
    assert name in str(raised.value)
    assert isinstance(raised.value, SynopsisError)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    "options",
    [
        {"reserve_tokens": 0, "keep_recent_tokens": 0},
        {"trigger_percent": 100},
        {"trigger_percent": 0.1},
        {"keep_recent_messages": 1},
        {"enabled": False},
    ],
)
def test_edge_values_are_accepted(options: dict[str, Any]) -> None:
    CompactionSettings(**options)


def test_threshold_and_trigger() -> None:
    settings = CompactionSettings(reserve_tokens=10_000)
    assert settings.threshold(100_000) == 90_000
    assert settings.should_compact(90_001, 100_000)
    assert not settings.should_compact(90_000, 100_000)
    percent = CompactionSettings(reserve_tokens=10_000, trigger_percent=50)
    assert percent.threshold(100_000) == 50_000  # whichever comes first
    assert percent.should_compact(50_001, 100_000)
    late = CompactionSettings(reserve_tokens=10_000, trigger_percent=95)
    assert late.threshold(100_000) == 90_000
    assert not CompactionSettings(enabled=False).should_compact(10**9, 1000)


@pytest.mark.parametrize(
    ("options", "window", "mentions"),
    [
        ({"reserve_tokens": 16384}, 16384, "reserve_tokens"),
        ({"reserve_tokens": 20000}, 8192, "reserve_tokens"),
        ({"keep_recent_tokens": 20000, "reserve_tokens": 16384}, 32000, "keep_recent_tokens"),
        ({"keep_recent_tokens": 40000, "trigger_percent": 25}, 128_000, "keep_recent_tokens"),
        ({}, 0, "context_window"),
        ({}, -100, "context_window"),
        ({}, True, "context_window"),
    ],
)
def test_settings_that_cannot_work_with_a_window_are_rejected(
    options: dict[str, Any], window: Any, mentions: str
) -> None:
    with pytest.raises(SettingsError, match=mentions):
        CompactionSettings(**options).check_window(window)


def test_settings_that_fit_the_window_pass_the_check() -> None:
    CompactionSettings().check_window(200_000)
    CompactionSettings(keep_recent_messages=50, keep_recent_tokens=10**9).check_window(64_000)


def test_settings_are_frozen() -> None:
    settings = CompactionSettings()
    with pytest.raises(AttributeError):
        settings.reserve_tokens = 5  # type: ignore[misc]


# --- keeping a number of messages ---------------------------------------------------------


def _agentic_branch() -> Chain:
    chain = Chain()
    for turn in range(5):
        chain.message(user(f"task {turn}"))
        for step in range(3):
            calls = [call(f"t{turn}s{step}c{k}", "read", {"path": f"f{k}"}) for k in range(2)]
            chain.message(assistant(f"step {step}", calls=calls))
            for block in calls:
                chain.message(tool_result(block["id"], "output " * 20))
        chain.message(assistant(f"task {turn} done"))
    return chain


@pytest.mark.parametrize("keep", range(1, 40))
def test_keep_recent_messages_never_separates_a_call_from_its_result(keep: int) -> None:
    chain = _agentic_branch()
    settings = CompactionSettings(keep_recent_messages=keep)
    preparation = prepare_compaction(chain.entries, settings)
    assert preparation is not None
    kept = [e["message"] for e in chain.entries[preparation.first_kept_index :]]
    assert kept[0]["role"] != "toolResult"
    available = {
        block["id"]
        for message in kept + preparation.turn_prefix_messages
        if message["role"] == "assistant"
        for block in message["content"]
        if block["type"] == "toolCall"
    }
    results = [m["toolCallId"] for m in kept if m["role"] == "toolResult"]
    assert set(results) <= available
    # like the token budget, the window is rounded to the next cut point, never past the leaf
    assert 1 <= len(kept) <= keep


# --- settings that fit the window ---------------------------------------------------------


@pytest.mark.parametrize("window", [16_000, 32_000])
def test_pis_defaults_do_not_fit_small_windows_but_for_window_does(window: int) -> None:
    with pytest.raises(SettingsError, match=r"for_window"):
        CompactionSettings().check_window(window)
    settings = CompactionSettings.for_window(window)
    settings.check_window(window)
    assert settings.keep_recent_tokens < settings.threshold(window)
    # the reply's reserve and the kept part are both real shares of the window
    assert window // 8 <= settings.reserve_tokens <= window // 2
    assert window // 8 <= settings.keep_recent_tokens <= window // 2


@given(st.integers(1, 10_000_000))
def test_for_window_always_fits_and_never_exceeds_pis_values(window: int) -> None:
    settings = CompactionSettings.for_window(window)
    settings.check_window(window)
    assert settings.reserve_tokens <= 16384
    assert settings.keep_recent_tokens <= 20000
    if window >= 80_000:
        assert (settings.reserve_tokens, settings.keep_recent_tokens) == (16384, 20000)


@given(st.integers(1, 400_000), st.integers(1, 400_000))
def test_for_window_grows_with_the_window(a: int, b: int) -> None:
    small, large = sorted((a, b))
    one, other = CompactionSettings.for_window(small), CompactionSettings.for_window(large)
    assert one.reserve_tokens <= other.reserve_tokens
    assert one.keep_recent_tokens <= other.keep_recent_tokens


def test_for_window_keeps_explicit_values_and_other_options() -> None:
    settings = CompactionSettings.for_window(
        32_000, keep_recent_tokens=5000, trigger_percent=60, enabled=False
    )
    assert settings.keep_recent_tokens == 5000
    assert settings.reserve_tokens == 8000
    assert settings.threshold(32_000) == 19_200
    assert not settings.enabled
    with pytest.raises(SettingsError, match="keep_recent_tokens"):
        CompactionSettings.for_window(32_000, keep_recent_tokens=30_000)
    with pytest.raises(SettingsError, match="context_window"):
        CompactionSettings.for_window(0)


def test_trigger_percent_is_a_share_of_the_window() -> None:
    settings = CompactionSettings(reserve_tokens=1000, trigger_percent=80)
    assert settings.threshold(200_000) == 160_000
    assert settings.should_compact(160_001, 200_000)
    assert not settings.should_compact(160_000, 200_000)
    assert CompactionSettings(reserve_tokens=1000, trigger_percent=100).threshold(10_000) == 9000
