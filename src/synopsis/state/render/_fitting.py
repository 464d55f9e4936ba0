"""Fitting the items to a size, and laying them out as sections.

Within the soft size target the least important items go first, oldest first within a
priority; under a hard cap lines first say more per character (a thing said twice is said
once, a fact takes its dense form, detail leaves a line) before anything goes, and a rule
never goes. :func:`_layout_text` writes the sections in the order of each layout.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from synopsis.state._retire import stale_note
from synopsis.state._text import (
    clip,
    normalize_ws,
    one_line,
)
from synopsis.state.model import (
    WorkingState,
)
from synopsis.state.render._items import (
    _EARLIER_REQUEST,
    _FACT_JOIN,
    _FINISH,
    _FINISH_EITHER,
    _FINISH_REQUEST,
    _FOCUS_WORD,
    _USER_CHOSE,
    _WORKING_ON,
    _WORKING_ON_GOAL,
    FACT_LABEL,
    NEVER,
    P_GOAL,
    P_KEPT,
    P_OPEN_STEP,
    USER_REPORTED_LABEL,
    Layout,
    _Item,
    fact_line,
    identifier_line,
    pinned_goals,
)
from synopsis.state.render._worth import is_pinned_fact, is_pinned_identifier
from synopsis.state.sections import (
    CORRECTED_NOTE,
    SECTION_TITLES,
)


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
        if item.text.startswith((_USER_CHOSE, USER_REPORTED_LABEL)):  # a fact it states
            # is not listed again
            return any(fact in item.text for fact in self._facts)
        return _terse_line(item.text).removesuffix(CORRECTED_NOTE) in self._lines


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


_LABEL = re.compile(r"^-\s+(?:[A-Za-z][\w ,]{0,40}:\s+)?[“\"]?")
"""A line's own label ("fact: ", "Earlier request, not reported done: "): not what it says."""
_TAIL = re.compile(r"(?:[”\"]?\s*(?:\[entry [^\]]*\])?|…(?:[”\"].*)?)$")
"""A line's closing: its quote, entry id, or where it was cut ("…”" and what follows it)
— not a "…" inside it, where a replaced value was left out."""
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
        elif body := "\n".join(by_section.get(section, ())):
            parts.append(body)
        elif not bare:  # (bare: a heading kept for its sub-section has no placeholder)
            parts.append("- (none)")
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
