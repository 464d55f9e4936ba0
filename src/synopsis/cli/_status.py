"""A live status line for long CLI work, and the stop at the first hopeless model call.

:func:`working` shows a Rich spinner with a message on stderr while a block runs, only
when stderr is a terminal: piped output and ``--json`` stay exactly as they were. Inside
it, model calls report their retries on the same line ("retrying in 4 s: HTTP 529 ...")
through the library's call observer, and the first call that fails in a way every later
call would repeat (no server listening, a refused key, an unknown model) stops the run
with :class:`ModelCallsAborted` instead of failing again for every remaining prompt.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.status import Status
from rich.text import Text

from synopsis.cli._app import ModelCallsAborted, clean, note, stderr_console
from synopsis.errors import SummarizerError
from synopsis.providers._retry import (
    CallFailure,
    CallObserver,
    RetryNotice,
    is_fatal,
    observe_calls,
)

__all__ = ["ModelCallsAborted", "StatusLine", "working"]


class StatusLine(Protocol):
    def update(self, message: str) -> None: ...


class _Quiet:
    def update(self, message: str) -> None:
        pass


class _Live:
    def __init__(self, status: Status) -> None:
        self._status = status

    def update(self, message: str) -> None:
        self._status.update(Text(clean(message)))


class _Observer(CallObserver):
    def __init__(self, line: StatusLine, base: str, *, live: bool) -> None:
        self._line = line
        self._base = base
        self._live = live
        self._told: set[tuple[str, int]] = set()
        """(endpoint, attempt) already printed: parallel calls failing alike print once."""

    def retrying(self, notice: RetryNotice) -> None:
        failure = notice.failure
        what = f"HTTP {failure.status}" if failure.status is not None else "no connection"
        message = (
            f"{notice.endpoint.describe()}: {what} ({failure.detail}); "
            f"retry {notice.attempt} of {notice.max_attempts - 1} in {notice.wait:.0f} s"
        )
        if self._live:
            self._line.update(f"{self._base} — {message}")
        elif (key := (notice.endpoint.describe(), notice.attempt)) not in self._told:
            self._told.add(key)  # no terminal to redraw: a line per retry, on stderr only
            note(f"retrying: {message}")

    def failed(self, error: SummarizerError, failure: CallFailure) -> None:
        if is_fatal(failure):
            raise ModelCallsAborted(f"{error} (stopped at the first such failure)")
        self._line.update(self._base)


@contextmanager
def working(message: str) -> Iterator[StatusLine]:
    """Show ``message`` as a live status line on the terminal while the block runs.

    Model calls inside report retries on it, and the first hopeless failure raises
    :class:`ModelCallsAborted`. The yielded line can be updated.
    """
    line: StatusLine
    if stderr_console.is_terminal:
        with stderr_console.status(Text(clean(message))) as status:
            line = _Live(status)
            with observe_calls(_Observer(line, message, live=True)):
                yield line
    else:
        line = _Quiet()
        with observe_calls(_Observer(line, message, live=False)):
            yield line
