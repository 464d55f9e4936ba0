"""Rendering a working state as checkpoint text, within a size budget.

Every line of the checkpoint is an item with a section, a priority and an age. When the
text is over budget the least important items go first — old tool-call details, then
read-only files, decisions, minor values, resolved failures, intermediate requests … —
oldest first within a tier. Constraints are never dropped: a checkpoint that must lose
something loses history, never a rule. Under a hard cap the lines first say more per
character — a thing said twice is said once, a fact takes its dense form and the facts
of one entry share a line, detail (a value's quote, an old report) leaves the line —
and only then do the least important go; the original request is the last request to go.

In update mode the previous checkpoint's items are merged in: kept, de-duplicated against
the new ones, moved from In Progress to Done when a later success shows it (a failure a
later success resolved moves from Blocked to the record in Critical Context), and dropped
when they state a value the user has since corrected.

The package's modules, in the order a checkpoint is made: :mod:`._from_state` turns the
state into items (:mod:`._items` is their record, priorities and labels; :mod:`._worth`
says which values deserve a line), :mod:`._merge` merges a previous checkpoint in, and
:mod:`._fitting` fits the items to the size and lays them out.
"""

from __future__ import annotations

from dataclasses import replace

from synopsis.state._retire import stale_note
from synopsis.state._text import normalize_ws, one_line, states_stale_outside_code
from synopsis.state.model import WorkingState
from synopsis.state.render._fitting import (
    _bound,
    _fit,
    _focus_words,
    _Guarded,
    _layout_text,
    _outlasts_detail,
)
from synopsis.state.render._from_state import _retired, _state_items
from synopsis.state.render._items import (
    _STATEMENT_LABELS,
    FACT_LABEL,
    NEVER,
    P_BLOCKED,
    Layout,
    _Item,
    constraint_line,
    error_line,
    fact_line,
    identifier_line,
    pinned_goals,
)
from synopsis.state.render._merge import _merge_previous
from synopsis.state.render._worth import is_pinned_fact, is_pinned_identifier

__all__ = [
    "FACT_LABEL",
    "Layout",
    "constraint_line",
    "error_line",
    "fact_line",
    "identifier_line",
    "is_pinned_fact",
    "is_pinned_identifier",
    "pinned_goals",
    "render_state",
    "stale_note",
]


def render_state(
    state: WorkingState,
    *,
    layout: Layout = "checkpoint",
    previous_summary: str | None = None,
    max_tokens: int | None = None,
    focus: str | None = None,
    target_chars: int | None = None,
) -> str:
    """The checkpoint text for ``state`` (see the module docstring).

    ``max_tokens`` is a hard cap; ``target_chars`` the size a normal checkpoint should
    keep to (a small fraction of what it replaces). ``focus`` (the user's instructions
    for this compaction) is stated first, and the items that match it come first in
    their section and go last when the text must shrink.
    """
    stale = state.superseded_values()
    items = list(_state_items(state, stale, layout))
    if previous_summary:
        items = _merge_previous(items, previous_summary, state, stale)
    retired = state.retired_texts()
    if stale or retired:  # what a correction retired leaves every line, in every section
        items = [
            replace(i, text=shown)
            for i in items
            if (
                i.priority >= P_BLOCKED  # an open failure or a pinned goal stays, cut
                or i.text.startswith(_STATEMENT_LABELS)  # a statement keeps its other values
                or not states_stale_outside_code(i.text, stale)
            )
            and (shown := _retired(i, stale, retired)) is not None
        ]
    words = _focus_words(focus)
    if focus and focus.strip() and layout != "branch":
        line = f"- Focus: {one_line(normalize_ws(focus)[:300])}"
        items.insert(0, _Item(_FOCUS_SECTION[layout], line, NEVER, -2_000_000))
    guarded = _Guarded(state, stale)
    if target_chars is not None:
        # The soft size: detail goes first; then, unless a hard cap below it ranks them
        # line by line in their terse form, the latest decisions too (the rules, what the
        # guard restores, the latest failures and that a request is open or blocked stay).
        items = _fit(items, target_chars, layout, words, keep=_outlasts_detail)
        if max_tokens is None or max_tokens * 4 > target_chars:

            def kept(item: _Item) -> bool:
                return (_outlasts_detail(item) and not _bound(item)) or guarded(item)

            items = _fit(items, target_chars, layout, words, guarded, keep=kept)
    bare = max_tokens is not None and len(_layout_text(items, layout)) > max_tokens * 4
    if max_tokens is not None:  # the hard cap: everything but the rules may go
        items = _fit(items, max_tokens * 4, layout, words, guarded, terse=True)
    if words:
        items.sort(key=lambda item: 0 if _matches(item, words) else 1)  # stable
    return _layout_text(items, layout, bare=bare)


_FOCUS_SECTION: dict[Layout, str] = {
    "checkpoint": "goal",
    "turn_prefix": "original_request",
    "branch": "goal",
}


def _matches(item: _Item, words: frozenset[str]) -> bool:
    lowered = item.text.lower()
    return item.text.startswith("- Focus: ") or any(word in lowered for word in words)
