"""Which reference facts the rest of the work names again.

A finding of the assistant or a line of a tool's output is reference: it is kept when
there is room, and under the size target the older ones go first. Age alone is a poor
guide on a real session: the relay host the assistant found early is what later calls
connect to, while last turn's passing remark names nothing anyone used. What a later
step relies on shows in the state itself — a name or value of the fact stands again in
a tool call's arguments, a decision, a goal, a next step, a file's path or a later
fact (an earlier one it repeats relies on nothing of it). Such a fact is worth more than
one whose names nothing else mentions: it ranks one step above its peers.

The names are read by shape (a span in backticks, a value of a known kind, a token with
a digit, a dot or a slash in it), so the test is the same in every language.
"""

from __future__ import annotations

import re

from synopsis.state import _patterns as pat
from synopsis.state.model import Fact, WorkingState

_QUOTED = re.compile(r"`([^`\n]{2,80})`")
_TOKEN = re.compile(r"[\w$@~-]*[\d./\\_:][\w$@~./\\:-]*[\w$/]")
"""A token that is a name in code or a value: it has a digit, a dot, a slash or an
underscore in it ("orders_dev", "~/dotfiles/scripts", "5671", "v24.1")."""
MIN_NAME_CHARS = 4
"""Shorter tokens ("a.b", "10") stand everywhere and tell nothing."""


def names_of(text: str) -> set[str]:
    """The names and values a statement states, as they would be written again."""
    found = {m.group(1) for m in _QUOTED.finditer(text)}
    found |= {item.value for item in pat.find_identifiers(text)}
    found |= {m.group(0).rstrip(".:") for m in _TOKEN.finditer(text)}
    return {name for name in found if len(name) >= MIN_NAME_CHARS}


def named_again(state: WorkingState, facts: tuple[Fact, ...]) -> set[int]:
    """The ids of those ``facts`` (in the order they were stated) one of whose names
    stands in another record of ``state``: a call's target, a decision, a goal, a next
    step, a file or a later fact."""
    records = [c.target for c in state.tool_calls]
    records += [d.text for d in state.decisions]
    records += [g.text for g in state.goals]
    records += list(state.next_steps)
    records += [f.path for f in state.files]
    elsewhere = "\n".join(records)  # one text to search: calls can be thousands
    texts = [f.text for f in facts]
    named: set[int] = set()
    for index, fact in enumerate(facts):
        names = names_of(fact.text)
        later = [text for text in texts[index + 1 :] if text != fact.text]
        if any(name in elsewhere or any(name in text for text in later) for name in names):
            named.add(id(fact))
    return named
