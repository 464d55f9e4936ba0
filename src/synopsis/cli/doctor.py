"""``synopsis doctor FILE [--json] [--repair -o OUT]``: check a session file, repair a copy.

Exit status: 0 when the file is healthy, 1 when problems were found (whether or not a
repaired copy was written), 2 on a usage error or a file that cannot be read or written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from synopsis._js import replace_lone_surrogates
from synopsis.cli._app import app, console, console_error
from synopsis.errors import SynopsisError
from synopsis.session.doctor import DoctorReport, RepairReport, diagnose, repair
from synopsis.session.jsonl import dump_line

_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim"}
_ID_WIDTH = 16


@app.command()
def doctor(
    file: Annotated[Path, typer.Argument(help="A Pi session file (JSONL).", show_default=False)],
    as_json: Annotated[
        bool, typer.Option("--json", help="Machine-readable JSON on stdout.")
    ] = False,
    do_repair: Annotated[
        bool, typer.Option("--repair", help="Write a repaired copy (needs -o).")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="Where --repair writes the copy (never the input)."),
    ] = None,
) -> None:
    """Check a session file for damage; with --repair -o OUT, write a repaired copy."""
    if do_repair != (out is not None):
        console_error("--repair and -o OUT go together")
        raise typer.Exit(2)
    try:
        report = diagnose(file)
        repaired = repair(file, out) if out is not None else None
    except SynopsisError as error:
        console_error(_printable(str(error)))
        raise typer.Exit(2) from None
    if as_json:
        document = report.to_json()
        if repaired is not None:
            document["repair"] = repaired.to_json()
        # dump_line, not orjson: a damaged file's ids may hold lone surrogates, which JSON
        # can carry as escapes.
        sys.stdout.buffer.write(dump_line(document))
        sys.stdout.flush()
    else:
        _print_report(report, suggest_repair=repaired is None)
        if repaired is not None:
            _print_repair(repaired)
    raise typer.Exit(0 if report.healthy else 1)


def _printable(text: str) -> str:
    """``text`` safe for a terminal: no lone surrogates, no control characters."""
    text = replace_lone_surrogates(text)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else "\ufffd" for char in text)


def _print_report(report: DoctorReport, *, suggest_repair: bool) -> None:
    if report.findings:
        table = Table(show_header=True, header_style="bold", show_lines=False)
        table.add_column("line", justify="right")
        table.add_column("entry")
        table.add_column("kind")
        table.add_column("problem", overflow="fold")
        for finding in report.findings:
            entry_id = finding.entry_id or ""
            if len(entry_id) > _ID_WIDTH:
                entry_id = entry_id[: _ID_WIDTH - 1] + "…"
            table.add_row(
                str(finding.line) if finding.line is not None else "",
                Text(_printable(entry_id)),
                Text(finding.kind, style=_STYLES[finding.severity]),
                Text(_printable(finding.message)),
            )
        console.print(table)
    problems = report.problems
    if not problems:
        console.print(
            f"{_printable(str(report.path))}: healthy ({report.entries} entries)", highlight=False
        )
        return
    errors = sum(1 for f in problems if f.severity == "error")
    summary = (
        f"{_printable(str(report.path))}: {_plural(len(problems), 'problem')} "
        f"({_plural(errors, 'error')}, {_plural(len(problems) - errors, 'warning')})"
    )
    if suggest_repair:
        summary += "; `synopsis doctor FILE --repair -o OUT` writes a repaired copy"
    console.print(summary, highlight=False)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _print_repair(report: RepairReport) -> None:
    done: list[str] = []
    if report.header_replaced:
        done.append("wrote a new header")
    if report.converted_from_version is not None:
        done.append(f"converted from version {report.converted_from_version}")
    if report.dropped_lines:
        done.append(f"dropped {_plural(len(report.dropped_lines), 'line')}")
    if report.made_root:
        count = len(report.made_root)
        done.append(f"made {count} {'entry a root' if count == 1 else 'entries roots'}")
    if report.newline_added:
        done.append("added the final newline")
    summary = ", ".join(done) if done else "nothing to change"
    output = _printable(str(report.output))
    console.print(f"wrote {output}: {report.entries} entries; {summary}", highlight=False)
    if report.remaining:
        console.print(
            f"left as they are (repairing them would mean inventing data): "
            f"{_plural(len(report.remaining), 'problem')} listed above",
            highlight=False,
        )
