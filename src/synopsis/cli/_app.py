"""The Typer application shared by every command module."""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

import typer
from rich.console import Console

app = typer.Typer(
    name="synopsis",
    help="Keep long-running LLM agents inside their context window.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
_stderr = Console(stderr=True)


def _print_version(value: bool) -> None:
    if value:
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
    """Print ``error: message`` on one line to stderr."""
    _stderr.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    _stderr.print(f"[yellow]warning:[/] {message}", highlight=False, soft_wrap=True)


def write_json(value: object) -> None:
    """Machine output: one compact JSON document on stdout."""
    import orjson

    sys.stdout.buffer.write(orjson.dumps(value) + b"\n")
    sys.stdout.flush()
