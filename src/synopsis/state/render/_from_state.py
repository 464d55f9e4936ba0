"""Items from the working state, section by section.

Goals and rules in the user's words; progress grouped by outcome and artifact (Done, In
Progress, Blocked, Failed Approaches); the user's and the assistant's choices; the next
steps; and the values, ids and facts of Critical Context, each at the priority that says
how long it outlasts the size target.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from synopsis.state._choices import is_stated_choice
from synopsis.state._commands import SHELL_TOOLS, resolution_key
from synopsis.state._errors import is_aborted, names_error, states_failure
from synopsis.state._named_again import named_again
from synopsis.state._progress import (
    REPORTED,
    REPORTED_END,
    is_finished,
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
)
from synopsis.state._tools import GIVEN_UP, achieved, names_made, shows_text
from synopsis.state.model import (
    Decision,
    Goal,
    Identifier,
    ToolCallRecord,
    WorkingState,
)
from synopsis.state.render._items import (
    _EARLIER_REQUEST,
    _FINISH,
    _LISTING,
    _NOW,
    _REPORTED_KEEP_KINDS,
    _USER_CHOSE,
    _WORKING_ON_REQUEST,
    ERROR_NOTED_LABEL,
    NEVER,
    P_APPROACH,
    P_BLOCKED,
    P_COMMANDS,
    P_DECISION,
    P_DONE,
    P_EDITS,
    P_FINDING,
    P_FINISHED,
    P_GOAL,
    P_IN_PROGRESS,
    P_KEPT,
    P_MINOR_VALUE,
    P_MODIFIED_FILE,
    P_NEXT,
    P_OLD_FINISHED,
    P_OPEN_STEP,
    P_ORIGINAL_REQUEST,
    P_PINNED_GOAL,
    P_PINNED_VALUE,
    P_READ_FILE,
    P_RESOLVED,
    P_USER_DECISION,
    REPORTED_LABEL,
    USER_REPORTED_LABEL,
    Layout,
    _Counter,
    _Item,
    call_label,
    code,
    constraint_line,
    error_line,
    fact_line,
    identifier_line,
    pinned_goals,
)
from synopsis.state.render._worth import (
    _HANDLE_KINDS,
    _earlier_of_series,
    _field_of,
    _heads_a_row,
    _placeholder,
    _shape,
    _shaped_only,
    is_pinned_fact,
    is_pinned_identifier,
    not_a_fact,
)
from synopsis.state.sections import (
    CONSTRAINT_LABEL,
    CORRECTED_NOTE,
)
from synopsis.state.statements import without_old_values

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

    reporting = reporting_messages(state)  # read by Failed Approaches and Critical Context
    yield from _progress_items(state, layout, order, reporting)

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
    yield from _context_items(state, stale, layout, order, reporting)


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


def _progress_items(
    state: WorkingState, layout: Layout, order: _Counter, reporting: dict[str, str]
) -> Iterable[_Item]:
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
    listed: set[str] = set()
    for index, approach in enumerate(approaches):
        latest = index >= len(approaches) - _KEPT_FAILURES
        priority = P_KEPT if latest else P_APPROACH
        if approach.source != "user":
            yield _Item(failed, f"- {approach.text}", priority, order())
            continue
        message = reporting.get(normalize_ws(approach.text))
        if message in listed:
            continue  # two failures of one message: the message, once
        if message is not None:  # the user's message, which Critical Context leaves out
            listed.add(message)
            priority = P_PINNED_VALUE
        yield _Item(failed, f"{USER_REPORTED_LABEL}{message or approach.text}", priority, order())


def reporting_messages(state: WorkingState) -> dict[str, str]:
    """The user's typed messages (facts the checkpoint keeps whole) that hold a failure
    they reported, by that failure's line: such a message stands once, whole, where a
    reader looks for what went wrong (Failed Approaches) — else it outlasted its failure
    line in Critical Context and the failure left its section at the size target."""
    typed = [one_line(f.text) for f in state.current_facts() if is_pinned_fact(f)]
    found: dict[str, str] = {}
    for approach in state.failed_approaches:
        if approach.source != "user":
            continue
        line = normalize_ws(approach.text)
        message = next((m for m in typed if line in normalize_ws(m)), None)
        if message is not None:
            found[line] = message
    return found


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
    state: WorkingState,
    stale: dict[str, str],
    layout: Layout,
    order: _Counter,
    reporting: dict[str, str],
) -> Iterable[_Item]:
    section = {"checkpoint": "critical", "turn_prefix": "suffix_context", "branch": "goal"}[layout]
    latest = _choice_texts(state, stale)[-_KEPT_DECISIONS:]  # kept at the size target
    # the user's messages that stand whole under Key Decisions or Failed Approaches
    whole = [text for d, text in latest if d.source == "user"]
    whole += reporting.values()
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
        if said in asked or any(said in line for line in (*whole, *rules)):
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
        if layout != "branch" and (
            (fact.source == "assistant" and states_failure(fact.text))
            or (fact.source == "tool" and names_error(fact.text))
        ):
            # an error the assistant met, or a tool's error line the work relied on, is
            # where the work ran into something
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
