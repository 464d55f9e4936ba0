"""Merging a previous checkpoint's items into the new ones (update mode).

Prior items come first (older), without repeats of what the state says now, moved from
In Progress to Done when a later success shows it, and dropped when they state a value the
user has since corrected or a placeholder that names nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from synopsis.state._commands import resolution_key
from synopsis.state._progress import (
    is_follow_up,
    is_reply,
)
from synopsis.state._retire import stale_note
from synopsis.state._text import (
    contains_value,
    normalize_ws,
    one_line,
)
from synopsis.state.model import (
    WorkingState,
)
from synopsis.state.render._fitting import _terse_line, dense_fact
from synopsis.state.render._from_state import _CD_PREFIX
from synopsis.state.render._items import (
    _EARLIER_FAILURE,
    _FACT_JOIN,
    _FINISH_EITHER,
    _NOW,
    FACT_LABEL,
    P_APPROACH,
    P_BLOCKED,
    P_DECISION,
    P_DONE,
    P_GOAL,
    P_IN_PROGRESS,
    P_PINNED_GOAL,
    P_PRIOR_CONTEXT,
    P_PRIOR_NEXT,
    P_RESOLVED,
    _Counter,
    _Item,
)
from synopsis.state.render._worth import _RULE_LINE, _placeholder_line
from synopsis.state.sections import (
    CONSTRAINT_LABEL,
    IDENTIFIER_LINE,
    item_text,
    parse_sections,
    split_entry_suffix,
    split_tail,
)

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
            if ours is not None and _holds_call(ours["name"], ours["target"], failed_calls):
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


def _holds_call(name: str, shown: str, calls: set[tuple[str, str]]) -> bool:
    """Whether one of ``calls`` (name, one-line target) is the call a line of ours shows:
    its whole target, or — a long one, clipped with "…" when it was listed — a target
    that opens with the part shown. The state judges such a call itself (open, left, or
    got past since): the prior line of it goes, or a failure got past later would stand
    under Blocked from the old checkpoint while the new one lists it as past."""
    if (name, shown) in calls:
        return True
    if not shown.endswith("…"):
        return False
    head = shown[:-1].rstrip()
    return bool(head) and any(n == name and t.startswith(head) for n, t in calls)


def _done_since(text: str, done_keys: set[tuple[str, ...]], done_targets: list[str]) -> bool:
    """Whether a prior Blocked / In Progress line was resolved by a later success: by the
    same rule as the state's (same file, program or tool) when the line is one of ours,
    else when a later successful call names its target."""
    ours = _OUR_CALL_LINE.match(text)
    if ours:
        return resolution_key(ours.group("name"), ours.group("target")) in done_keys
    return any(t in text for t in done_targets)


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
