"""``synopsis import FILE -o OUT.jsonl [--format …]``: another tool's transcript as a Pi session."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

import typer

from synopsis.cli._app import app, console, user_text, warn, write_json
from synopsis.cli._status import working
from synopsis.importers import FORMATS, SourceFormat, import_transcript


@app.command("import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            help="A Claude Code transcript, a Codex rollout or an OpenAI message list.",
            show_default=False,
        ),
    ],
    out: Annotated[Path, typer.Option("-o", "--out", help="The Pi session file to write.")],
    source_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help=f"One of {', '.join(FORMATS)} (recognised when omitted).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Machine-readable JSON on stdout.")
    ] = False,
) -> None:
    """Convert a Claude Code, Codex or OpenAI transcript into a Pi session file."""
    # import_transcript checks the name and says which formats there are.
    chosen = cast(SourceFormat | None, source_format)
    with working(f"importing {file}"):  # a live line on a terminal: large files take a while
        report = import_transcript(file, out, source_format=chosen, overwrite=force)
    if as_json:
        write_json({"output": str(out), **report.to_json()})
        return
    for line in report.summary_warnings():
        warn(line)
    console.print(
        user_text(
            f"{out}: {report.entries} entries from a {report.source_format} transcript — "
            f"{report.user_messages} user and {report.assistant_messages} assistant "
            f"messages, {report.tool_calls} tool calls, {report.tool_results} results"
        ),
        highlight=False,
        soft_wrap=True,
    )
