"""The Typer application shared by every command module, and the one way to print.

Everything a session file holds is data from somewhere else (a model, a tool, an
attacker who planted a file): before it reaches the terminal it goes through
:func:`clean`, which shows lone surrogates as U+FFFD and control characters as escapes,
and it is printed as :class:`rich.text.Text` (or with markup off), so ``[/]`` in a message
is text, not Rich markup. Machine output (:func:`write_json`) is always valid UTF-8.

Rich is imported on the first print through :data:`console` or :data:`stderr_console`,
not with this module: a command that prints plain lines (``tree``, ``context``) or JSON
starts without it.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from synopsis._js import replace_lone_surrogates
from synopsis.session.jsonl import dump_line

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

app = typer.Typer(
    name="synopsis",
    help="Keep long-running LLM agents inside their context window.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class _LazyConsole:
    """A Rich console made on first use (importing Rich costs tens of milliseconds)."""

    def __init__(self, *, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return getattr(self._console, name)


console = cast("Console", _LazyConsole(stderr=False))
stderr_console = cast("Console", _LazyConsole(stderr=True))


class ModelCallsAborted(Exception):
    """The run stopped at a model failure that every further call would repeat.

    Deliberately not a :class:`~synopsis.errors.SynopsisError`: code that records a
    failed call and carries on (the agent loop turns a failed call into an error reply)
    must not swallow it. Raised by :mod:`synopsis.cli._status`; defined here so that
    :func:`synopsis.cli.main` can catch it without importing the model clients.
    """


# C0 and C1 control characters and DEL, and the invisible characters that reorder or
# hide text on a terminal (bidirectional overrides and isolates, marks).
_INVISIBLE = "\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f{_INVISIBLE}]")
_UNSAFE_KEEPING_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{_INVISIBLE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object, *, multiline: bool = False) -> str:
    """``text`` safe to print: control characters escaped (``\\x1b``), lone surrogates
    as U+FFFD. ``multiline`` keeps newlines and tabs (a summary is several lines)."""
    value = replace_lone_surrogates(str(text))
    pattern = _UNSAFE_KEEPING_LINES if multiline else _UNSAFE
    return pattern.sub(_escape, value)


def user_text(text: object, style: str = "", *, multiline: bool = False) -> Text:
    """Data from a session as a Rich :class:`Text`: cleaned, never read as markup."""
    from rich.text import Text

    return Text(clean(text, multiline=multiline), style=style)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("synopsis")
        except PackageNotFoundError:  # running from a source tree that is not installed
            number = "unknown"
        console.print(f"synopsis {number}", highlight=False)
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Keep long-running LLM agents inside their context window."""


def command() -> Any:
    """The Click command of :data:`app`, with flags shown as flags in every ``--help``.

    Typer 0.29 prints a type after every option, flags included (``--json <bool>``),
    which reads as if the flag took a value; an empty metavar removes it. Older Typer
    versions print nothing there for a flag, so this changes nothing for them.
    """
    group = typer.main.get_command(app)
    commands = [group, *getattr(group, "commands", {}).values()]
    for each in commands:
        context = typer.Context(each)
        for param in each.get_params(context):
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
    return group


def console_error(message: str) -> None:
    """Print ``error: message`` on one line to stderr (the message is cleaned)."""
    from rich.text import Text

    line = Text("error:", style="bold red")
    line.append(" " + clean(message))
    stderr_console.print(line, highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    from rich.text import Text

    line = Text("warning:", style="yellow")
    line.append(" " + clean(message))
    stderr_console.print(line, highlight=False, soft_wrap=True)


def note(message: str) -> None:
    """A line for the user on stderr, so it never mixes with ``--json`` on stdout."""
    stderr_console.print(user_text(message), highlight=False, soft_wrap=True)


def write_json(value: object) -> None:
    """Machine output: one compact JSON document on stdout, valid UTF-8.

    Lone surrogates (a damaged file's text) are written as ``\\udXXX`` escapes, as
    JavaScript's ``JSON.stringify`` does, so nothing is lost and the bytes stay UTF-8.
    """
    sys.stdout.buffer.write(dump_line(value))
    sys.stdout.flush()
