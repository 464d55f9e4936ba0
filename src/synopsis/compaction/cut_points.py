"""Where to cut a branch: the first entry kept verbatim, and whether a turn is split.

The cut works on the projection of a branch (:class:`synopsis.session.context.Projection`:
the context entries with their messages after context edits), as Pi 1.6 does. A cut
point is an entry the kept part may start with: one that contributes a message other than
a tool result (a result without its call is meaningless to a model) or a system message
(never summarized, never a kept part's start). The keep budget is measured from the
newest message backwards; the cut is the first cut point at or after the place where the
budget runs out, or the last cut point when none follows it (one huge trailing output).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.messages import AgentMessage
from synopsis.session.context import Projection, build_projection, entry_message
from synopsis.session.entries import Entry
from synopsis.session.skim import full_message
from synopsis.tokens import estimate_tokens

_CUT_ROLES = frozenset(
    {"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)
_TURN_START_ROLES = frozenset(
    {"user", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)


@dataclass(frozen=True, slots=True)
class CutPoint:
    first_kept_index: int
    """The first entry kept verbatim."""
    turn_start_index: int
    """With a split turn, where that turn starts (its prefix gets summarized); else -1."""
    is_split_turn: bool


def _has_role(entry: Entry, group: tuple[AgentMessage, ...], roles: frozenset[str]) -> bool:
    """Does ``entry`` (not a compaction) contribute a message with one of ``roles``?

    Only the leading compaction contributes two messages; others contribute at most one.
    """
    return bool(group) and group[0].get("role") in roles and entry.get("type") != "compaction"


def is_cut_point(entry: Entry) -> bool:
    """May the kept part start at ``entry`` (taken on its own, without edits)?"""
    message = entry_message(entry)
    return message is not None and _has_role(entry, (message,), _CUT_ROLES)


def is_turn_start(entry: Entry) -> bool:
    """Does ``entry`` open a turn (something the user, or an extension, said)?"""
    message = entry_message(entry)
    return message is not None and _has_role(entry, (message,), _TURN_START_ROLES)


def find_turn_start(entries: Sequence[Entry], index: int, start: int) -> int:
    """The turn start at or before ``index`` (not before ``start``), or -1."""
    for position in range(index, start - 1, -1):
        if is_turn_start(entries[position]):
            return position
    return -1


def _recovery_suffix(projection: Projection, cut: int, end: int) -> bool:
    """Is everything after ``cut`` a hidden failed attempt (Pi 1.6's overflow recovery)?

    True when the entries after the cut contribute nothing — metadata, usage records,
    context edits, or entries an edit removed —, at least one of them is a removed
    assistant reply, and no edit among them replaces anything but one of those entries.
    """
    if cut + 1 >= end:
        return False
    omitted = projection.omitted
    hidden_ids = {projection.entries[p].get("id") for p in range(cut + 1, end) if p in omitted}
    assistant = False
    for position in range(cut + 1, end):
        entry = projection.entries[position]
        if projection.messages[position] or entry.get("type") == "compaction":
            return False
        if omitted.get(position) == "assistant":
            assistant = True
        if (
            entry.get("type") == "context_edit"
            and entry.get("replacement") is not None
            and entry.get("targetId") not in hidden_ids
        ):
            return False
    return assistant


def find_projected_cut(
    projection: Projection,
    start: int,
    end: int,
    keep_recent_tokens: int,
    *,
    keep_recent_messages: int | None = None,
    count: Callable[[Any], int] = estimate_tokens,
) -> CutPoint:
    """Choose the cut for projected positions ``[start, end)`` keeping about the budget.

    Positions in the result are projected positions (see :meth:`Projection.path_index`).
    With ``keep_recent_messages`` the budget counts messages instead of tokens, else
    ``count`` estimates them (Pi's estimate by default); an unread head
    (:mod:`synopsis.session.skim`) is read for good before it is counted.
    """
    entries = projection.entries
    groups = projection.messages

    def cut_point(position: int) -> bool:
        return _has_role(entries[position], groups[position], _CUT_ROLES)

    first_cut = next((p for p in range(start, end) if cut_point(p)), -1)
    if first_cut < 0:
        return CutPoint(start, -1, False)

    budget = keep_recent_tokens if keep_recent_messages is None else keep_recent_messages
    cut = first_cut
    kept = 0
    exceeded = False
    for position in range(end - 1, start - 1, -1):
        group = groups[position]
        if not group:
            continue
        if keep_recent_messages is not None:
            kept += len(group)
        else:
            tokens = 0
            for message in group:
                tokens += count(full_message(message))
            if not tokens:
                continue  # an entry adding nothing is passed over, even with no budget
            kept += tokens
        if kept >= budget:
            exceeded = True
            after = next((p for p in range(position, end) if cut_point(p)), -1)
            cut = (
                after
                if after >= 0
                else next(p for p in range(end - 1, start - 1, -1) if cut_point(p))
            )
            break

    if exceeded and _recovery_suffix(projection, cut, end):
        cut += 1

    while cut > start and entries[cut - 1].get("type") != "compaction" and not groups[cut - 1]:
        cut -= 1

    if cut < end and _has_role(entries[cut], groups[cut], _TURN_START_ROLES):
        return CutPoint(cut, -1, False)
    turn_start = next(
        (
            p
            for p in range(min(cut, end - 1), start - 1, -1)
            if _has_role(entries[p], groups[p], _TURN_START_ROLES)
        ),
        -1,
    )
    return CutPoint(cut, turn_start, turn_start != -1)


def find_cut_point(
    entries: Sequence[Entry],
    start: int,
    end: int,
    keep_recent_tokens: int,
    *,
    keep_recent_messages: int | None = None,
    count: Callable[[Any], int] = estimate_tokens,
) -> CutPoint:
    """The cut for ``entries[start:end]`` taken as plain context entries (no compaction).

    For lists of entries that are not a session branch; a branch goes through
    :func:`synopsis.compaction.prepare.plan_cut`, which cuts its projection.
    """
    projection = build_projection(entries, compactions=False)
    return find_projected_cut(
        projection,
        start,
        end,
        keep_recent_tokens,
        keep_recent_messages=keep_recent_messages,
        count=count,
    )
