"""Plain lines on stdout, for outputs that may run to a hundred thousand lines.

Rich lays out every ``print`` (wrapping, markup, width), which is what a panel needs and
far too slow for the rows of a large tree or context: 100,000 rows took over 30 s. These
outputs are built as plain strings and written in large chunks. Data from a session goes
through :func:`synopsis.cli._app.clean` before it is put in a line, as everywhere else;
styles are ANSI codes, only on a terminal and never with ``NO_COLOR`` set.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TextIO

_CODES = {"bold": "1", "dim": "2", "cyan": "36", "green": "32", "bold green": "1;32"}


def styling(stream: TextIO | None = None) -> bool:
    """Whether to colour ``stream`` (stdout): a terminal, ``NO_COLOR`` unset, not ``dumb``."""
    stream = stream or sys.stdout
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Painter:
    """Wraps text in ANSI styles when the output is a terminal, else leaves it alone."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_CODES[style]}m{text}\x1b[0m"


def write_lines(lines: Iterable[str], stream: TextIO | None = None, chunk: int = 2000) -> None:
    """Write ``lines`` (each without its newline) to ``stream``, ``chunk`` lines a write."""
    out = stream or sys.stdout
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= chunk:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")
    out.flush()


def display_width(text: str) -> int:
    """Terminal columns of ``text``: two for a wide (CJK, fullwidth) character, none for a
    combining mark, one for the rest; what alignment must count, not ``len``."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def fit_width(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal columns, an ellipsis marking the cut (a row of
    Chinese text cut at 72 characters would take 144 columns and wrap). Reads ``text``
    only up to the cut."""
    if len(text) <= width and display_width(text) <= width:
        return text
    used = 0
    cut = -1
    for end, char in enumerate(text):
        used += display_width(char)
        if cut < 0 and used > width - 1:
            cut = end
        if used > width:
            return text[:cut] + "…"
    return text


def one_line(text: str, width: int) -> str:
    """``fit_width(" ".join(text.split()), width)``, reading only as much of ``text`` as
    the fit needs (a preview of a 200 KB tool result reads its first few hundred
    characters). A prefix's words joined are a prefix of all the words joined, so once
    they are wider than ``width`` the cut falls inside them, where it would fall in all."""
    size = width + 16
    while True:
        line = " ".join(text[:size].split())
        if size >= len(text) or display_width(line) > width:
            return fit_width(line, width)
        size *= 4


def columns(rows: Sequence[Sequence[str]], right: frozenset[int] = frozenset()) -> list[str]:
    """``rows`` as aligned columns two spaces apart (columns in ``right`` right-aligned);
    the last column is not padded. Widths are display widths, so CJK text lines up."""
    if not rows:
        return []
    sizes = [[display_width(cell) for cell in row[:-1]] for row in rows]
    widths = [max(size[i] for size in sizes) for i in range(len(rows[0]) - 1)]
    lines = []
    for row, size in zip(rows, sizes, strict=True):
        cells = [
            " " * (widths[i] - size[i]) + cell if i in right else cell + " " * (widths[i] - size[i])
            for i, cell in enumerate(row[:-1])
        ]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return lines
