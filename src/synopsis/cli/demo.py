"""``synopsis demo``: watch compaction keep a long agent session inside its window."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from synopsis.agent.demo import run_demo
from synopsis.agent.events import AgentEvent, CompactionEnd, CompactionStart
from synopsis.cli._app import app, console
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError


@app.command()
def demo(
    entries: Annotated[
        int, typer.Option(help="Entries of the recording to replay (at most 2400).")
    ] = 2400,
    language: Annotated[str, typer.Option(help="Language of the recording: en or zh.")] = "en",
    window: Annotated[int, typer.Option(help="Context window of the model (tokens).")] = 100_000,
    reserve: Annotated[int, typer.Option(help="Tokens reserved for the reply.")] = 16384,
    keep_recent: Annotated[int, typer.Option(help="Recent tokens kept verbatim.")] = 20000,
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
    out: Annotated[Path | None, typer.Option(help="Where to write the session file.")] = None,
) -> None:
    """Replay a long recorded coding session through the agent loop with auto-compaction."""
    settings = CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep_recent)
    summarizer = None
    chat_model = None
    if model is not None:
        from synopsis.providers.factory import make_chat_model
        from synopsis.summarizers.factory import make_summarizer

        chat_model = make_chat_model(model, context_window=window, base_url=base_url)
        summarizer = make_summarizer(model, base_url=base_url)
    elif base_url is not None:
        raise SettingsError("--base-url needs --model (the server of that model)")
    target = out or Path(tempfile.mkdtemp(prefix="synopsis-demo-")) / "session.jsonl"
    console.print(
        f"[bold]synopsis demo[/]: {entries} recorded entries ({language}) "
        f"through a {window:,}-token window; reserve {reserve:,}, keep {keep_recent:,}"
    )
    if chat_model is not None:
        where = f" at {base_url}" if base_url else ""
        console.print(f"model: {model}{where} (agent and summarizer)")
    pending: dict[str, int] = {}

    def show(event: AgentEvent) -> None:
        if isinstance(event, CompactionStart):
            pending["before"] = event.tokens_before
        elif isinstance(event, CompactionEnd):
            if event.result is None:
                console.print(f"  compaction ({event.reason}) did not run: {event.error}")
                return
            result = event.result
            console.print(
                f"  [cyan]compaction #{len(shown) + 1}[/] ({event.reason}): "
                f"{result.tokens_before:,} → {result.estimated_tokens_after:,} tokens; "
                f"kept {event.kept_messages} messages from {result.first_kept_entry_id}"
                + (f" [yellow]{event.error}[/]" if event.error else "")
            )
            shown.append(event)

    shown: list[CompactionEnd] = []
    report = asyncio.run(
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
    table = Table(title="Report", show_header=False)
    table.add_row("prompts replayed", str(report.prompts))
    table.add_row("model calls", str(report.model_calls))
    table.add_row("compactions", str(len(report.compactions)))
    table.add_row("without compaction (tokens)", f"{report.recorded_tokens:,}")
    table.add_row("peak context sent (tokens)", f"{report.peak_context:,} / {window:,}")
    table.add_row("final context (tokens)", f"{report.final_context:,}")
    table.add_row("session file", str(report.session_path))
    table.add_row("time", f"{report.seconds:.1f} s")
    console.print(table)
    facts = Table("kind", "planted fact", "in final context")
    for fact, present in report.facts:
        facts.add_row(fact.kind, fact.text, "[green]yes[/]" if present else "[red]no[/]")
    console.print(facts)
    kept = sum(present for _, present in report.facts)
    console.print(f"{kept} of {len(report.facts)} planted facts are still in the final context.")
