"""Which statements of an assistant reply are findings: what it found out or set up,
said with the value or name it is about.

A reply of a coding agent mixes what it found ("the SMTP host is `mailpit` on port
1025", "`.env*.local` is already in `.gitignore` (line 26)") with what introduces a list
or a code block ("Update `next.config.js`:"), headings, plans and courtesy. Only a few
statements of each reply fit a checkpoint, so they are ranked: a statement that names a
*value* (a quoted code name, a path, a port, a version, a number with its unit) outranks
one that only names something with a capital letter, and a line that introduces what
follows (it ends with a colon) or a heading is no statement at all. Among equals the
earlier one wins: replies lead with what matters.

The mechanism is language-independent (quotes, digits, colons), so it ranks an Italian,
Russian or Chinese reply as it ranks an English one.
"""

from __future__ import annotations

import re

from synopsis.state import _patterns as pat
from synopsis.state import statements as st
from synopsis.state._text import sentences

MIN_FINDING_CHARS = 16
"""Shorter statements ("Found it.") say nothing of their own."""
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|might|could|would|i think|i guess|i suspect|let me|i'll|"
    r"i will|let's)\b|也许|可能|大概|我觉得|我猜"
)
_INTRODUCES = re.compile(r"[:：]\s*(?:\*\*|__)?\s*$")
"""A line that ends in a colon introduces a list, a table or code: it states nothing."""
_QUOTED = re.compile(r"`[^`\n]{1,80}`")
_VALUE_UNIT = re.compile(r"\d+(?:[.,]\d+)?\s*(?:%|[a-zA-Z]{1,5}\b)|\d+(?:[.,]\d+)+")
"""A number with its unit ("1.5s", "11 GB", "40%") or a dotted number (a version)."""

VALUE = 2
"""The weight of a statement that names a value (see :func:`weight`)."""
NAME = 1


def weight(sentence: str, low: str) -> int:
    """How much a statement of the assistant is worth keeping: :data:`VALUE` when it names
    a value or a name from the code (or states a diagnosis of one), :data:`NAME` when it
    names something specific only by a capitalised word, 0 when it is no finding."""
    if len(sentence) < MIN_FINDING_CHARS or sentence.endswith(("?", "？")) or _HEDGE.search(low):
        return 0  # a question back or a guess reports nothing
    if "\n" in sentence or sentence.startswith(("```", "|", "#")) or _INTRODUCES.search(sentence):
        return 0  # a list, table, heading or code the assistant wrote: not one statement
    if _QUOTED.search(sentence) or _VALUE_UNIT.search(sentence) or pat.find_identifiers(sentence):
        return VALUE
    if pat.DIAGNOSIS.search(low) is not None and (
        pat.CODE_NAME.search(sentence) is not None or st.has_subject(sentence, low)
    ):
        return VALUE
    return NAME if st.has_specific(sentence, low) else 0


def findings(text: str, most: int) -> list[str]:
    """The ``most`` statements of a reply worth keeping as findings, in reply order: the
    ones that name a value first, then the ones that name something specific; earlier
    before later among equals."""
    return _best([text[start:end].strip() for start, end in sentences(text)], most)


_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+(?P<item>\S[^\n]*)$", re.MULTILINE)


def carried(summary: str, most: int) -> list[str]:
    """The items of a summary a harness wrote of the conversation before this one (another
    agent's compaction) worth carrying on: its list items ranked as findings are — the
    ones that name a value first — at most ``most``, in the summary's order. What the
    agent knew then ("TypeScript with Node v24 type stripping", "16 kHz mono input") is
    reference for the work now; none of it is the user's rule."""
    return _best([m.group("item").strip() for m in _LIST_ITEM.finditer(summary)], most)


def _best(statements: list[str], most: int) -> list[str]:
    """The ``most`` of ``statements`` of the highest :func:`weight` (the earlier among
    equals), in their order; those of weight 0 never."""
    ranked = []
    for index, statement in enumerate(statements):
        score = weight(statement, pat.lower_same(statement))
        if score:
            ranked.append((-score, index, statement))
    best = sorted(ranked)[:most]
    return [statement for _, _, statement in sorted(best, key=lambda r: r[1])]
