"""``synopsis demo``: watch compaction keep a long agent session inside its window."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from synopsis.agent.demo import DEMO_ENTRIES, DEMO_LANGUAGES, DemoReport, run_demo
from synopsis.agent.events import AgentEvent, CompactionEnd, CompactionStart
from synopsis.cli._app import app, clean, console, user_text, write_json
from synopsis.cli._status import working
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError


@app.command()
def demo(
    entries: Annotated[
        int, typer.Option(help="Entries of the recording to replay (at most 2400).")
    ] = 2400,
    language: Annotated[str, typer.Option(help="Language of the recording: en or zh.")] = "en",
    window: Annotated[int, typer.Option(help="Context window of the model (tokens).")] = 100_000,
    reserve: Annotated[
        int | None,
        typer.Option(help="Tokens reserved for the reply (default: Pi's 16384, at most window/4)."),
    ] = None,
    keep_recent: Annotated[
        int | None,
        typer.Option(help="Recent tokens kept verbatim (default: Pi's 20000, at most window/4)."),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            help="Run the loop against a real model, openai:M or anthropic:M, which also "
            "writes the checkpoints (the recorded prompts are sent; tools replay the "
            "recorded outputs). Default: replay the recorded replies, no network."
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(help="Server of --model (any OpenAI-compatible server for openai:)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write the session file (default: a temporary file, removed)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Machine-readable JSON on stdout.")
    ] = False,
) -> None:
    """Replay a long recorded coding session through the agent loop with auto-compaction."""
    if not 1 <= entries <= DEMO_ENTRIES:
        raise SettingsError(f"--entries must be between 1 and {DEMO_ENTRIES}, got {entries}")
    if language not in DEMO_LANGUAGES:
        raise SettingsError(
            f"--language: unknown language {language!r}; use {', '.join(DEMO_LANGUAGES)}"
        )
    settings = CompactionSettings.for_window(
        window, reserve_tokens=reserve, keep_recent_tokens=keep_recent
    )
    summarizer = None
    chat_model = None
    if model is not None:
        from synopsis.providers.factory import make_chat_model
        from synopsis.summarizers.factory import make_summarizer

        chat_model = make_chat_model(model, context_window=window, base_url=base_url)
        summarizer = make_summarizer(model, base_url=base_url)
    elif base_url is not None:
        raise SettingsError("--base-url needs --model (the server of that model)")
    if out is not None and not out.parent.is_dir():
        raise SettingsError(
            f"--out {out}: the directory {out.parent} does not exist (or is not a directory)"
        )
    # With --json, stdout holds only the JSON document; the running commentary goes to stderr.
    say = Console(stderr=True) if as_json else console
    say.print(
        f"[bold]synopsis demo[/]: {entries} recorded entries ({language}) "
        f"through a {window:,}-token window; reserve {settings.reserve_tokens:,}, "
        f"keep {settings.keep_recent_tokens:,}"
    )
    if chat_model is not None:
        where = f" at {base_url}" if base_url else ""
        say.print(user_text(f"model: {model}{where} (agent and summarizer)"))
    pending: dict[str, int] = {}

    def show(event: AgentEvent) -> None:
        if isinstance(event, CompactionStart):
            pending["before"] = event.tokens_before
        elif isinstance(event, CompactionEnd):
            if event.result is None:
                say.print(user_text(f"  compaction ({event.reason}) did not run: {event.error}"))
                return
            result = event.result
            say.print(
                f"  [cyan]compaction #{len(shown) + 1}[/] ({event.reason}): "
                f"{result.tokens_before:,} → {result.estimated_tokens_after:,} tokens; "
                f"kept {event.kept_messages} messages from "
                f"{escape(clean(result.first_kept_entry_id))}"
                + (f" [yellow]{escape(clean(event.error))}[/]" if event.error else "")
            )
            shown.append(event)

    shown: list[CompactionEnd] = []

    def run(target: Path) -> DemoReport:
        # With a model, the first unreachable server or refused key ends the run at once.
        with working(f"replaying {entries} recorded entries"):
            return asyncio.run(
                run_demo(
                    target,
                    entries=entries,
                    language=language,
                    settings=settings,
                    context_window=window,
                    model=chat_model,
                    summarizer=summarizer,
                    on_event=show,
                )
            )

    if out is not None:
        report = run(out)
        kept_at: str = str(report.session_path)
    else:
        with tempfile.TemporaryDirectory(prefix="synopsis-demo-") as folder:
            report = run(Path(folder) / "session.jsonl")
        kept_at = "temporary, removed (--out FILE keeps it)"
    if as_json:
        write_json(_report_json(report, out))
        return
    table = Table(title="Report", show_header=False)
    table.add_row("prompts replayed", str(report.prompts))
    table.add_row("model calls", str(report.model_calls))
    table.add_row("compactions", str(len(report.compactions)))
    table.add_row("without compaction (tokens)", f"{report.recorded_tokens:,}")
    table.add_row("peak context sent (tokens)", f"{report.peak_context:,} / {window:,}")
    table.add_row("final context (tokens)", f"{report.final_context:,}")
    table.add_row("session file", user_text(kept_at))
    table.add_row("time", f"{report.seconds:.1f} s")
    console.print(table)
    facts = Table("kind", "planted fact", "in final context")
    for fact, present in report.facts:
        facts.add_row(fact.kind, user_text(fact.text), "[green]yes[/]" if present else "[red]no[/]")
    console.print(facts)
    kept = sum(present for _, present in report.facts)
    console.print(f"{kept} of {len(report.facts)} planted facts are still in the final context.")


def _report_json(report: DemoReport, out: Path | None) -> dict[str, Any]:
    return {
        "prompts": report.prompts,
        "modelCalls": report.model_calls,
        "contextWindow": report.context_window,
        "recordedTokens": report.recorded_tokens,
        "peakContext": report.peak_context,
        "finalContext": report.final_context,
        "compactions": [
            {
                "reason": event.reason,
                "tokensBefore": event.result.tokens_before if event.result else None,
                "estimatedTokensAfter": (
                    event.result.estimated_tokens_after if event.result else None
                ),
                "firstKeptEntryId": event.result.first_kept_entry_id if event.result else None,
                "keptMessages": event.kept_messages,
                "error": event.error,
            }
            for event in report.compactions
        ],
        "facts": [
            {"kind": fact.kind, "text": fact.text, "inFinalContext": present}
            for fact, present in report.facts
        ],
        "sessionFile": None if out is None else str(report.session_path),
        "seconds": round(report.seconds, 3),
    }
