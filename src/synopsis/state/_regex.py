"""A faster yes/no form of a pattern that is an alternation of many line patterns.

Python's matcher tries every alternative of ``^A|^B|C|…`` at every position of the text.
When only *whether* the pattern matches is asked, the same answer comes from
``^(?:A|B|…)`` — tried only where a line starts — and each unanchored alternative on
its own (a literal one then gets the matcher's fast prefix scan; so does one opening
with a word boundary before a literal word, rewritten). On tool output this is 2–7
times faster. The pattern stays written as one alternation; its split is derived
from its source, so a new alternative is split the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=")


def alternatives(source: str) -> list[str]:
    """The top-level alternatives of a pattern's source (``|`` outside groups, classes
    and escapes)."""
    parts: list[str] = []
    depth = 0
    start = 0
    index = 0
    in_class = False
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if source.startswith("^", index + 1):
                index += 1
            if source.startswith("]", index + 1):
                index += 1  # a ``]`` first in a class is a member
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(source[start:index])
            start = index + 1
        index += 1
    parts.append(source[start:])
    return parts


def matches_anywhere(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """``bool(pattern.search(text))``, computed faster (see the module docstring)."""
    source = pattern.pattern
    if _GLOBAL_FLAGS.search(source) or _BACKREFERENCE.search(source):
        return lambda text: pattern.search(text) is not None  # splitting would change it
    parts = alternatives(source)
    anchored = [part[1:] for part in parts if part.startswith("^")]
    patterns = [
        re.compile(_literal_first(part, pattern.flags), pattern.flags)
        for part in parts
        if not part.startswith("^")
    ]
    if anchored:
        patterns.insert(0, re.compile("^(?:" + "|".join(anchored) + ")", pattern.flags))
    return lambda text: any(p.search(text) is not None for p in patterns)


_BOUNDED_LITERAL = re.compile(r"\\b(\w[\w ]*)")


def _literal_first(part: str, flags: int) -> str:
    r"""``\bword …`` as ``word(?<!\wword) …``: the same matches, but the pattern begins
    with its literal, which the matcher finds with its fast prefix scan (a leading ``\b``
    has it try every position). Before a word character, ``\b`` is "no word character
    before it"; a character the quantifier after the literal applies to stays out of it."""
    match = _BOUNDED_LITERAL.match(part)
    if match is None or flags & (re.IGNORECASE | re.VERBOSE):
        return part
    literal = match.group(1)
    if part[match.end() : match.end() + 1] in ("?", "*", "+", "{"):
        literal = literal[:-1]
    if not literal:
        return part
    rest = part[2 + len(literal) :]
    return f"{literal}(?<!\\w{literal}){rest}"
