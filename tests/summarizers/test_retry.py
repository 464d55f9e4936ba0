"""The shared retry policy: backoff bounds, Retry-After parsing, settings checks."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synopsis.errors import SettingsError
from synopsis.providers._retry import RetryPolicy, parse_retry_after

_policies = st.builds(
    RetryPolicy,
    max_attempts=st.integers(1, 10),
    base_delay=st.floats(0, 10),
    max_delay=st.floats(0, 120),
    jitter=st.floats(0, 1),
)


@given(_policies, st.integers(1, 10_000), st.floats(0, 1, exclude_max=True))
def test_backoff_stays_within_bounds(policy: RetryPolicy, retry: int, random_value: float) -> None:
    delay = policy.backoff(retry, random_value)
    ceiling = min(policy.max_delay, policy.base_delay * 2.0 ** min(retry - 1, 60))
    assert 0.0 <= delay <= policy.max_delay
    assert ceiling * (1.0 - policy.jitter) - 1e-9 <= delay <= ceiling + 1e-9


@given(_policies, st.integers(1, 60))
def test_without_jitter_backoff_never_shrinks(policy: RetryPolicy, retry: int) -> None:
    steady = RetryPolicy(
        max_attempts=policy.max_attempts,
        base_delay=policy.base_delay,
        max_delay=policy.max_delay,
        jitter=0.0,
    )
    assert steady.backoff(retry, 0.5) <= steady.backoff(retry + 1, 0.5)


def test_backoff_doubles_until_the_cap() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.0)
    assert [policy.backoff(n, 0.0) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


NOW = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, None),
        ({"retry-after": "7"}, 7.0),
        ({"retry-after": "0"}, 0.0),
        ({"retry-after": "1.5"}, 1.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after-ms": "soon", "retry-after": "9"}, 9.0),
        ({"retry-after": "-3"}, None),
        ({"retry-after": "whenever"}, None),
        (
            {
                "retry-after": format_datetime(
                    datetime(2025, 3, 1, 12, 0, 30, tzinfo=UTC), usegmt=True
                )
            },
            30.0,
        ),
        (
            {
                "retry-after": format_datetime(
                    datetime(2025, 3, 1, 11, 0, 0, tzinfo=UTC), usegmt=True
                )
            },
            0.0,
        ),
    ],
)
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers, NOW) == expected


@pytest.mark.parametrize(
    "options",
    [
        {"max_attempts": 0},
        {"base_delay": -1.0},
        {"max_delay": -0.1},
        {"max_retry_after": -5.0},
        {"jitter": 1.5},
        {"jitter": -0.1},
    ],
)
def test_bad_policies_are_rejected(options: dict[str, float]) -> None:
    with pytest.raises(SettingsError):
        RetryPolicy(**options)  # type: ignore[arg-type]
