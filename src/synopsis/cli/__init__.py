"""The ``synopsis`` command line.

Each group of commands lives in its own module and registers itself on :data:`app`.

Exit status, the same for every command:

- 0: done (``doctor``: the file is healthy, or a repaired copy was written);
- 1: ``doctor`` found problems and wrote no repaired copy;
- 2: the input or an option is wrong, a file cannot be read or written (a full disk, a
  read-only file system, no permission, a file changed by another process), or a model
  cannot be reached; one ``error:`` line on stderr says what and what to do, and
  nothing was written;
- 130: interrupted (Ctrl-C).
"""

from __future__ import annotations

import errno
import sys
from importlib import import_module
from typing import Any

import typer

from synopsis.cli import _app
from synopsis.cli._app import ModelCallsAborted, console_error
from synopsis.errors import SynopsisError

__all__ = ["COMMAND_MODULES", "app", "command", "main", "register"]

COMMAND_MODULES: dict[str, str] = {
    "tree": "session_commands",
    "context": "session_commands",
    "migrate": "session_commands",
    "plan": "session_commands",
    "compact": "session_commands",
    "doctor": "doctor",
    "eval": "eval",
    "import": "import_command",
    "view": "view_command",
    "demo": "demo",
}
"""The module that registers each command on :data:`app` when it is imported.

A command's module is imported only when the command runs (every module for the list
of commands, ``--help`` and mistakes), so starting ``synopsis context`` does not pay for
the evaluation harness, the viewer or the model clients.
"""


def register(names: list[str] | None = None) -> None:
    """Import the modules of the commands ``names`` (``None``: every command)."""
    wanted = COMMAND_MODULES.values() if names is None else (COMMAND_MODULES[n] for n in names)
    for module in dict.fromkeys(wanted):
        import_module(f"synopsis.cli.{module}")


def command(names: list[str] | None = None) -> Any:
    """The Click command of the CLI with the commands ``names`` (``None``: all of them)."""
    register(names)
    return _app.command()


def __getattr__(name: str) -> Any:
    if name == "app":  # the Typer application with every command on it
        register()
        return _app.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Click's base of usage errors, reached through a public name (Typer vendors Click in
# recent releases and depends on it in older ones).
_ClickException: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)

_ADVICE = {
    errno.ENOSPC: "the disk is full; free some space and run the command again",
    errno.EDQUOT: "the disk quota is used up; free some space and run the command again",
    errno.EROFS: "the file system is read-only; write somewhere else",
    errno.EACCES: "no permission; check the file's and the directory's permissions",
    errno.EPERM: "not permitted; check the file's permissions and attributes",
    errno.ENOENT: "check that the file and its directory exist",
    errno.ENOTDIR: "a part of the path is a file, not a directory; check the path",
    errno.EISDIR: "the path is a directory; give a file name",
    errno.EIO: "the device reported an I/O error; check the disk",
}


def describe_os_error(error: OSError) -> str:
    """An ``OSError`` as one sentence: which file, what went wrong, what to do."""
    where = f"{error.filename}: " if error.filename is not None else ""
    what = error.strerror or str(error) or type(error).__name__
    advice = _ADVICE.get(error.errno or 0)
    return f"{where}{what}" + (f"; {advice}" if advice else "")


def main() -> None:
    """Run the command line; every failure a user can cause is one ``error:`` line."""
    first = sys.argv[1] if len(sys.argv) > 1 else None
    try:
        code = command([first] if first in COMMAND_MODULES else None)(standalone_mode=False)
    except SynopsisError as error:
        console_error(str(error))
        code = 2
    except ModelCallsAborted as error:
        console_error(str(error))
        code = 2
    except OSError as error:
        if error.errno == errno.EPIPE:  # the reader went away (`synopsis tree | head`)
            sys.stderr.close()
            sys.exit(1)
        console_error(describe_os_error(error))
        code = 2
    except (typer.Abort, KeyboardInterrupt):
        console_error("interrupted")
        code = 130
    except _ClickException as error:  # a usage error: one line, not Click's box
        message = error.format_message()  # type: ignore[attr-defined]
        context = getattr(error, "ctx", None)
        hint = f" (see `{context.command_path} --help`)" if context is not None else ""
        if message:  # no arguments at all: Typer has printed the help, nothing to add
            console_error(f"{message}{hint}")
        code = getattr(error, "exit_code", 2)
    sys.exit(code if isinstance(code, int) else 0)
