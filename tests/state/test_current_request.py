"""The extractor's request under way, looked up again only when it may have changed, is
the one a fresh scan of the goals finds: the latest goal whose digest is the request's.

``_Builder._current_request`` remembers its last answer with the request and the goal
texts in order; here the goals change in every way the extractor changes them (a goal
added, asked again and moved last, its record replaced, the request set to any goal's
digest, to an unknown one, or to none) and after each step the answer is held to the scan.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.state._text import digest
from synopsis.state.extract import _Builder
from synopsis.state.model import Goal, WorkingState

TEXTS = ["fix the login", "Fix the login", "fix  the login", "add a test", "ship it", "x"]
"""Goal texts, some of them with one digest (the extractor's digests normalize)."""

steps = st.lists(
    st.tuples(st.sampled_from(["add", "again", "outcome", "request", "none"]), st.integers(0, 9)),
    max_size=30,
)


def _scanned(builder: _Builder) -> Goal | None:
    request = builder.tools.request
    goals = reversed(builder.goals.values())
    return next((g for g in goals if digest(g.text) == request), None)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_the_request_under_way_is_the_one_a_fresh_scan_finds(changes: list) -> None:
    builder = _Builder(WorkingState())
    for kind, number in changes:
        text = TEXTS[number % len(TEXTS)]
        if kind == "add" and text not in builder.goals:
            builder.goals[text] = Goal(text, None)
        elif kind == "again" and text in builder.goals:  # asked again: it goes last
            builder.goals[text] = builder.goals.pop(text)
        elif kind == "outcome" and text in builder.goals:
            builder.goals[text] = replace(builder.goals[text], outcome=f"done {number}")
        elif kind == "request":
            builder.tools.request = digest(text) if number < 8 else "unknown"
        elif kind == "none":
            builder.tools.request = None
        assert builder._current_request() == _scanned(builder)
        assert builder._current_request() == _scanned(builder)  # asked twice, as per reply
