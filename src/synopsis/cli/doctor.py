"""``synopsis doctor FILE [--json] [--repair -o OUT]``: check a session file, repair a copy.

Exit status: 0 when the file is healthy or a repaired copy without problems was written,
1 when problems were found and not (all) repaired, 2 on a usage error or a file that
cannot be read or written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from synopsis.cli._app import app, clean, console, console_error, write_json
from synopsis.errors import SynopsisError
from synopsis.session.doctor import DoctorReport, RepairReport, diagnose, repair, same_file

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
    force: Annotated[
        bool, typer.Option("--force", help="Let --repair replace an existing OUT.")
    ] = False,
) -> None:
    """Check a session file for damage; with --repair -o OUT, write a repaired copy."""
    if do_repair != (out is not None):
        console_error("--repair and -o OUT go together")
        raise typer.Exit(2)
    # The input itself as OUT gets repair's own, clearer refusal.
    exists = out is not None and (out.exists() or out.is_symlink())
    if out is not None and exists and not force and not same_file(file, out):
        console_error(f"{clean(out)}: already exists; pass --force to replace it")
        raise typer.Exit(2)
    try:
        report = diagnose(file)
        repaired = repair(file, out) if out is not None else None
    except SynopsisError as error:
        console_error(str(error))
        raise typer.Exit(2) from None
    if as_json:
        document = report.to_json()
        if repaired is not None:
            document["repair"] = repaired.to_json()
        write_json(document)
    else:
        _print_report(report, suggest_repair=repaired is None)
        if repaired is not None:
            _print_repair(repaired)
    repaired_cleanly = repaired is not None and not repaired.remaining
    raise typer.Exit(0 if report.healthy or repaired_cleanly else 1)


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
                Text(clean(entry_id)),
                Text(finding.kind, style=_STYLES[finding.severity]),
                Text(clean(finding.message)),
            )
        console.print(table)
    problems = report.problems
    if not problems:
        console.print(Text(f"{clean(report.path)}: healthy ({report.entries} entries)"))
        return
    errors = sum(1 for f in problems if f.severity == "error")
    summary = (
        f"{clean(str(report.path))}: {_plural(len(problems), 'problem')} "
        f"({_plural(errors, 'error')}, {_plural(len(problems) - errors, 'warning')})"
    )
    if suggest_repair:
        summary += "; `synopsis doctor FILE --repair -o OUT` writes a repaired copy"
    console.print(Text(summary))


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
    output = clean(str(report.output))
    console.print(Text(f"wrote {output}: {report.entries} entries; {summary}"))
    if report.remaining:
        console.print(
            f"left as they are (repairing them would mean inventing data): "
            f"{_plural(len(report.remaining), 'problem')} listed above",
            highlight=False,
        )
