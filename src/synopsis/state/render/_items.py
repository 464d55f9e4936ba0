"""The checkpoint's line record and what every part of the renderer shares about lines.

An :class:`_Item` is one line with its section, priority and age; the ``P_*`` priorities
say what goes first when the text is over its size; the labels are the fixed words lines
open with (the fitting and merging steps recognise lines by them); the formatters write
one value, fact, rule or failed call as one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from synopsis.state._text import (
    contains_value,
    one_line,
    window,
)
from synopsis.state.model import (
    Identifier,
    ToolCallRecord,
    WorkingState,
)
from synopsis.state.statements import without_old_values

Layout = Literal["checkpoint", "turn_prefix", "branch"]
"""The three checkpoints: a compaction's, a split turn's early part, a branch summary."""

NEVER = 1000
P_DONE = 0
P_OLD_FINISHED = 1
P_PRIOR_NEXT = 1
P_READ_FILE = 1
P_PRIOR_CONTEXT = 2
P_MINOR_VALUE = 4
P_COMMANDS = 3
P_RESOLVED = 4
P_APPROACH = 5
P_GOAL = 5
P_EDITS = 6
P_NEXT = 6
P_DECISION = 6
P_FINDING = 5
P_FINISHED = 6
P_MODIFIED_FILE = 6
P_USER_DECISION = 7
P_IN_PROGRESS = 8
P_PINNED_VALUE = 9
P_KEPT = 9
"""The latest decisions and failures: substance, kept while the size target drops detail;
the decisions go last when it must shrink further, the hard cap may drop all (the guard
never restores them)."""
P_BLOCKED = 10
P_OPEN_STEP = P_BLOCKED
"""That a request is open (In Progress names it, in a short line): the task state an
agent continues from (seed 001), so it outlasts the values when the hard cap bites,
like an open failure."""
P_PINNED_GOAL = 11
P_ORIGINAL_REQUEST = 12
"""The first request states what the whole session is for: when the cap leaves room for
one request only, it is the one kept (the guard keeps the first Goal line too)."""

_CONTEXT_CHARS = 120
_EARLIER_FAILURE = "- Earlier failure (resolved later): "
"""How a merged prior Blocked item that a later success resolved is kept."""
_FOCUS_WORD = re.compile(r"[A-Za-z0-9_./-]{4,}|[\u4e00-\u9fff]{2,}")


@dataclass(frozen=True, slots=True)
class _Item:
    section: str
    text: str
    priority: int
    order: int
    group: str | None = None
    """The entry a fact line was said in: under a hard cap the facts of one entry that
    stay are listed on one line (:func:`_layout_text`)."""
    unbacked: bool = False
    """A previous checkpoint's request that the state does not hold as one: kept as long
    as a request within the size target, but under a hard cap it goes before what the
    state holds (the state is what the checkpoint is trusted for)."""
    named_again: bool = False
    """A reference line the work names again (:mod:`synopsis.state._named_again`): at
    the size target it ranks one step above its priority; under a hard cap, where every
    section must shrink, it only outlasts the lines of its own priority."""


_REPORTED_KEEP_KINDS = frozenset({"sha", "commit", "id", "ticket", "issue"})
"""Kinds of value a tool may report that name one thing later steps refer to."""
_LISTING = 3
"""A tool result naming this many values of one kind lists them (``git log``, a search):
none of them is *the* handle a later step needs, so each is a minor value."""


def pinned_goals(state: WorkingState) -> tuple[str, ...]:
    """The first request and the latest three: what the guard insists on."""
    texts = [g.text for g in state.goals]
    if len(texts) <= 4:
        return tuple(texts)
    return (texts[0], *texts[-3:])


def constraint_line(text: str, entry_id: str | None) -> str:
    text = one_line(text)
    return f"- {text} [entry {one_line(entry_id)}]" if entry_id else f"- {text}"


def code(text: str) -> str:
    text = one_line(text)
    return f"`{text}`" if text and "`" not in text else text


def call_label(record: ToolCallRecord) -> str:
    return f"{one_line(record.name)} {code(record.target)}".strip()


def error_line(record: ToolCallRecord) -> str:
    return f"- {call_label(record)} failed: {one_line(record.error or '(no error message)')}"


_NAMED_NUMBER = re.compile(r"(?<![\w/])([A-Z][\w&'-]{2,})\s+$")
_TRACKER_WORD = re.compile(r"^(?:issues?|prs?|pull|bugs?|tickets?|fix(?:es|ed)?|close[sd]?|"
                           r"resolve[sd]?|see|refs?|mr|gh)$", re.IGNORECASE)  # fmt: skip


def _named_number(identifier: Identifier) -> str | None:
    """The name a "#218" follows when it numbers a named thing ("FreshCart #218", a store;
    "Gate #4") rather than an issue of a tracker ("issue #218", "fixes #218")."""
    if identifier.kind != "issue" or not identifier.value.startswith("#"):
        return None
    at = identifier.context.find(identifier.value)
    found = _NAMED_NUMBER.search(identifier.context[:at]) if at > 0 else None
    if found is None or _TRACKER_WORD.match(found.group(1)):
        return None
    return found.group(1)


def identifier_line(identifier: Identifier, stale: Iterable[str]) -> str:
    name = _named_number(identifier)
    if name is not None:  # said with its subject, not as an issue of a tracker
        line = f"- number: {one_line(name)} {one_line(identifier.value)}"
    else:
        line = f"- {one_line(identifier.kind)}: {one_line(identifier.value)}"
    context = identifier.context
    if (
        context
        and context != identifier.value
        and not any(contains_value(context, v) for v in stale)
    ):
        at = context.find(identifier.value)
        line += f" — “{one_line(window(context, max(at, 0), _CONTEXT_CHARS))}”"
    return line


FACT_LABEL = "- fact: "
_FACT_JOIN = "; "
"""Between the facts of one entry listed on one line (under a hard cap)."""


REPORTED_LABEL = "- Reported: "
"""An assistant's statement of work it did, as Done lists it."""
USER_REPORTED_LABEL = "- The user reported: "
"""A failure the user reported (in their words, or the error line they pasted)."""
ERROR_NOTED_LABEL = "- Error noted: "
"""An assistant's statement of an error it met, as Failed Approaches lists it."""
_STATEMENT_LABELS = (FACT_LABEL, REPORTED_LABEL, ERROR_NOTED_LABEL)


def fact_line(text: str) -> str:
    """A fact as a checkpoint line: labelled, so its own words ("Plan: …") never read as a
    section label, and without the value it replaced."""
    return FACT_LABEL + one_line(without_old_values(text))


_FINISH = "- Finish the current request: "
_FINISH_EITHER = "- Finish the current request"
"""What the line for the open request starts with, whole or short."""
_FINISH_REQUEST = "- Finish the current request (the last goal above)"
_NOW = "- Now: "
"""The step under way in the assistant's words (a status line, recomputed each time)."""
_USER_CHOSE = "- User chose: "
_WORKING_ON = "- Working on: "
_WORKING_ON_GOAL = "- Working on: the last goal above"
"""The In Progress line for the open request when Goal states its words: that the request
is open is substance (what the agent continues), so the line shrinks but never goes, and
still says which request it is (Goal lists the original request first, the current last)."""
_WORKING_ON_REQUEST = "- Working on: the request above"
"""The same for a split turn's early part, whose Original Request is the one under way."""
_EARLIER_REQUEST = "- Earlier request, not reported done: "


class _Counter:
    """Monotonic order numbers: a later item is younger, so it is kept longer."""

    def __init__(self, start: int = 0) -> None:
        self._next = start

    def __call__(self) -> int:
        self._next += 1
        return self._next
