"""``synopsis view FILE -o OUT.html``: a session as one self-contained HTML page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from synopsis.cli._app import app, console, console_error, user_text, write_json
from synopsis.cli.session_commands import FileArg, JsonOpt, load
from synopsis.session.jsonl import write_atomically
from synopsis.viewer import render_html


@app.command()
def view(
    file: FileArg,
    out: Annotated[Path, typer.Option("-o", "--out", help="The HTML file to write.")],
    as_json: JsonOpt = False,
) -> None:
    """Write the session's tree, compactions and checkpoints as one HTML page."""
    if out.exists() and file.exists() and os.path.samefile(file, out):
        console_error(f"{out}: the page would overwrite the session file")
        raise typer.Exit(2)
    session = load(file)
    page = render_html(session, title=file.name).encode("utf-8")
    new_file = not out.exists()
    try:
        write_atomically(out, page)
        if new_file:  # a page is for reading: not the 0600 of a fresh temporary file
            mask = os.umask(0)
            os.umask(mask)
            out.chmod(0o644 & ~mask)
    except OSError as error:
        console_error(f"{out}: cannot write: {error.strerror}")
        raise typer.Exit(2) from None
    if as_json:
        write_json({"output": str(out), "entries": len(session.entries), "bytes": len(page)})
        return
    console.print(
        user_text(f"{out}: {len(session.entries):,} entries, {len(page):,} bytes"), highlight=False
    )
