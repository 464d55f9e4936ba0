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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from synopsis.state import _patterns as pat
from synopsis.state._choices import is_stated_choice
from synopsis.state._commands import SHELL_TOOLS, resolution_key
from synopsis.state._errors import is_aborted, states_failure
from synopsis.state._named_again import named_again
from synopsis.state._progress import (
    REPORTED,
    REPORTED_END,
    is_finished,
    is_follow_up,
    is_reply,
    retells_failure,
    stated_step,
    statement_words,
    states_done,
)
from synopsis.state._retire import retire_line, stale_note
from synopsis.state._text import (
    clip,
    contains_value,
    digest,
    normalize_ws,
    one_line,
    states_stale_outside_code,
    window,
)
from synopsis.state._tools import GIVEN_UP, achieved, names_made, shows_text
from synopsis.state.model import (
    STRONG_KINDS,
    Decision,
    Fact,
    Goal,
    Identifier,
    ToolCallRecord,
    WorkingState,
)
from synopsis.state.sections import (
    CONSTRAINT_LABEL,
    CORRECTED_NOTE,
    IDENTIFIER_LINE,
    SECTION_TITLES,
    item_text,
    parse_sections,
    split_entry_suffix,
    split_tail,
)
from synopsis.state.statements import without_old_values

Layout = Literal["checkpoint", "turn_prefix", "branch"]

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


def is_pinned_identifier(identifier: Identifier) -> bool:
    """Whether a value must appear in every checkpoint (the guard restores it)."""
    if identifier.superseded_by is not None or identifier.kind == "path":
        return False  # paths travel in the file lists; the rules that name them are pinned
    if identifier.source == "summary" or identifier.written == "tool":
        return False  # read back from a checkpoint, or reported in a tool's output
    if _placeholder(identifier) or _shaped_only(identifier):
        return False  # a documentation placeholder names nothing (not shown either)
    if identifier.written in ("pasted", "harness"):  # reference: only strong kinds stay
        return identifier.kind in STRONG_KINDS
    return identifier.source == "user" or identifier.kind in STRONG_KINDS


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


# --- items from the state ---------------------------------------------------------------


_REQUEST_SECTIONS = frozenset({"goal", "original_request"})


def _retired(item: _Item, stale: dict[str, str], retired: frozenset[str]) -> str | None:
    """``item``'s line as :func:`retire_line` leaves it (a request keeps its line)."""
    return retire_line(item.text, stale, retired, request=item.section in _REQUEST_SECTIONS)


def _state_items(state: WorkingState, stale: dict[str, str], layout: Layout) -> Iterable[_Item]:
    order = _Counter()
    goal_section = "original_request" if layout == "turn_prefix" else "goal"
    done = "early_progress" if layout == "turn_prefix" else "done"
    goals = state.goals
    finished = [g for g in goals if is_finished(g.outcome)]
    recent = {id(g) for g in finished[-_RECENT_FINISHED:]}
    pinned = set(pinned_goals(state))  # the guard insists on these: always in Goal
    rules = {normalize_ws(c.text) for c in state.current_constraints()}
    for index, goal in enumerate(goals):
        done_now = is_finished(goal.outcome) and goal.outcome is not None
        is_pinned = goal.text in pinned
        if layout == "turn_prefix" and normalize_ws(goal.text) in rules:
            continue  # a rule in the same words: listed once, below, as the request
        priority = P_PINNED_GOAL if is_pinned else P_GOAL
        latest = index >= len(goals) - _RECENT_FINISHED
        if index == 0 or (not done_now and index == len(goals) - 1):
            # Goal: the original request and the current one, in the user's words
            line = f"- {one_line(goal.text)}"
            first = P_ORIGINAL_REQUEST if index == 0 else priority
            yield _Item(goal_section, stale_note(line, stale), first, order())
        elif not done_now:  # asked, never reported done, and a later request came
            line = f"{_EARLIER_REQUEST}“{one_line(goal.text)}”"
            if goal.outcome:
                line += f" → {_report(goal.outcome, items=False)}"
            yield _Item(done, stale_note(line, stale), priority, order())
        did = P_FINISHED if latest else P_OLD_FINISHED
        if done_now and goal.reported and goal.outcome is not None and not is_pinned:
            # a finished request and what was reported done for it: one dense line (the
            # closing words only where the items do not already say them)
            text = one_line(_short(goal.text) if index == 0 else goal.text)
            items = _did(goal, latest)
            said = _unsaid_head(goal.outcome, items)
            line = f"- Finished: “{text}” → {said}{'; ' if said else ''}did: {items}"
            priority = max(did, P_FINISHED if id(goal) in recent else P_OLD_FINISHED)
            yield _Item(done, stale_note(line, stale), priority, order())
            continue
        if goal.reported and (done_now or index < len(goals) - 1):
            # what was reported done for a request no longer under way: its own line, as
            # long-lived as a finished request's outcome (a pinned goal's line stays whole;
            # this detail may go)
            # (what the finished request's own line says already is not said again)
            head = _report(goal.outcome, items=False) if done_now and goal.outcome else ""
            if items := _did(goal, latest, said=head):
                line = f"- Reported done for “{clip(one_line(goal.text), 50)}”: {items}"
                yield _Item(done, stale_note(line, stale), did, order())
        if done_now and goal.outcome is not None:
            text = one_line(_short(goal.text) if index == 0 else goal.text)
            report = _report(goal.outcome, items=id(goal) in recent and not goal.reported)
            line = f"- Finished: “{text}” → {report}"
            if is_pinned and index > 0:
                priority = P_PINNED_GOAL  # the guard insists on its text: here it stands
            else:
                priority = P_FINISHED if id(goal) in recent else P_OLD_FINISHED
            yield _Item(done, stale_note(line, stale), priority, order())

    constraint_section = "original_request" if layout == "turn_prefix" else "constraints"
    asked = {normalize_ws(g.text) for g in goals}
    for constraint in state.current_constraints():
        line = constraint_line(stale_note(constraint.text, stale), constraint.entry_id)
        if layout == "turn_prefix" and normalize_ws(constraint.text) not in asked:
            # a request in the words of a rule stands as the request, unlabelled (it
            # stays as long as a rule)
            line = CONSTRAINT_LABEL + line[2:]
        yield _Item(constraint_section, line, NEVER, order())

    yield from _progress_items(state, layout, order)

    shown = _choice_texts(state, stale)
    recent = {id(d) for d, _ in shown[-_KEPT_DECISIONS:]}
    listed: set[str] = set()
    for decision, text in shown:
        if text in listed:
            continue  # two choices of one message: the message, once
        listed.add(text)
        if decision.source == "user":
            line, priority = f"{_USER_CHOSE}{text}", P_USER_DECISION
        else:
            line, priority = f"- {text}", P_DECISION
        if id(decision) in recent:  # the latest choices are substance, not detail
            priority = P_KEPT
        yield _Item("decisions", line, priority, order())

    yield from _next_items(state, layout, order)
    yield from _context_items(state, stale, layout, order)


_RECENT_FINISHED = 3
"""Finished requests whose outcome outranks the command record (older ones go first)."""
_KEPT_DECISIONS = 6
_KEPT_FAILURES = 3
"""How many of the latest decisions / failures (resolved or given up) outlast the detail
at the size target (decisions go last when it must shrink further)."""
_LABEL_CHARS = 90
_ERROR_CHARS = 200
"""A resolved failure is history: its command and error line, capped (an open one, under
Blocked, keeps its whole error line)."""
_OUTCOME_CHARS = 160


def _report(outcome: str, *, items: bool) -> str:
    """A closing statement as a line: its opening words, capped, then — for the latest
    requests — what the assistant listed as done ("Removed npm test permissions; …")."""
    head = one_line(clip(statement_words(outcome), _OUTCOME_CHARS))
    start = outcome.find(REPORTED)
    end = outcome.find(REPORTED_END, start)
    if not items or start < 0 or end < 0:
        return head
    return f"{head}; did: {one_line(outcome[start + len(REPORTED) : end])}"


def _unsaid_head(outcome: str, items: str) -> str:
    """A closing statement's opening words, capped — empty when the reported items
    already say them (the report's first sentence is usually its first item)."""
    head = one_line(clip(statement_words(outcome), _OUTCOME_CHARS))
    return "" if _said_in(head.rstrip("…"), items) else head


def _said_in(text: str, other: str) -> bool:
    """Whether ``other`` already says ``text``: each of its words and numbers stands in it."""
    return set(_WORD.findall(text.lower())) <= set(_WORD.findall(other.lower()))


_WORD = re.compile(r"[^\W_]{3,}|\d+")


_DID_ITEMS = 8
_DID_ITEMS_OLD = 4
_DID_CHARS = 900


def _did(goal: Goal, latest: bool, said: str = "") -> str:
    """What the assistant reported done for ``goal``, its latest items (fewer for an old
    request), each verbatim, the line capped; without those ``said`` already says."""
    items = [i for i in goal.reported if not (said and _said_in(i, said))]
    items = items[-(_DID_ITEMS if latest else _DID_ITEMS_OLD) :]
    return clip(one_line("; ".join(items)), _DID_CHARS if latest else _DID_CHARS // 2)


def _short(text: str) -> str:
    return clip(text, 80)


_CD_PREFIX = re.compile(r"^cd \S+ && ")


def _command_label(record: ToolCallRecord, limit: int | None = None) -> str:
    """A call as Done lists it: a command without the ``cd dir &&`` it started with, cut
    to ``limit`` characters inside its code span (which stays closed, so a hard cap can
    shorten it further)."""
    if not record.target:
        return record.name
    target = _CD_PREFIX.sub("", record.target)
    if limit is not None:
        target = clip(target, max(1, limit - len(record.name) - 3))
    return f"{record.name} {code(target)}"


def _open_request(state: WorkingState) -> Goal | None:
    """The latest request when it is not finished (no closing answer, or one that reports
    findings, asks or waits for the user)."""
    if not state.goals or is_finished(state.goals[-1].outcome):
        return None
    return state.goals[-1]


def _progress_items(state: WorkingState, layout: Layout, order: _Counter) -> Iterable[_Item]:
    turn_prefix = layout == "turn_prefix"
    done = "early_progress" if turn_prefix else "done"
    in_progress = "in_progress"
    # the kept part of the turn follows unseen and may get past them: failed, not blocked
    blocked = "early_progress" if turn_prefix else "blocked"
    failed = "early_progress" if turn_prefix else "failed"

    folded = sum(n for _, n in state.folded.ok_calls_by_tool)
    if folded:
        counts = ", ".join(f"{name} ×{n}" for name, n in state.folded.ok_calls_by_tool)
        yield _Item(done, f"- {folded} earlier successful tool calls ({counts})", P_DONE, order())
    for line, priority in _done_groups(state.tool_calls, state.superseded_values()):
        yield _Item(done, line, priority, order())

    current = _open_request(state)
    if current is not None:
        line = f"- Working on: “{_short(current.text)}”"
        if turn_prefix and current is state.goals[0]:
            line = _WORKING_ON_REQUEST  # the turn's request, stated right above
        yield _Item(in_progress, line, P_OPEN_STEP, order())
        if current.reported:
            # what was done for the request under way is what the agent continues from
            line = f"- Reported done so far: {_did(current, True)}"
            yield _Item(in_progress, line, P_KEPT, order())
        if current.outcome is not None:
            line = f"- Last report: {_report(current.outcome, items=not current.reported)}"
            yield _Item(in_progress, line, P_IN_PROGRESS, order())
        elif not turn_prefix and (step := stated_step(state.last_said)):
            # the step under way in the assistant's words: why its calls run (also after
            # it had reported the request done and something sent it back to work) —
            # detail the calls below also show, so it goes first when room is short (a
            # turn prefix is followed by the rest of its turn, which says it verbatim)
            yield _Item(in_progress, f"{_NOW}{one_line(step)}", P_DONE, order())
        key = digest(current.text)
        calls = [r for r in state.tool_calls if r.request == key]
        touched = list(dict.fromkeys(p for p in map(_touched, calls) if p))
        if touched:
            names = ", ".join(code(p) for p in touched[-6:])
            more = f" (+{len(touched) - 6} more)" if len(touched) > 6 else ""
            yield _Item(in_progress, f"- Touched so far: {names}{more}", P_IN_PROGRESS, order())
        if calls:
            last = calls[-1]
            line = f"- Last step: {call_label(last)} → {_result(last)}"
            yield _Item(in_progress, line, P_IN_PROGRESS, order())
    for record in state.tool_calls:
        if record.status == "pending" and (
            current is None or record.request != digest(current.text)
        ):
            line = f"- {call_label(record)} (started, no result yet)"
            yield _Item(in_progress, line, P_IN_PROGRESS, order())

    open_errors, left_errors = state.unresolved_errors()
    open_ids = {r.call_id for r in open_errors}
    left_ids = {r.call_id for r in left_errors}
    seen: set[str] = set()
    resolved: list[str] = []
    for record in state.tool_calls:
        if record.status != "error":
            continue
        line = error_line(record)
        if line in seen:
            continue
        seen.add(line)
        if record.call_id in open_ids:
            yield _Item(blocked, line, P_BLOCKED, order())
        elif record.call_id in left_ids:  # its exact error line: the request may come back
            yield _Item(failed, f"- Left with an earlier request: {line[2:]}", P_KEPT, order())
        elif not is_aborted(record.error):  # stopped, not failed: no approach either
            error = clip(one_line(record.error or "(no error message)"), _ERROR_CHARS)
            label = _command_label(record, _LABEL_CHARS)
            how = GIVEN_UP if record.outcome == GIVEN_UP else "got past it later"
            resolved.append(f"- Tried {label}: failed with {error}; {how}")
    for index, text in enumerate(resolved):
        latest = index >= len(resolved) - _KEPT_FAILURES
        yield _Item(failed, text, P_KEPT if latest else P_RESOLVED, order())
    # a failure the user reported in the words of a request or a rule the checkpoint
    # always shows ("it crashed when I …, that should never happen") is said there
    shown = [normalize_ws(t) for t in pinned_goals(state)]
    shown += [normalize_ws(c.text) for c in state.current_constraints()]
    pasted, _ = _pasted_failures(state)  # listed from the facts, at their rank

    def said_elsewhere(approach: Decision) -> bool:
        text = normalize_ws(approach.text)
        return any(text in line for line in (*shown, *pasted))

    approaches = _one_telling(
        a for a in state.failed_approaches if a.source != "user" or not said_elsewhere(a)
    )
    for index, approach in enumerate(approaches):
        latest = index >= len(approaches) - _KEPT_FAILURES
        said = (
            f"{USER_REPORTED_LABEL}{approach.text}"
            if approach.source == "user"
            else f"- {approach.text}"
        )
        yield _Item(failed, said, P_KEPT if latest else P_APPROACH, order())


def _pasted_failures(state: WorkingState) -> tuple[set[str], set[str]]:
    """The failure lines of the output the user pasted ("Error: listen EADDRINUSE …"): a
    failure of the work they report, listed under Failed Approaches once — as the failure
    the user reported where that one holds the line (with the frame under it), else from
    the fact, which keeps the rank a pasted line has (:func:`_context_items`). Returns
    (the lines listed from the facts, the lines a reported failure holds)."""
    reported = [normalize_ws(a.text) for a in state.failed_approaches if a.source == "user"]
    lines = {
        normalize_ws(f.text)
        for f in state.current_facts()
        if f.source == "user" and f.written == "pasted" and states_failure(f.text)
    }
    held = {line for line in lines if any(line in text for text in reported)}
    return lines - held, held


def _one_telling(approaches: Iterable[Decision]) -> list[Decision]:
    """The failed approaches, a failure the assistant told again in its next telling (with
    its reason) listed once, as it was told last (:func:`retells_failure`)."""
    kept: list[Decision] = []
    for approach in approaches:
        last = kept[-1] if kept else None
        if (
            last is not None
            and last.source == approach.source == "assistant"
            and retells_failure(last.text, approach.text)
        ):
            kept[-1] = approach
        else:
            kept.append(approach)
    return kept


def _touched(record: ToolCallRecord) -> str | None:
    if record.name in ("read", "edit", "write") and record.target:
        return record.target
    return None


def _result(record: ToolCallRecord) -> str:
    if record.status == "pending":
        return "no result yet"
    if record.status == "error":
        return f"failed: {record.error or '(no error message)'}"
    return f"ok ({record.outcome})" if record.outcome else "ok"


def _done_groups(
    calls: Sequence[ToolCallRecord], stale: dict[str, str]
) -> Iterable[tuple[str, int]]:
    """Done, grouped by artifact: files edited per directory, commands per program, other
    tools per name, each with its count and latest outcome — not one line per call. An
    earlier outcome that names a replaced value (a commit a reset undid) is left out."""
    edits: dict[str, dict[str, int]] = {}
    reads: list[str] = []
    groups: dict[tuple[str, ...], list[ToolCallRecord]] = {}
    for record in calls:
        if record.name in ("edit", "write") and record.status == "ok" and record.target:
            folder, _, name = record.target.rpartition("/")
            files = edits.setdefault(folder, {})
            files[name] = files.get(name, 0) + 1
        elif record.name == "read" and record.status == "ok" and record.target:
            reads.append(record.target)
        elif record.name not in ("read", "edit", "write"):
            groups.setdefault(resolution_key(record.name, record.target), []).append(record)
    last_folder = next(
        (r.target.rpartition("/")[0] for r in reversed(calls) if r.name in ("edit", "write")
         and r.status == "ok" and r.target),
        None,
    )  # fmt: skip
    for folder, files in edits.items():
        listed = list(files.items())[-_FILES_SHOWN:]
        names = ", ".join(f"{code(n)}{f' ×{c}' if c > 1 else ''}" for n, c in listed)
        more = f" (+{len(files) - len(listed)} more)" if len(files) > len(listed) else ""
        where = f" under {code(folder + '/')}" if folder else ""
        line = f"- Edited {len(files)} file{'s' if len(files) > 1 else ''}{where}: {names}{more}"
        # where the work went last is what an agent continues from: kept at the size target
        yield line, P_KEPT if folder == last_folder else P_EDITS
    distinct = list(dict.fromkeys(reads))
    if distinct:
        shown = ", ".join(code(p) for p in distinct[-5:])
        more = f" (+{len(distinct) - 5} more)" if len(distinct) > 5 else ""
        yield (
            f"- Read {len(distinct)} file{'s' if len(distinct) > 1 else ''}: {shown}{more}",
            P_DONE,
        )
    # the latest groups whose calls reported what they achieved (a test run, a check):
    # where the work stands, kept at the size target
    reporting = [key for key, records in groups.items() if any(achieved(r.outcome) for r in
                 records if r.status == "ok")]  # fmt: skip
    position = {id(r): index for index, r in enumerate(calls)}
    reporting.sort(key=lambda key: position[id(groups[key][-1])])
    latest_checks = set(reporting[-_KEPT_CHECKS:])
    for group, records in groups.items():
        ok = [r for r in records if r.status == "ok"]
        if not ok:
            continue  # only failures: they stand in Blocked / Failed Approaches
        last = records[-1]
        line = f"- {_group_label(records)} → {_result(last)}"
        if last.status == "ok" and len(ok) < len(records):
            since = f" since entry {last.result_entry_id}" if last.result_entry_id else " since"
            line += f" (failed earlier, ok{since})"
        latest = set((last.outcome or "").split("; "))
        notes = [
            part
            for r in ok[:-1]
            if r.outcome and not any(contains_value(r.outcome, old) for old in stale)
            for part in r.outcome.split("; ")
            if part not in latest
        ]
        made = any(r.outcome and names_made(r.outcome) for r in ok)
        notes = list(dict.fromkeys(reversed(notes)))[::-1]  # each outcome once, at its latest
        if notes:
            kept = notes[-_EARLIER_OUTCOMES:]
            more = f" (+{len(notes) - len(kept)} more)" if len(notes) > len(kept) else ""
            line += "; earlier: " + "; ".join(kept) + more
        # the commits and pull requests the agent made are handles later steps name; what
        # a check or an edit step reported is the outcome of the work, above a bare "ok"
        reported = any(r.outcome for r in ok)
        substance = made or group in latest_checks
        yield line, P_KEPT if substance else P_EDITS if reported else P_COMMANDS


def _shown_decisions(state: WorkingState, stale: dict[str, str]) -> list[Decision]:
    """The decisions Key Decisions lists: the user's and the assistant's stated choices,
    without those that state a value the user replaced. A fact one of them states in the
    same words is not listed again — so this is the one place that says which are shown."""
    # a reply that opened a split turn is recorded as its request, but chooses first
    asked = [normalize_ws(g.text) for g in state.goals if not is_reply(g.text)]
    return [
        d
        for d in state.decisions
        if not any(contains_value(d.text, v) for v in stale)
        and (d.source == "user" or is_stated_choice(d.text))
        and not (d.source == "user" and _is_asked(normalize_ws(d.text), asked))
    ]


def _choice_texts(state: WorkingState, stale: dict[str, str]) -> list[tuple[Decision, str]]:
    """Each decision Key Decisions lists, with the line's words: its own — but a latest
    choice of the user's that is part of a message they typed (a fact the checkpoint
    keeps whole) is that whole message, so the message stands once, where a reader looks
    for a choice ("we start with a few product lines first. Materials are out of scope."
    is the scope chosen, not context to look up; Critical Context leaves it out)."""
    shown = _shown_decisions(state, stale)
    latest = {id(d) for d in shown[-_KEPT_DECISIONS:]}
    asked = {one_line(g.text) for g in state.goals}  # a request stands under Goal, whole
    typed = [
        said
        for f in state.current_facts()
        if is_pinned_fact(f) and (said := one_line(f.text)) not in asked
    ]
    found: list[tuple[Decision, str]] = []
    for decision in shown:
        text = one_line(decision.text)
        if decision.source == "user" and id(decision) in latest:
            text = next((message for message in typed if text in message), text)
        found.append((decision, text))
    return found


def _is_asked(text: str, asked: list[str]) -> bool:
    """Whether a user's "choice" is all of one of their requests ("Find a room in Porto
    and hold it."): Goal states it as what was asked; a choice is made between options,
    within a request (a sentence of a longer request that chooses stays a choice)."""
    return len(text) > _SHORT_CHOICE and text in asked


_SHORT_CHOICE = 40
"""A user message this short that states a choice answers the assistant ("fine, $5.99 is
ok, book it."): a choice even where it opens a turn and so stands as its request."""


_GROUP_SHOWN = 3
_KEPT_CHECKS = 2
_FILES_SHOWN = 8
_EARLIER_OUTCOMES = 6
"""How many earlier distinct outcomes a group of calls lists ("Applied edit to …")."""


_COMMANDS_SHOWN = 4
_COMMAND_CHARS = 70
_OUTPUT_FILTER = re.compile(
    r"(?:\s*2>&1|\s*\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?|\s*\|\s*cat)+\s*$"
)
"""How a command's output was cut for the agent to read (``2>&1 | tail -20``): not what it ran."""


def _group_label(records: list[ToolCallRecord]) -> str:
    """How a group of calls of one program or tool is named: the call itself when every
    call was the same ("bash `git status` ×3"), else the program with the commands it
    ran, the latest last ("bash `cargo` ×5: (+1 more) `cargo build`, `cargo clippy -- -D
    warnings` ×2, …") — for searches and listings only how many and the latest ("bash
    `find` ×12: 4 different commands, latest …") — so that one label never stands for
    commands it does not name."""
    last = records[-1]
    count = f" ×{len(records)}" if len(records) > 1 else ""
    labels: dict[str, int] = {}
    for record in records:
        key = _CD_PREFIX.sub("", record.target)
        labels[key] = labels.get(key, 0) + 1
    if len(labels) == 1:
        return f"{_command_label(last)}{count}"
    if last.name in SHELL_TOOLS and shows_text(last.target):  # searches, listings: the latest
        program = resolution_key(last.name, last.target)[-1]
        latest = clip(_CD_PREFIX.sub("", last.target), _LABEL_CHARS)
        kinds = f"{len(labels)} different commands"
        return f"{last.name} {code(program)}{count}: {kinds}, latest {code(latest)}"
    if last.name in SHELL_TOOLS:
        program = resolution_key(last.name, last.target)[-1]
        runs: dict[str, int] = {}  # each command as it ran, without the filter of its output
        for record in records:
            command = _OUTPUT_FILTER.sub("", _CD_PREFIX.sub("", record.target)) or record.target
            runs[command] = runs.pop(command, 0) + 1  # in the order last run: latest last
        shown = list(runs.items())[-_COMMANDS_SHOWN:]
        parts = ", ".join(f"{code(clip(c, _COMMAND_CHARS))}{f' ×{n}' if n > 1 else ''}"
                          for c, n in shown)  # fmt: skip
        more = f" (+{len(runs) - len(shown)} more)" if len(runs) > len(shown) else ""
        return f"{last.name} {code(program)}{count}: {more.strip()}{' ' if more else ''}{parts}"
    shown = sorted(labels.items(), key=lambda kv: -kv[1])[:_GROUP_SHOWN]
    parts = ", ".join(
        f"{code(clip(t, 60)) if t else '(no arguments)'}{f' ×{n}' if n > 1 else ''}"
        for t, n in shown
    )
    more = f" (+{len(labels) - _GROUP_SHOWN} more)" if len(labels) > _GROUP_SHOWN else ""
    return f"{last.name}{count}: {parts}{more}"


def _next_items(state: WorkingState, layout: Layout, order: _Counter) -> Iterable[_Item]:
    section = "suffix_context" if layout == "turn_prefix" else "next"
    stated = [f"- {one_line(step)}" for step in state.next_steps]
    # what the conversation itself last said is still to do is what the agent goes on with
    for line in stated[:_KEPT_STEPS]:
        yield _Item(section, line, P_KEPT, order())
    lines: list[str] = stated[_KEPT_STEPS:]
    current = _open_request(state)
    if current is not None and layout != "turn_prefix":
        # that a request is open is what the agent goes on with: Next Steps says so while
        # the request stands, shortened where Goal states its words (a turn prefix is
        # that request)
        line = f"{_FINISH}“{one_line(_short(current.text))}”"
        yield _Item(
            section, line, P_NEXT, order()
        )  # kept at the size target (see _outlasts_detail)
    for record in state.open_errors()[-3:]:
        lines.append(f"- Get past the failure of {call_label(record)} (see Blocked)")
    for record in state.tool_calls:
        if record.status == "pending":
            lines.append(f"- Check the outcome of {call_label(record)}")
    for line in dict.fromkeys(lines):
        if line not in stated[:_KEPT_STEPS]:
            yield _Item(section, line, P_NEXT, order())


_FINISH = "- Finish the current request: "
_FINISH_EITHER = "- Finish the current request"
"""What the line for the open request starts with, whole or short."""
_FINISH_REQUEST = "- Finish the current request (the last goal above)"
_KEPT_STEPS = 2
"""How many of the steps the conversation says are still to do outlast the size target."""


_NAMED_AGAIN = 1 << 30
"""Added to the order of a line the work names again: among the lines of its rank the
later ones outlast the size target, and this one comes after all of them."""
_REFERENCE_PRIORITY = {"assistant": P_FINDING, "tool": P_IN_PROGRESS, "user": P_FINDING}
"""How long a reference fact (not typed by the user) lasts, by who stated it. The user's
is the failure line of output they pasted (:func:`synopsis.state.attribution.failure_line`);
the latest :data:`_KEPT_FAILURES` of those outlast the size target, like the latest failures."""
_HASH_KINDS = frozenset({"sha", "commit", "id"})
"""Kinds a tool's output names by the hundred (hashes in a log, ids in a listing)."""
MAX_UNREFERRED_VALUES = 40
"""Hashes and ids only a tool's output names, that no message or later call refers to: the
latest this many are shown (the state keeps every one, for ``details``)."""


def _listed(text: str, items: set[str]) -> bool:
    """Whether ``text`` is one of the reported ``items``, also as a long item was cut to
    ("… I had removed it from the…" lists "… I had removed it from the vars.")."""
    if text in items:
        return True
    return any(
        item.endswith("…") and len(item) > 40 and text.startswith(item[:-1].rstrip())
        for item in items
    )


def _context_items(
    state: WorkingState, stale: dict[str, str], layout: Layout, order: _Counter
) -> Iterable[_Item]:
    section = {"checkpoint": "critical", "turn_prefix": "suffix_context", "branch": "goal"}[layout]
    latest = _choice_texts(state, stale)[-_KEPT_DECISIONS:]  # kept at the size target
    chosen = [text for d, text in latest if d.source == "user"]
    asked = {one_line(text) for text in pinned_goals(state)}  # always shown whole
    rules = [one_line(c.text) for c in state.current_constraints()]  # never dropped
    pasted = [f for f in state.current_facts() if f.source == "user" and f.written == "pasted"]
    latest_pasted = {id(f) for f in pasted[-_KEPT_FAILURES:]}
    listed_done = {normalize_ws(item) for goal in state.goals for item in goal.reported}
    pasted_failures, reported_failures = _pasted_failures(state)
    output = [f for f in state.current_facts() if f.source == "tool"]
    repeated = _earlier_of_series([(id(f), _shape(f.text)) for f in output if _shape(f.text)])
    relied_on = named_again(state, state.current_facts())
    for fact in state.current_facts():
        said = one_line(fact.text)
        if said in asked or any(said in line for line in (*chosen, *rules)):
            continue  # a request, choice or rule that states it in these words already
        if fact.source == "user" and not_a_fact(said):
            continue  # an order for the moment or venting: nothing a later step needs
        outlasts = 0
        if fact.written == "typed":
            priority = P_PINNED_VALUE
        else:  # what the assistant reported of a result outlasts a bare value from one;
            # the lines of a result the work then relied on (:mod:`synopsis.state._relied`)
            # are substance, kept before decisions and the record of calls
            priority = _REFERENCE_PRIORITY.get(fact.source, P_MINOR_VALUE)
            if id(fact) in latest_pasted:
                priority = P_KEPT
            elif id(fact) in repeated:
                priority = P_MINOR_VALUE  # one of many lines alike ("run_id: …" of each run)
            elif id(fact) in relied_on and not any(contains_value(said, old) for old in stale):
                # a line the work names again (:mod:`synopsis.state._named_again`) outlasts
                # the lines of its rank that nothing names (a tool's line a call then used,
                # a finding a decision took up), never a line of a higher rank; not one
                # that names a replaced value: what relied on it was the old one
                outlasts = _NAMED_AGAIN
        if layout != "branch" and fact.source == "assistant" and states_done(fact.text):
            # the assistant's report of its own work is progress, not context to look up
            # (once: a report its request lists already stands there)
            if _listed(normalize_ws(fact.text), listed_done):
                continue
            done = "early_progress" if layout == "turn_prefix" else "done"
            line = REPORTED_LABEL + one_line(without_old_values(fact.text))
            yield _Item(done, line, priority, order() + outlasts, named_again=bool(outlasts))
            continue
        if layout != "branch" and fact.source == "assistant" and states_failure(fact.text):
            # an error the assistant met is where the work ran into something
            failed = "early_progress" if layout == "turn_prefix" else "failed"
            line = ERROR_NOTED_LABEL + one_line(without_old_values(fact.text))
            yield _Item(failed, line, priority, order() + outlasts, named_again=bool(outlasts))
            continue
        if layout != "branch" and normalize_ws(fact.text) in reported_failures:
            continue  # Failed Approaches lists the failure the user reported with it
        if layout != "branch" and normalize_ws(fact.text) in pasted_failures:
            # an error the user pasted is a failure of the work they report
            failed = "early_progress" if layout == "turn_prefix" else "failed"
            line = USER_REPORTED_LABEL + one_line(without_old_values(fact.text))
            yield _Item(failed, line, priority, order() + outlasts, named_again=bool(outlasts))
            continue
        line = fact_line(fact.text)
        yield _Item(
            section, line, priority, order() + outlasts, fact.entry_id, named_again=bool(outlasts)
        )
    # the values a correction put in place of others: only these are marked corrected (a
    # second version or date of the same slot that replaced nothing is just a value)
    replacing = {i.superseded_by for i in state.identifiers if i.superseded_by}
    listed: dict[tuple[str | None, str], int] = {}
    for identifier in state.identifiers:
        if identifier.written == "tool":
            key = (identifier.entry_id, identifier.kind)
            listed[key] = listed.get(key, 0) + 1
    # the same field of many results ("session_id: …" of each task run): the handle of
    # each call — the latest stays, the others are minor
    in_series = _earlier_of_series(
        [
            (i.value, _field_of(i))
            for i in state.identifiers
            if i.written == "tool" and i.kind in _HANDLE_KINDS
        ]
    )
    # a fact line that states a value in the same words makes its own line needless —
    # only when that line outlasts the value's under the size target (a Done line, a
    # minor fact, goes first: the value would go with it)
    stated = {
        one_line(f.text): P_PINNED_VALUE if f.written == "typed" else P_MINOR_VALUE
        for f in state.current_facts()
    }
    unreferred = [
        i.value
        for i in state.identifiers
        if i.written == "tool"
        and i.kind in _HASH_KINDS
        and i.superseded_by is None
        and not i.asserted_in  # no message or call named it again
    ]
    # of the hashes and ids only a tool's output names, that no message or later call
    # refers to (hundreds in logs and listings), only the latest are shown
    hidden = frozenset(unreferred[:-MAX_UNREFERRED_VALUES])
    shown: list[_ValueLine] = []
    for identifier in state.identifiers:
        if identifier.superseded_by is not None or _placeholder(identifier):
            continue
        if _shaped_only(identifier):
            continue
        context = one_line(identifier.context)
        line = identifier_line(identifier, stale)
        if identifier.value in replacing and identifier.source == "user":
            line += CORRECTED_NOTE
        # a value an earlier checkpoint kept is kept again (its text is all we have of it)
        kept_before = identifier.source == "summary" and identifier.kind not in ("sha", "path")
        pinned = is_pinned_identifier(identifier) or kept_before
        # an id or commit a tool reported (the agent's own commit, a created order) is not
        # pinned — the guard never restores tool text — but outlasts the minor values,
        # unless it is one of a listing
        reported = identifier.kind in _REPORTED_KEEP_KINDS and not (
            identifier.written == "tool"
            and (
                (
                    identifier.entry_id is not None
                    and listed.get((identifier.entry_id, identifier.kind), 0) >= _LISTING
                )
                or _heads_a_row(identifier)
                or identifier.value in in_series
            )
        )
        if identifier.value in hidden:
            continue  # a hash or id only a tool's output names, that nothing refers to
        priority = P_PINNED_VALUE if pinned or reported else P_MINOR_VALUE
        if stated.get(context, -1) >= priority and contains_value(context, identifier.value):
            continue  # the fact line above states it, in the same words, and stays as long
        quote = "" if pinned or line.endswith(CORRECTED_NOTE) else context
        shown.append(_ValueLine(identifier, line, priority, quote))
    for line, priority in _one_line_per_quote(shown):
        yield _Item(section, line, priority, order())
    if layout == "branch":
        return
    for record in state.files:
        if layout == "turn_prefix" and not record.deleted:
            continue  # Early Progress names what the request touched; the lists, the rest
        hashed = f" (sha256:{record.sha256[:12]})" if record.sha256 else ""
        # the file lists appended to the checkpoint name every file read or modified: here
        # they are detail, except what those lists cannot say (deleted, created)
        if record.deleted:
            yield _Item(section, f"- deleted {code(record.path)}", P_MODIFIED_FILE, order())
        elif record.created or record.modified:
            created = record.created and not record.modified
            verb = "created" if created else "modified"
            priority = P_MODIFIED_FILE if created else P_READ_FILE
            yield _Item(section, f"- {verb} {code(record.path)}{hashed}", priority, order())
        elif record.read:
            yield _Item(section, f"- read {code(record.path)}{hashed}", P_DONE, order())


@dataclass(frozen=True, slots=True)
class _ValueLine:
    identifier: Identifier
    line: str
    priority: int
    quote: str
    """The sentence the value was read from, when its line may share it with others
    (empty for a pinned value: the guard looks for its line as it is)."""


def _one_line_per_quote(values: list[_ValueLine]) -> list[tuple[str, int]]:
    """The value lines, where the values read from one sentence of a tool's output or a
    reply ("platform linux -- Python 3.12.3, pytest-9.0.2, pluggy-1.6.0", "**PR #15**:
    https://…/pull/15") share one line that quotes it once: the quote is what says what
    each value is, and a line per value would repeat it, filling the size target with
    copies. Only values of the same rank share a line (so none outlasts the size target
    longer than it would alone), in the order of each sentence's first value."""
    groups: dict[tuple[str, int], list[_ValueLine]] = {}
    order: list[tuple[str, int] | _ValueLine] = []
    for value in values:
        if not value.quote or value.quote == value.identifier.value:
            order.append(value)
            continue
        key = (value.quote, value.priority)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(value)
    lines: list[tuple[str, int]] = []
    for entry in order:
        if isinstance(entry, _ValueLine):
            lines.append((entry.line, entry.priority))
            continue
        members = groups[entry]
        if len(members) == 1:
            lines.append((members[0].line, members[0].priority))
            continue
        by_label: dict[str, list[str]] = {}
        for member in members:  # "version: 3.12.3", "number: FreshCart #218" (its head)
            label, _, said = member.line.removeprefix("- ").partition(" — ")[0].partition(": ")
            by_label.setdefault(label, []).append(said)
        named = "; ".join(f"{label}: {', '.join(said)}" for label, said in by_label.items())
        quoted = members[0].line.partition(" — ")[2]
        lines.append((f"- {named} — {quoted}" if quoted else f"- {named}", entry[1]))
    return lines


# --- merging a previous checkpoint -------------------------------------------------------

_PRIOR_TARGETS = {
    "goal": ("goal", P_GOAL),
    "original_request": ("goal", P_GOAL),
    "done": ("done", P_DONE),
    "early_progress": ("done", P_DONE),
    "progress": ("done", P_DONE),
    "in_progress": ("in_progress", P_IN_PROGRESS),
    "blocked": ("blocked", P_BLOCKED),
    "failed": ("failed", P_APPROACH),
    "decisions": ("decisions", P_DECISION),
    "next": ("next", P_PRIOR_NEXT),
    "critical": ("critical", P_PRIOR_CONTEXT),
    "suffix_context": ("critical", P_PRIOR_CONTEXT),
}


_RESERVED_HOST = re.compile(
    r"^(?:[a-z]+://)?(?:[^/@\s]*@)?(?:[\w-]+\.)*example\.(?:com|org|net)(?=[/:?#]|$)",
    re.IGNORECASE,
)


_USAGE_LINE = re.compile(
    r"\b(?:tokens?|cost|usage|spent|billed)\b.{0,80}?\b(?:sent|received|session|message|"
    r"request|prompt|completion)\b",
    re.IGNORECASE,
)
_COLOUR_CONTEXT = re.compile(
    r"(?:colou?r|background|fill|stroke|border|shadow|bg|fg)\b|:\s*$", re.I
)


_ORDER = re.compile(
    r"^(?:(?:dude|ok(?:ay)?|alright|yeah|yes|hey|so|and|now|then|pls|please|just|also|ah|oh)"
    r"[\s,!.]+)*(?:sleep|run|see|read|look(?: at| into)|check|open|remove|delete|"
    r"copy|undo|show me|tell me|restart|rerun|kill|commit|push)\b(?![,.!?])|"
    r"^(?:请|你|帮我)?(?:看一下|跑一下|运行一下|删掉|打开|重启一下)",
    re.IGNORECASE,
)
_VENTING = re.compile(
    r"\b(?:fuck\w*|shit\w*|wtf|damn\w*|crap\w*|bullshit)\b|他妈|妈的|卧槽", re.IGNORECASE
)


def is_pinned_fact(fact: Fact) -> bool:
    """Whether a fact must appear in every checkpoint (the guard restores it): what the
    user typed, unless it is an order for the moment or venting (:func:`not_a_fact`)."""
    return fact.source == "user" and fact.written == "typed" and not not_a_fact(fact.text)


def not_a_fact(text: str) -> bool:
    """Whether a statement of the user's is an order for the moment ("dude sleep 5 seconds
    via bash", "see main.ts") or venting ("you fucked that component up"): said to the
    agent, not about the world — a request stands under Goal, a complaint in the
    conversation; neither is a value or fact later steps need."""
    return bool(_ORDER.match(text) or _VENTING.search(text))


def _bare_host(identifier: Identifier) -> bool:
    """Whether a link the assistant or a tool wrote names only a site ("Here's a bare URL:
    https://github.com"): no page or resource of it, so nothing a later step opens."""
    if identifier.kind != "url" or identifier.source == "user":
        return False
    return bool(re.fullmatch(r"[a-z][a-z0-9+.-]*://[^/\s?#]+/?", identifier.value, re.I))


_PROGRESS_COUNTER = re.compile(r"[(\[]\s*\d+\s*/\s*\d+\s*[)\]]")
"""A bulk run's counter in a line of its output ("Rewrite 8a58… (3/25)", "[12/40] a.py")."""


def _shaped_only(identifier: Identifier) -> bool:
    """Whether a value not typed by the user is merely shaped like one: an amount in an
    agent's own usage line ("Tokens: 10k sent … Cost: $0.04 message, $0.10 session"),
    an "issue" that is a colour in a style declaration ("--color-dark: #000;"), a value
    in a tool's progress line ("Rewrite 8a58… (3/25)": one of the items a bulk run went
    through, counted off, none a handle a later step names)."""
    if identifier.source == "user" and identifier.written == "typed":
        return False
    if _bare_host(identifier):
        return True
    context = identifier.context
    if identifier.written == "tool" and _PROGRESS_COUNTER.search(context):
        return True
    if identifier.kind == "amount" and _USAGE_LINE.search(context):
        return True
    if identifier.kind == "issue":
        at = context.find(identifier.value)
        return at >= 0 and bool(_COLOUR_CONTEXT.search(context[max(0, at - 40) : at]))
    return False


def _placeholder(identifier: Identifier) -> bool:
    """Whether a value is a documentation placeholder: a link or address at
    ``example.com`` / ``.org`` / ``.net`` (reserved, RFC 2606) in a tool's
    output or the assistant's sample text names nothing a later step can use (a test
    fixture's link, a sample author). The user may still type one on purpose."""
    typed_by_user = identifier.source == "user" and identifier.written == "typed"
    return not typed_by_user and _reserved(identifier.kind, identifier.value)


def _reserved(kind: str, value: str) -> bool:
    """Whether a link or an address (the host after its ``@``) is at a reserved host."""
    if kind not in ("url", "email"):
        return False
    host = value.split("@", 1)[-1] if kind == "email" else value
    return bool(_RESERVED_HOST.match(host))


_RULE_LINE = re.compile(r"^\s*(?:[-*]\s*)?[-*_=]{3,}\s*$")
"""A horizontal rule (the separator before a turn prefix) read back as an item."""
_VALUE_LINE = re.compile(r"^- (url|email): (\S+)")


def _placeholder_line(text: str) -> bool:
    """Whether a prior checkpoint's value line names a documentation placeholder."""
    found = _VALUE_LINE.match(text)
    return found is not None and _reserved(found.group(1), found.group(2))


_ROW_HEAD = re.compile(r"^(?:commit |[-*]\s+|\|\s*)?$")


_K = TypeVar("_K")


def _earlier_of_series(shaped: Sequence[tuple[_K, object]]) -> set[_K]:
    """The keys of ``shaped`` whose shape at least :data:`_LISTING` keys share, but the
    latest of each shape: the same field many results report, each with its own value
    ("run_id: …" of each run), names a handle of each call — the latest may be the one a
    next step uses, the earlier ones are detail."""
    by_shape: dict[object, list[_K]] = {}
    for key, shape in shaped:
        by_shape.setdefault(shape, []).append(key)
    return {k for keys in by_shape.values() if len(keys) >= _LISTING for k in keys[:-1]}


def _field_of(identifier: Identifier) -> tuple[str, str]:
    """The kind of a reported value and the words its line puts before it ("session_id:")."""
    at = identifier.context.find(identifier.value)
    before = identifier.context[:at] if at >= 0 else ""
    return identifier.kind, normalize_ws(before[-40:]).lower()


_HANDLE_KINDS = frozenset({"id", "ticket"})
"""Kinds of value a call reports as its own handle (a run's, a session's, a job's id); a
commit is the record of work done, not one."""


def _shape(line: str) -> str:
    """A line of output with the handles in it blanked ("run_id: …"): lines alike but for
    them; "" for a line that names no handle."""
    handles = [f for f in pat.find_identifiers(line) if f.kind in _HANDLE_KINDS]
    for found in reversed(handles):
        line = line[: found.start] + "…" + line[found.end :]
    return normalize_ws(line).lower() if handles else ""


def _heads_a_row(identifier: Identifier) -> bool:
    """Whether a reported commit opens its line of output (``a41f0c2 feat: …`` in ``git
    log --oneline``, ``commit 9245…``): a row of a listing — the entry it came from need
    not be known — not the one handle a step made (``[main 6322cf4] …``)."""
    if identifier.kind not in ("sha", "commit"):
        return False  # an order or booking id heading its line is the handle a step made
    at = identifier.context.find(identifier.value)
    return at >= 0 and bool(_ROW_HEAD.match(identifier.context[:at]))


def _merge_previous(
    items: list[_Item], previous: str, state: WorkingState, stale: dict[str, str]
) -> list[_Item]:
    """Prior items first (older), then the new ones, without repeats or corrected values."""
    body, _ = split_tail(previous)
    seen = {_key(item.text) for item in items}
    stated = {_key(_terse_line(item.text)) for item in items if item.text.startswith(FACT_LABEL)}
    done_targets = [r.target for r in state.tool_calls if r.status == "ok" and len(r.target) >= 3]
    done_keys = {resolution_key(r.name, r.target) for r in state.tool_calls if r.status == "ok"}
    # the calls the state still holds are listed from it (grouped): their old lines go
    done_calls = {
        (r.name, _CD_PREFIX.sub("", r.target)) for r in state.tool_calls if r.status == "ok"
    }
    # a failure the state still holds is open, left or got past by the state's judgement
    failed_calls = {(r.name, one_line(r.target)) for r in state.tool_calls if r.status == "error"}
    values = {i.value for i in state.identifiers}
    paths = {f.path for f in state.files}
    retired = state.retired_texts()
    prior: list[_Item] = []
    order = _Counter(start=-1_000_000)
    for kind, title, section_items in parse_sections(body):
        if kind == "constraints":
            continue  # read into the state itself (see EmbeddedSummarizer), rendered from there
        section, priority = _PRIOR_TARGETS.get(kind or "", ("critical", P_PRIOR_CONTEXT))
        if kind is None and title and section_items:
            prior.append(_Item(section, f"- **{title}:**", priority, order()))
        for raw in section_items:
            if raw.startswith(CONSTRAINT_LABEL) or raw.startswith(_RECOMPUTED):
                continue  # a split turn's rule, or our own status lines: from the state
            text, _ = split_entry_suffix(raw)
            key = _key(text)
            if (
                not key
                or key in seen
                or key == "(none)"
                or _RULE_LINE.match(text)
                or _placeholder_line(text)
                or _restated(text, values, paths)
                or _facts_restated(text, stated)
                or normalize_ws(item_text(text)) in retired
                or any(contains_value(text, v) for v in stale)
            ):
                continue
            if section == "goal" and _not_a_request(item_text(text), state):
                continue
            seen.add(key)
            call = _DONE_CALL_LINE.match(text) if section == "done" else None
            if call is not None and (call["name"], call["target"]) in done_calls:
                continue
            target_section, target_priority = section, priority
            if section == "next" and any(t in text for t in done_targets):
                continue  # a step a later success has done
            ours = _OUR_CALL_LINE.match(text) if section in ("in_progress", "blocked") else None
            if ours is not None and (ours["name"], ours["target"]) in failed_calls:
                continue
            if section in ("in_progress", "blocked") and _done_since(text, done_keys, done_targets):
                if section == "in_progress":
                    target_section, target_priority = "done", P_DONE
                    text = text + " (done since)"
                else:  # a failure a later success resolved stays on record, as in history
                    target_section, target_priority = "critical", P_RESOLVED
                    text = _EARLIER_FAILURE + item_text(text)
            if section == "goal" and not any(p.section == "goal" for p in prior):
                target_priority = P_PINNED_GOAL
            elif text.startswith(_EARLIER_FAILURE):
                target_priority = P_RESOLVED
            unbacked = section == "goal" and bool(state.goals)  # the state's own are skipped
            item = _Item(target_section, _as_item(text), target_priority, order())
            prior.append(replace(item, unbacked=unbacked))
    return _after_the_first_request(prior, items)


def _after_the_first_request(prior: list[_Item], items: list[_Item]) -> list[_Item]:
    """``prior + items`` with the prior Goal lines after the state's first request: Goal
    opens with the original request, whatever a previous checkpoint listed first (a split
    turn's "Original Request" that was an answer to the assistant)."""
    goals = [item for item in prior if item.section == "goal"]
    at = next((i + 1 for i, item in enumerate(items) if item.section == "goal"), None)
    if not goals or at is None:
        return prior + items
    rest = [item for item in prior if item.section != "goal"]
    return rest + items[:at] + goals + items[at:]


def _not_a_request(text: str, state: WorkingState) -> bool:
    """Whether a prior Goal line (a split turn's "Original Request" among them) is no
    request to list again: an answer to the assistant, the next routine step, or the words
    of a rule or a choice the state holds — those stand in their own sections. When the
    state has requests of its own, the words of a statement it holds as a fact and not
    as a request (the names the user gave when asked, which opened a split turn) are
    that fact: listed first in Goal they would pass for the original request and, under
    a cap, push the real one out. A line of one of the state's own requests is listed
    from the state, where that request now stands (an earlier one under Done)."""
    said = normalize_ws(text)
    if is_reply(said) or is_follow_up(said):
        return True
    asked = {normalize_ws(stale_note(g.text, state.superseded_values())) for g in state.goals}
    if said in asked:
        return True  # a request of the state's: listed from it, where it now stands
    held = [c.text for c in state.current_constraints()]
    held += [d.text for d in state.decisions if d.source == "user"]
    if asked:
        held += [f.text for f in state.current_facts() if f.source == "user"]
    return any(said in normalize_ws(other) for other in held)


_DONE_CALL_LINE = re.compile(r"^- (?P<name>[\w.-]+) `(?P<target>[^`]*)` → ")
"""A Done line of ours for one call (see ``_command_label``)."""
_OUR_CALL_LINE = re.compile(r"^- (?P<name>[\w.-]+) `(?P<target>[^`]*)` (?:failed: |\(started)")


def _done_since(text: str, done_keys: set[tuple[str, ...]], done_targets: list[str]) -> bool:
    """Whether a prior Blocked / In Progress line was resolved by a later success: by the
    same rule as the state's (same file, program or tool) when the line is one of ours,
    else when a later successful call names its target."""
    ours = _OUR_CALL_LINE.match(text)
    if ours:
        return resolution_key(ours.group("name"), ours.group("target")) in done_keys
    return any(t in text for t in done_targets)


_NOW = "- Now: "
"""The step under way in the assistant's words (a status line, recomputed each time)."""
_RECOMPUTED = (
    "- Working on: ",
    _NOW,
    "- Touched so far: ",
    "- Last step: ",
    "- Last report: ",
    _FINISH_EITHER,
    "- Get past the failure of ",
    "- Focus: ",
)
"""Lines of ours that describe the request open at the time: rebuilt from the state."""

_FILE_LINE = re.compile(r"^- (?:created|modified|read|deleted) `(?P<path>[^`]+)`")


def _restated(text: str, values: set[str], paths: set[str]) -> bool:
    """A prior line the state renders again (an identifier or a file line of ours)."""
    match = IDENTIFIER_LINE.match(text)
    if match and match.group("value") in values:
        return True
    match = _FILE_LINE.match(text)
    return bool(match and match.group("path") in paths)


def _facts_restated(text: str, stated: set[str]) -> bool:
    """A prior fact line (in its dense form, or the facts of one entry on one line, as a
    hard cap writes them) whose every fact a new fact line states again."""
    if not text.startswith(FACT_LABEL):
        return False
    parts = text[len(FACT_LABEL) :].split(_FACT_JOIN)
    return all(_key(FACT_LABEL + dense_fact(part)) in stated for part in parts)


def _as_item(text: str) -> str:
    stripped = text.lstrip()
    if stripped.startswith(("-", "*", "+", "•", "```", "|")) or stripped[:1].isdigit():
        return text
    return f"- {text}"


_REPEAT = re.compile(r" ×\d+$")


def _key(text: str) -> str:
    body, _ = split_entry_suffix(item_text(text))
    return _REPEAT.sub("", normalize_ws(body)).lower()


# --- budget and layout -------------------------------------------------------------------


def _focus_words(focus: str | None) -> frozenset[str]:
    if not focus:
        return frozenset()
    return frozenset(w.lower() for w in _FOCUS_WORD.findall(focus))


class _Guarded:
    """Which items state what :func:`~synopsis.state.guard.guard_summary` restores when a
    checkpoint lacks it (pinned goals, facts and values; open failures): the size target
    keeps them, and under a hard cap they go only after everything else — else the guard
    would put them back and cut lines this ranking chose to keep. Worked out on first use
    (most checkpoints fit without)."""

    def __init__(self, state: WorkingState, stale: dict[str, str]) -> None:
        self._state, self._stale = state, stale
        self._lines: frozenset[str] = frozenset()
        self._facts: tuple[str, ...] = ()
        self._known = False

    def __call__(self, item: _Item) -> bool:
        if item.section == "blocked":
            return True
        if not self._known:
            state, stale = self._state, self._stale
            self._facts = tuple(
                one_line(fact.text) for fact in state.current_facts() if is_pinned_fact(fact)
            )
            lines = [f"- {one_line(stale_note(text, stale))}" for text in pinned_goals(state)]
            lines += [fact_line(one_line(stale_note(fact, stale))) for fact in self._facts]
            lines += [
                identifier_line(i, stale) for i in state.identifiers if is_pinned_identifier(i)
            ]
            self._lines, self._known = frozenset(_terse_line(line) for line in lines), True
        if item.text.startswith(_USER_CHOSE):  # a fact it states is not listed again
            return any(fact in item.text for fact in self._facts)
        return _terse_line(item.text).removesuffix(CORRECTED_NOTE) in self._lines


_USER_CHOSE = "- User chose: "


def _fit(
    items: list[_Item],
    max_chars: int,
    layout: Layout,
    focus: frozenset[str],
    guarded: Callable[[_Item], bool] = lambda _: False,
    *,
    keep: Callable[[_Item], bool] | None = None,
    terse: bool = False,
) -> list[_Item]:
    """``items`` without the least important ones until the text fits ``max_chars``.

    With ``keep`` (the size target) the items it names are never dropped; else (the hard
    cap) all but the rules may go, the ``guarded`` ones after all others. What had to go
    is taken back, shortened if need be, where the drops left room (:func:`_refill`).

    Before anything goes, what is said twice is said once (a line whose words another
    line of at least its priority already holds); with ``terse`` (a hard cap) lines also
    lose what the state keeps anyway — a rule's entry id, the sentence quoted after a
    value — so the cap holds more facts before it must drop one."""
    total = len(_layout_text(items, layout))
    if total <= max_chars:
        return items
    items = _said_once(items, terse=terse)
    if terse:
        # a rule stays in its words: it loses its entry id only
        items = [
            replace(item, text=_ENTRY_SUFFIX.sub("", item.text) if item.priority >= NEVER
                    else _terse_line(item.text))
            for item in items
        ]  # fmt: skip
    elif keep is not None:  # the detail of what the target binds goes before it does
        items = [_brief(item) if _bound(item) and not keep(item) else item for item in items]
    total = len(_layout_text(items, layout, bare=terse))
    if total <= max_chars:
        return items

    def rank(index: int) -> tuple[int, int, int, int, int]:
        item = items[index]
        lowered = item.text.lower()
        focused = 1 if focus and any(word in lowered for word in focus) else 0
        chosen = 1 if item.text.startswith(_USER_CHOSE) else 0  # the user's go last
        priority = (P_GOAL if item.unbacked else item.priority) if terse else _target_rank(item)
        return (1 if guarded(item) else 0, priority, chosen, focused, item.order)

    def droppable(item: _Item) -> bool:
        return item.priority < NEVER if keep is None else not keep(item)

    candidates = [i for i in sorted(range(len(items)), key=rank) if droppable(items[i])]
    dropped: set[int] = set()
    position = 0
    while total > max_chars and position < len(candidates):
        # Drop by the running estimate, then measure: emptied sections gain a placeholder.
        while total > max_chars and position < len(candidates):
            index = candidates[position]
            position += 1
            dropped.add(index)
            total -= len(items[index].text) + 1
        kept = [item for index, item in enumerate(items) if index not in dropped]
        total = len(_layout_text(kept, layout, bare=terse))
    if total <= max_chars and dropped:
        _refill(items, dropped, [i for i in reversed(candidates) if i in dropped], layout,
                max_chars - total, bare=terse)  # fmt: skip
    return [item for index, item in enumerate(items) if index not in dropped]


def _refill(
    items: list[_Item],
    dropped: set[int],
    ranked: list[int],
    layout: Layout,
    room: int,
    *,
    bare: bool,
) -> None:
    """Take back (out of ``dropped``) the most important dropped items that fit the
    ``room`` the drops left: dropping goes by importance, not by size, so a long item
    that had to go often leaves room for a shorter one it outranked, and the sections it
    emptied give back their headings. An item joining a section that holds a line costs
    that line exactly; one that would open a section is measured in the whole text."""
    remap = _REMAP[layout]
    filled = {
        remap.get(item.section, item.section) for i, item in enumerate(items) if i not in dropped
    }
    opening: dict[str, int] = {}  # what opening an empty section costs beyond its line
    for index in ranked:
        whole = items[index]
        section = remap.get(whole.section, whole.section)
        for text in dict.fromkeys((whole.text, _shorter(whole.text))):
            cost = len(one_line(text)) + 1
            extra = 0 if section in filled else opening.get(section, -len(_NONE))
            if cost + extra > room:
                continue  # (at least) the placeholder of an empty section would go
            items[index] = replace(whole, text=text)
            if section in filled:
                grown = cost
            else:
                before = _kept_size(items, dropped, layout, bare)
                grown = _kept_size(items, dropped - {index}, layout, bare) - before
                opening[section] = grown - cost
            if grown <= room:
                dropped.discard(index)
                room -= grown
                filled.add(section)
                break
        else:
            items[index] = whole


def _outlasts_detail(item: _Item) -> bool:
    """What the size target keeps while it drops detail: the substance (from P_KEPT), and
    the Next Steps line of an open request — which a hard cap drops among the first, as
    In Progress says the same."""
    return _target_rank(item) >= P_KEPT or item.text.startswith(_FINISH_EITHER)


def _target_rank(item: _Item) -> int:
    """An item's rank at the size target: a line the work names again one step above
    its priority (a tool's line a later call used is then substance)."""
    return item.priority + 1 if item.named_again else item.priority


def _bound(item: _Item) -> bool:
    """What the size target binds once the detail is gone: the latest decisions, which
    outlast the detail but not the target (the assistant's first, then the user's); the
    latest failures, where the work stands, and what a request is open on stay."""
    return item.section == "decisions" and P_KEPT <= item.priority < P_OPEN_STEP


def _brief(item: _Item) -> _Item:
    return replace(item, text=_shorter(_terse_line(item.text)))


_QUOTED_REQUEST = re.compile(r"“([^”\n]{62,})”")
_QUOTE_CHARS = 61
_OUTCOME_AFTER = re.compile(r"(”|^- User chose: .*?) → .*$|; earlier: .*$")


def _shorter(text: str) -> str:
    """A line with its detail left out and its substance kept, for a text that has no room
    for the whole line: that the open request is the one Goal states, a quoted request's
    opening words without the outcome reported after it, a choice without the question it
    answered, a call's latest result without the earlier ones."""
    short = said_short(text)
    if short is not None:
        return short
    shown = _OUTCOME_AFTER.sub(r"\1", text)
    return _QUOTED_REQUEST.sub(lambda m: f"“{clip(m.group(1), _QUOTE_CHARS)}”", shown)


_NONE = "- (none)"


def _kept_size(items: list[_Item], dropped: set[int], layout: Layout, bare: bool) -> int:
    kept = [item for index, item in enumerate(items) if index not in dropped]
    return len(_layout_text(kept, layout, bare=bare))


_LABEL = re.compile(r"^-\s+(?:[A-Za-z][\w ]{0,30}:\s+)?[“\"]?")
_TAIL = re.compile(r"(?:[”\"]?\s*(?:\[entry [^\]]*\])?|…[”\"]?.*)$")
_ENTRY_SUFFIX = re.compile(r" \[entry [^\]\n]*\]$")
_MIN_SAID_ONCE = 12
_CHOICE_HOLDERS = frozenset({"decisions", "constraints"})
"""Under a hard cap a choice is said once when another choice or a rule states it."""
_OWN_SECTION = frozenset({"goal", "constraints", "decisions", "blocked", "failed"})
"""Sections whose lines stay where a reader looks for them, even when said elsewhere."""


def _core(text: str) -> str:
    """What a line says, without its bullet, label, quotes, entry id or a cut-off tail."""
    core = _TAIL.sub("", _LABEL.sub("", text.strip()), count=1)
    return normalize_ws(core)


_WORKING_ON = "- Working on: "
_WORKING_ON_GOAL = "- Working on: the last goal above"
"""The In Progress line for the open request when Goal states its words: that the request
is open is substance (what the agent continues), so the line shrinks but never goes, and
still says which request it is (Goal lists the original request first, the current last)."""
_WORKING_ON_REQUEST = "- Working on: the request above"
"""The same for a split turn's early part, whose Original Request is the one under way."""


def said_short(text: str) -> str | None:
    """The short form of a line that says a request is open ("Working on: “…”", "Finish
    the current request: “…”"), for where Goal states the request's words: that it is
    open is substance, so the line shrinks but never goes."""
    if text.startswith(_WORKING_ON):
        return _WORKING_ON_GOAL
    if text.startswith(_FINISH):
        return _FINISH_REQUEST
    return None


def _said_once(items: list[_Item], *, terse: bool = False) -> list[_Item]:
    """``items`` without the lines whose words another line of at least their priority
    holds (a fact its rule states); "Working on: “…”" under a goal of the same words says
    only that the goal is the one under way. With ``terse`` (a hard cap) a choice is
    checked too, against the other choices and the rules: the same choice listed twice
    (once with the proposal it answered) is said once, and a choice a rule states in
    full is said by the rule (a request that states it does not replace Key Decisions)."""
    own = _OWN_SECTION - {"decisions"} if terse else _OWN_SECTION
    # under a cap a choice is its own words; the proposal it answered is detail
    cores = [
        _core(_shorter(item.text) if terse and item.section == "decisions" else item.text)
        for item in items
    ]
    checked = [
        index
        for index, item in enumerate(items)
        if len(cores[index]) >= _MIN_SAID_ONCE
        and item.text.lstrip().startswith("- ")
        and item.section not in own
    ]
    # A line that holds a core holds its first _MIN_SAID_ONCE characters: the lines holding
    # each such opening are found in one pass over every line (not every line per line).
    openings = {cores[index][:_MIN_SAID_ONCE] for index in checked}
    holders: dict[str, list[int]] = {}
    for other, core in enumerate(cores):
        for start in range(len(core) - _MIN_SAID_ONCE + 1):
            opening = core[start : start + _MIN_SAID_ONCE]
            if opening in openings:
                found = holders.setdefault(opening, [])
                if not found or found[-1] != other:
                    found.append(other)
    dropped: set[int] = set()
    shortened: set[int] = set()
    for index in checked:
        item, core = items[index], cores[index]
        for other in holders[core[:_MIN_SAID_ONCE]]:
            if (
                other != index
                and other not in dropped
                and items[other].priority >= item.priority
                and core in cores[other]
                and (core != cores[other] or other < index)
                and (item.section != "decisions" or items[other].section in _CHOICE_HOLDERS)
            ):
                if said_short(item.text) is not None:
                    shortened.add(index)
                else:
                    dropped.add(index)
                break
    return [
        replace(item, text=said_short(item.text) or item.text) if index in shortened else item
        for index, item in enumerate(items)
        if index not in dropped
    ]


def _terse_line(text: str) -> str:
    """A line without what the state keeps anyway: a rule's entry id, a value's quote, the
    tail of a long call target (the call's outcome or error is what the line says), what
    was last said about an earlier request left unfinished (that it was asked and left
    is the substance); a fact in its dense form (:func:`dense_fact`)."""
    text = _QUOTED.sub("", _ENTRY_SUFFIX.sub("", text))
    if text.startswith(_EARLIER_REQUEST):
        return _REPORT_AFTER.sub("”", text)
    if text.startswith(FACT_LABEL):
        return FACT_LABEL + dense_fact(text[len(FACT_LABEL) :])
    return _LONG_TARGET.sub(lambda m: f"`{m.group(1)[:_TERSE_TARGET].rstrip()}…`", text)


_JSON_MEMBER = re.compile(r'^"(?P<key>[^"\n]{1,60})"\s*:\s*(?P<value>.*?)\s*,?$')
_JSON_STRING = re.compile(r'^"(?P<text>[^"]*)",?$')
_RUNS = re.compile(r"[ \t]{2,}")


def dense_fact(text: str) -> str:
    """A fact as few characters say it, every word and value kept: the columns of a
    table row or a log line closed up (``orders    | 412 GB`` → ``orders | 412 GB``) and
    a line of JSON read as what it states (``"member_id": "XGH-4410",`` → ``member_id:
    XGH-4410``) — its quotes and trailing comma are syntax, not content."""
    text = _RUNS.sub(" ", text.strip())
    member = _JSON_MEMBER.match(text)
    if member is not None:
        value = member["value"]
        string = _JSON_STRING.match(value)
        return f"{member['key']}: {string['text'] if string else value}"
    string = _JSON_STRING.match(text)
    return string["text"] if string and string["text"].strip() else text


_QUOTED = re.compile(r" — “[^”\n]*”$")
_EARLIER_REQUEST = "- Earlier request, not reported done: "
_REPORT_AFTER = re.compile(r"” → .*$")
_TERSE_TARGET = 48
_LONG_TARGET = re.compile(rf"`([^`\n]{{{_TERSE_TARGET + 12},}})`")


_LAYOUTS: dict[Layout, tuple[str, ...]] = {
    "checkpoint": ("goal", "constraints", "progress", "decisions", "next", "critical"),
    "branch": ("goal", "constraints", "progress", "decisions", "next"),
    "turn_prefix": ("original_request", "early_progress", "decisions", "suffix_context"),
}


_REMAP: dict[Layout, dict[str, str]] = {
    "checkpoint": {},
    "branch": {"critical": "goal"},
    "turn_prefix": {
        "goal": "original_request",
        "constraints": "original_request",
        "done": "early_progress",
        "blocked": "early_progress",
        "failed": "early_progress",
        "next": "suffix_context",
        "critical": "suffix_context",
    },
}
"""Where an item of a section the layout lacks goes (merged prior items), so none is lost."""


def _layout_text(items: list[_Item], layout: Layout, *, bare: bool = False) -> str:
    """The checkpoint text of ``items``; ``bare`` (over a hard cap) leaves out the
    headings of empty sections rather than saying "(none)" under each."""
    remap = _REMAP[layout]
    by_section: dict[str, list[str]] = {}
    last_group: dict[str, str | None] = {}
    for item in items:
        # every field is one line whatever produced it: content opens no section
        section = remap.get(item.section, item.section)
        lines = by_section.setdefault(section, [])
        line = one_line(item.text).rstrip()  # (a trailing space would be cut at the end only)
        fact = line.startswith(FACT_LABEL)
        if bare and fact and item.group is not None and last_group.get(section) == item.group:
            # over a hard cap the facts one entry stated share a line: one label for all
            lines[-1] += _FACT_JOIN + line[len(FACT_LABEL) :]
        else:
            lines.append(line)
        last_group[section] = item.group if fact else None
    parts: list[str] = []
    for section in _LAYOUTS[layout]:
        subsections = ("done", "in_progress", "blocked", "failed")
        inner: tuple[str, ...] = subsections if section == "progress" else (section,)
        if section == "early_progress":
            inner = (section, *_TURN_STATE)
        if bare and not any(by_section.get(part) for part in inner):
            continue
        parts.append(f"## {SECTION_TITLES[section]}")
        if section == "progress":
            for part in subsections:
                if (part == "failed" or bare) and not by_section.get(part):
                    continue  # no failed approach: no heading either
                parts.append(f"### {SECTION_TITLES[part]}")
                parts.append("\n".join(by_section.get(part, ())) or "- (none)")
                parts.append("")
            parts.pop()
        else:
            parts.append("\n".join(by_section.get(section, ())) or "- (none)")
        if section == "early_progress":  # the turn under way: where it stands, what fails
            for part in _TURN_STATE:
                if by_section.get(part):
                    parts.extend(("", f"### {SECTION_TITLES[part]}", "\n".join(by_section[part])))
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


_TURN_STATE = ("in_progress",)
"""A split turn's early part states, under Early Progress, where the turn stands (the
kept part continues it) in a sub-section of its own, as the history checkpoint does.
Its failures stay under Early Progress: the kept part follows, unseen here, and may
get past them, so they are not called blocked."""


class _Counter:
    """Monotonic order numbers: a later item is younger, so it is kept longer."""

    def __init__(self, start: int = 0) -> None:
        self._next = start

    def __call__(self) -> int:
        self._next += 1
        return self._next
