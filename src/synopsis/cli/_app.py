"""The Typer application shared by every command module."""

from __future__ import annotations

import sys

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
