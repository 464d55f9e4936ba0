"""Compaction settings are checked when made; the message-count keep window stays paired."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.errors import SettingsError, SynopsisError
from tests.session.builders import Chain, assistant, call, tool_result, user


def test_defaults_are_pis() -> None:
    settings = CompactionSettings()
    assert settings.enabled
    assert (settings.reserve_tokens, settings.keep_recent_tokens) == (16384, 20000)
    assert settings.trigger_fraction is None
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
        {"trigger_fraction": 0},
        {"trigger_fraction": -0.5},
        {"trigger_fraction": 1.01},
        {"trigger_fraction": True},
        {"trigger_fraction": "0.5"},
        {"trigger_fraction": float("nan")},
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
        {"trigger_fraction": 1},
        {"trigger_fraction": 0.001},
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
    fraction = CompactionSettings(reserve_tokens=10_000, trigger_fraction=0.5)
    assert fraction.threshold(100_000) == 50_000  # whichever comes first
    assert fraction.should_compact(50_001, 100_000)
    late = CompactionSettings(reserve_tokens=10_000, trigger_fraction=0.95)
    assert late.threshold(100_000) == 90_000
    assert not CompactionSettings(enabled=False).should_compact(10**9, 1000)


@pytest.mark.parametrize(
    ("options", "window", "mentions"),
    [
        ({"reserve_tokens": 16384}, 16384, "reserve_tokens"),
        ({"reserve_tokens": 20000}, 8192, "reserve_tokens"),
        ({"keep_recent_tokens": 20000, "reserve_tokens": 16384}, 32000, "keep_recent_tokens"),
        ({"keep_recent_tokens": 40000, "trigger_fraction": 0.25}, 128_000, "keep_recent_tokens"),
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
