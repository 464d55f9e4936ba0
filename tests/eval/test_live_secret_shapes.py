"""The credential check of the real sets catches each shape it names, and not a look-alike.

The strings are made up here, in the shape each service documents; none is a real key.
"""

from __future__ import annotations

import pytest

from tests.eval._real_sets import LIVE_SECRET

_FAKE_TAIL = "Q" * 31 + "x2"


@pytest.mark.parametrize(
    "text",
    [
        "bot token 1234567890:AA" + _FAKE_TAIL + " in the config",
        "GOOGLE_KEY=AIza" + "B" * 35,
        "stripe sk_live_" + "9" * 24,
        "ANTHROPIC_API_KEY=sk-ant-" + "a" * 30,
        "ghp_" + "Z" * 36,
    ],
)
def test_a_live_shape_is_caught(text: str) -> None:
    assert LIVE_SECRET.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "at 12:30:00 the job 1234567890:ok finished",
        "ratio 12345678:AAB",  # too short for a bot token
        "FAKE-pepper-1 and sk_test_123 are placeholders",
    ],
)
def test_a_look_alike_is_not(text: str) -> None:
    assert not LIVE_SECRET.search(text)
