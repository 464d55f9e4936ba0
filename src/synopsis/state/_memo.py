"""Results of pure scans of a text, remembered by the text itself.

One compaction reads the same messages more than once — the summarizer's pass, the
guard's pass over the same messages with their entry ids, the kept messages that the
next compaction summarizes — and the scans of a message's text (credentials,
identifiers, a failure line) are most of what extraction costs. A text is immutable and
each scan a function of it alone, so the result remembered under the text is the result
a fresh scan gives; only the time differs.

The memo is bounded by the characters of the texts it holds (then it starts over), so a
long-running agent does not keep every transcript it ever saw alive through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

MAX_CHARS = 16_000_000
"""Characters of remembered texts per scan before its memo is emptied."""

T = TypeVar("T")


class TextMemo(dict[str, T]):
    """One scan's remembered results, by text (results must be immutable: they are shared).

    Calling the memo is the dict's own look-up, so a text seen before costs one look-up
    in C, not a Python call (a pass over a log asks a memo hundreds of thousands of
    times); only a new text reaches :meth:`__missing__`, which scans it.
    """

    __slots__ = ("chars", "scan")

    def __init__(self, scan: Callable[[str], T]) -> None:
        super().__init__()
        self.scan = scan
        self.chars = 0

    if TYPE_CHECKING:

        def __call__(self, text: str) -> T: ...

    else:
        __call__ = dict.__getitem__

    def __missing__(self, text: str) -> T:
        result = self.scan(text)
        self.remember(text, result)
        return result

    @property
    def results(self) -> dict[str, T]:
        """The remembered results (the memo itself: ``in`` and ``get`` never scan)."""
        return self

    def remember(self, text: str, result: T) -> None:
        """Store ``result`` as the scan of ``text`` (a caller that scanned it otherwise:
        several texts at once)."""
        if self.chars + len(text) > MAX_CHARS:
            self.clear()
        self[text] = result
        self.chars += len(text)

    def clear(self) -> None:
        super().clear()
        self.chars = 0

    def __repr__(self) -> str:  # not the texts: a memo may hold millions of characters
        return f"<TextMemo of {self.scan!r}: {len(self)} texts>"


_memos: list[TextMemo[object]] = []


def remembered(scan: Callable[[str], T]) -> TextMemo[T]:
    """``scan`` with its results remembered per text (see the module docstring)."""
    memo = TextMemo(scan)
    _memos.append(memo)  # type: ignore[arg-type]
    return memo


def remembered_list(scan: Callable[[str], list[T]]) -> Callable[[str], list[T]]:
    """``scan`` (a pure function of a text that returns a list) with its results
    remembered per text: the memo holds a tuple, each caller gets a list of its own."""
    memo = remembered(lambda text: tuple(scan(text)))

    def fresh_list(text: str) -> list[T]:
        return list(memo(text))

    fresh_list.__doc__ = scan.__doc__
    fresh_list.__wrapped__ = scan  # type: ignore[attr-defined]
    return fresh_list


def forget() -> None:
    """Empty every memo (benchmarks measure a first pass; tests compare with fresh scans)."""
    for memo in _memos:
        memo.clear()
