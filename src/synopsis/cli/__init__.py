"""The ``synopsis`` command line.

Each group of commands lives in its own module and registers itself on :data:`app`;
errors a user can cause are printed on one line and exit with status 2.
"""

from __future__ import annotations

import sys

from synopsis.cli._app import app, command, console_error

__all__ = ["app", "main"]
from synopsis.errors import SynopsisError

# Command modules register themselves on import.
from synopsis.cli import demo, session_commands  # noqa: F401  isort: skip
from synopsis.cli import doctor  # noqa: F401  isort: skip
from synopsis.cli import eval as eval_command  # noqa: F401  isort: skip
from synopsis.cli import import_command, view_command  # noqa: F401  isort: skip


def main() -> None:
    try:
        command()()
    except SynopsisError as error:
        console_error(str(error))
        sys.exit(2)
