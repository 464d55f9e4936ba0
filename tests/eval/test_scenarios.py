"""The canary generator: deterministic per seed, canaries where it says they are."""

from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.errors import SettingsError
from synopsis.eval import CANARY_TYPES, CanaryType, generate_scenario
from synopsis.eval._words import chinese_number, english_number
from synopsis.eval.metrics import has_token, normalize, render_message
from synopsis.eval.scenarios import LANGUAGES, STYLES, Language, Scenario, Style

COMBOS = [(style, language) for style in STYLES for language in LANGUAGES]
styles = st.sampled_from(STYLES)
languages = st.sampled_from(LANGUAGES)


def _digest(scenario: Scenario) -> str:
    payload = orjson.dumps(
        {
            "messages": scenario.messages,
            "canaries": [c.to_json() for c in scenario.canaries],
            "turns": scenario.turn_starts,
        }
    )
    return hashlib.sha256(payload).hexdigest()


def _texts(scenario: Scenario) -> list[str]:
    return [normalize(render_message(m)) for m in scenario.messages]


@pytest.mark.parametrize(("style", "language"), COMBOS)
def test_same_seed_same_scenario_other_seed_other_scenario(
    style: Style, language: Language
) -> None:
    first = generate_scenario(11, style, language, turns=12)
    again = generate_scenario(11, style, language, turns=12)
    other = generate_scenario(12, style, language, turns=12)
    assert _digest(first) == _digest(again)
    assert _digest(first) != _digest(other)
    assert {c.required for c in first.canaries}.isdisjoint({c.required for c in other.canaries})


def test_determinism_does_not_depend_on_the_interpreter_hash_seed() -> None:
    code = (
        "import hashlib, orjson\n"
        "from synopsis.eval import generate_scenario\n"
        "s = generate_scenario(5, 'support', 'zh', turns=10)\n"
        "print(hashlib.sha256(orjson.dumps([s.messages, [c.to_json() for c in s.canaries]]))"
        ".hexdigest())\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), style=styles, language=languages)
def test_every_canary_is_where_it_says_and_nowhere_earlier(
    seed: int, style: Style, language: Language
) -> None:
    scenario = generate_scenario(seed, style, language, turns=10)
    texts = _texts(scenario)
    for canary in scenario.canaries:
        here = texts[canary.position]
        for group in canary.required:
            assert any(has_token(here, normalize(s)) for s in group), (canary.id, group)
            # Unguessable: not stated before the canary (a tool canary's call comes first).
            earlier = texts[: max(0, canary.position - 1)]
            for text in earlier:
                assert not any(has_token(text, normalize(s)) for s in group), (canary.id, group)
        if canary.stale:
            assert canary.stale_position is not None
            assert canary.stale_position < canary.position
            stated = texts[canary.stale_position]
            assert any(has_token(stated, normalize(s)) for s in canary.stale), canary.id
            assert not any(has_token(stated, normalize(s)) for s in canary.required[0])
            # The replaced value is not a spelling of the new one.
            assert set(canary.stale).isdisjoint(canary.required[0])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), style=styles, language=languages)
def test_tool_canaries_sit_on_tool_results_that_match_their_status(
    seed: int, style: Style, language: Language
) -> None:
    scenario = generate_scenario(seed, style, language, turns=10)
    for canary in scenario.canaries:
        message = scenario.messages[canary.position]
        if canary.type in (CanaryType.FAILED_APPROACH, CanaryType.MODIFIED_FILE):
            assert message["role"] == "toolResult"
            assert message["isError"] is (canary.expected_status == "blocked")
            call = scenario.messages[canary.position - 1]
            assert call["content"][-1]["id"] == message["toolCallId"]
        else:
            assert message["role"] == "user"


@pytest.mark.parametrize(("style", "language"), COMBOS)
def test_a_scenario_plants_every_type_and_is_long_enough_to_compress(
    style: Style, language: Language
) -> None:
    scenario = generate_scenario(1, style, language)
    assert {c.type for c in scenario.canaries} == set(CANARY_TYPES)
    assert scenario.canaries[0].type is CanaryType.GOAL and scenario.canaries[0].position == 0
    assert scenario.tokens() > 20_000
    canary_tokens = sum(len(c.text) for c in scenario.canaries) // 4
    assert canary_tokens < 0.05 * scenario.tokens()  # the bulk is filler a compaction may drop
    results = [m for m in scenario.messages if m["role"] == "toolResult"]
    assert max(len(m["content"][0]["text"]) for m in results) > 2_000


def test_slices_cover_the_session_and_start_at_user_turns() -> None:
    scenario = generate_scenario(3, "coding", "en", turns=12)
    slices = scenario.slices(5)
    assert len(slices) == 5
    assert slices[0][0] == 0 and slices[-1][1] == len(scenario.messages)
    for (_, end), (start, _) in itertools.pairwise(slices):
        assert end == start
    for start, end in slices:
        assert start < end
        assert scenario.messages[start]["role"] == "user"
    assert scenario.tokens(slices[2][1]) < scenario.tokens()
    assert scenario.active(slices[0][1]) == tuple(
        c for c in scenario.canaries if c.position < slices[0][1]
    )
    with pytest.raises(SettingsError):
        scenario.slices(13)
    with pytest.raises(SettingsError):
        scenario.slices(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"style": "chat"}, "unknown style"),
        ({"language": "fr"}, "unknown language"),
        ({"turns": 3}, "turns must be at least"),
    ],
)
def test_bad_arguments_raise_a_settings_error(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        generate_scenario(1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "english", "chinese"),
    [
        (0, "zero", "零"),
        (15, "fifteen", "十五"),
        (40, "forty", "四十"),
        (460, "four hundred sixty", "四百六十"),
        (1205, "one thousand two hundred five", "一千二百零五"),
        (1010, "one thousand ten", "一千零一十"),
        (9999, "nine thousand nine hundred ninety-nine", "九千九百九十九"),
    ],
)
def test_numbers_spelled_out(n: int, english: str, chinese: str) -> None:
    assert english_number(n) == english
    assert chinese_number(n) == chinese


@given(st.integers(0, 9999))
def test_spelled_numbers_read_back_with_the_state_number_reader(n: int) -> None:
    # The extractor must be able to read the paraphrased values we plant.
    from synopsis.state._numbers import chinese_to_number, words_to_number

    assert words_to_number(english_number(n)) == n
    assert chinese_to_number(chinese_number(n)) == n
