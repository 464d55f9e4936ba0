"""Retiring corrected information from checkpoint lines: one rule for every section.

A correction takes values out of force (:meth:`~synopsis.state.model.WorkingState.
superseded_values`: each replaced value → its replacement) and, when everything a
statement said was replaced, the statement itself (:meth:`~synopsis.state.model.
WorkingState.retired_texts`). Whatever section a line stands in and whoever wrote it —
the renderer from the state (a request, a report, a decision, a fact), an earlier
checkpoint merged in, a model's summary the guard checks — it goes through
:func:`retire_line`, so no part of a checkpoint states what the user has since corrected.
The state keeps the old values and statements, with their provenance, for audit.
"""

from __future__ import annotations

import re

from synopsis.state._text import contains_value, cut_value, normalize_ws
from synopsis.state.statements import value_classes


def stale_note(text: str, stale: dict[str, str]) -> str:
    """``text`` without the replaced values it states: each is cut together
    with the word that marks it as old ("134, not 120" → "134"), else replaced by "…".
    Corrected information leaves the checkpoint; the state keeps it, with its
    provenance, for audit."""
    if not stale:
        return text
    for old in sorted(stale, key=len, reverse=True):  # "$1,800" before the "800" in it
        if contains_value(text, old):
            text = cut_value(text, old)
    return text


def retire_line(
    line: str, stale: dict[str, str], retired: frozenset[str], *, request: bool = False
) -> str | None:
    """``line`` with the ``stale`` values cut out, or ``None`` when nothing in force is
    left of it: a line that is a ``retired`` statement, also as an earlier checkpoint
    cut it ("prod runs postgres 14, use … for the container": the old value a slot knew
    is gone, the one it did not know stays), or one whose words after its label were
    all replaced values ("- fact: …", "- User chose: …").

    A ``request`` line (one under Goal) never goes whole, only its replaced values: what
    the user asked for is still asked when a value in it was corrected ("deploy the
    test stack, port 1024" → "port 2048": the stack is still to deploy)."""
    if request:
        return stale_note(line, stale)
    if not stale and not retired:
        return line
    shown = stale_note(line, stale)
    if retired:
        body = normalize_ws(_ENTRY.sub("", _LABEL.sub("", shown, count=1)))
        if not value_classes(body) and any(
            body == text or ("…" in body and _cut_from(body, text)) for text in retired
        ):  # (one that still states a value of a known shape keeps it: "… 4:30 放学 …")
            return None
    if shown != line and _emptied(shown):
        return None
    return shown


_LABEL = re.compile(r"^\s*-\s+(?:[A-Za-z][\w ]{0,30}:\s+)?")
_ENTRY = re.compile(r" \[entry [^\]]*\]$")
_SAYS_NOTHING = re.compile(r"[\s…,.;:!?，。；：！？“”\"'()（）\[\]→-]*")
_LAST_PART = re.compile(r":\s|→\s|：")


def _emptied(line: str) -> bool:
    """Whether a cut line says nothing any more after its label or arrow."""
    tail = _LAST_PART.split(line.strip())[-1]
    return _SAYS_NOTHING.fullmatch(tail) is not None


_EDGE = " ,;:.!?，。；：！？"


def _cut_from(body: str, sentence: str) -> bool:
    """Whether ``body`` is ``sentence`` with parts cut to "…": what remains of it stands in
    it in order and is at least half of it."""
    said = normalize_ws(sentence)
    parts = [part.strip(_EDGE) for part in body.split("…")]
    parts = [part for part in parts if part]
    if not parts or sum(map(len, parts)) * 2 < len(said):
        return False
    at = 0
    for part in parts:
        at = said.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True
