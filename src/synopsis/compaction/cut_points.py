"""Where to cut a branch: the first entry kept verbatim, and whether a turn is split.

A cut point is an entry the kept part may start with: any message except a tool result
(a result without its call is meaningless to a model), plus extension messages and
branch summaries. The keep budget is measured from the newest message backwards; the cut
is the first cut point at or after the place where the budget runs out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.session.context import entry_message
from synopsis.session.entries import Entry
from synopsis.tokens import estimate_tokens

_CUT_ROLES = frozenset(
    {"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)
_TURN_START_ROLES = frozenset({"user", "bashExecution"})
_PASS_OVER_TYPES = frozenset({"message", "compaction"})


def _role(entry: Entry) -> object:
    message = entry.get("message")
    return message.get("role") if isinstance(message, dict) else None


def _has_summary(entry: Entry) -> bool:
    summary = entry.get("summary")
    return isinstance(summary, str) and bool(summary)


def is_cut_point(entry: Entry) -> bool:
    """May the kept part start at ``entry``? Never at a tool result or a metadata entry."""
    kind = entry.get("type")
    if kind == "message":
        return _role(entry) in _CUT_ROLES
    if kind == "custom_message":
        return True
    return kind == "branch_summary" and _has_summary(entry)


def is_turn_start(entry: Entry) -> bool:
    """Does ``entry`` open a turn (something the user, or an extension, said)?"""
    kind = entry.get("type")
    if kind == "message":
        return _role(entry) in _TURN_START_ROLES
    if kind == "custom_message":
        return True
    return kind == "branch_summary" and _has_summary(entry)


def find_turn_start(entries: Sequence[Entry], index: int, start: int) -> int:
    """The turn start at or before ``index`` (not before ``start``), or -1."""
    for position in range(index, start - 1, -1):
        if is_turn_start(entries[position]):
            return position
    return -1


@dataclass(frozen=True, slots=True)
class CutPoint:
    first_kept_index: int
    """The first entry kept verbatim."""
    turn_start_index: int
    """With a split turn, where that turn starts (its prefix gets summarized); else -1."""
    is_split_turn: bool


def _first_message_bearing(entries: Sequence[Entry], index: int, end: int) -> Entry | None:
    for position in range(index, end):
        entry = entries[position]
        if entry.get("type") == "message" or is_cut_point(entry):
            return entry
    return None


def _entry_weight(entry: Entry, count_messages: bool, count: Callable[[Any], int]) -> int:
    """What an entry adds to the kept budget: tokens, or 1 per message."""
    if entry.get("type") == "compaction":
        return 0
    message = entry_message(entry)
    if message is None:
        return 0
    return 1 if count_messages else count(message)


def find_cut_point(
    entries: Sequence[Entry],
    start: int,
    end: int,
    keep_recent_tokens: int,
    *,
    cut_floor: int | None = None,
    keep_recent_messages: int | None = None,
    count: Callable[[Any], int] = estimate_tokens,
) -> CutPoint:
    """Choose the cut for ``entries[start:end]`` keeping about ``keep_recent_tokens``.

    The budget walk and the turn-start search cover ``[start, end)``; the cut itself lies
    at or after ``cut_floor`` (default ``start``), which is how repeated compaction keeps
    its cut after the previous compaction entry while still summarizing what that
    compaction had kept. With ``keep_recent_messages`` the budget counts messages
    instead of tokens, else ``count`` estimates them (Pi's estimate by default). When no
    cut point follows the place where the budget runs out (one huge trailing tool
    result), the last cut point is used rather than keeping everything.
    """
    floor = start if cut_floor is None else cut_floor
    first_cut = next((i for i in range(floor, end) if is_cut_point(entries[i])), -1)
    if first_cut < 0:
        return CutPoint(floor, -1, False)

    count_messages = keep_recent_messages is not None
    budget = keep_recent_messages if keep_recent_messages is not None else keep_recent_tokens
    cut = first_cut
    kept = 0
    for index in range(end - 1, start - 1, -1):
        kept += _entry_weight(entries[index], count_messages, count)
        if kept >= budget:
            after = max(index, floor)
            cut = next((i for i in range(after, end) if is_cut_point(entries[i])), -1)
            if cut < 0:
                cut = next(i for i in range(end - 1, floor - 1, -1) if is_cut_point(entries[i]))
            break

    while cut > floor and entries[cut - 1].get("type") not in _PASS_OVER_TYPES:
        cut -= 1

    first = _first_message_bearing(entries, cut, end)
    if first is None or is_turn_start(first):
        return CutPoint(cut, -1, False)
    turn_start = find_turn_start(entries, cut, start)
    return CutPoint(cut, turn_start, turn_start != -1)
