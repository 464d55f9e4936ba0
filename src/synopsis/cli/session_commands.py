"""``synopsis tree | context | migrate | plan | compact``: look at and compact a session."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from synopsis.cli._app import app, console, warn, write_json
from synopsis.compaction import CompactionSettings
from synopsis.compaction.orchestrate import CompactionPlan, compact_session, plan_compaction
from synopsis.errors import SessionFormatError
from synopsis.messages import convert_to_llm, role_of, text_of, tool_calls
from synopsis.session import FileSession, open_session
from synopsis.session.entries import Entry
from synopsis.tokens import estimate_context_tokens, estimate_tokens

FileArg = Annotated[Path, typer.Argument(help="A Pi session file (JSONL).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
KeepOpt = Annotated[
    int, typer.Option("--keep-recent", help="Tokens of recent messages kept verbatim.")
]
ReserveOpt = Annotated[int, typer.Option("--reserve", help="Tokens reserved for the reply.")]


def load(path: Path) -> FileSession:
    """Open a session for reading, warning about every line that could not be loaded."""
    session = open_session(path)
    for skipped in session.skipped:
        warn(skipped.describe(path))
    return session


def _preview(entry: Entry, width: int = 72) -> str:
    kind = entry.get("type")
    if kind == "message":
        message = entry["message"]
        role = role_of(message)
        if role == "assistant":
            names = [str(call.get("name")) for call in tool_calls(message)]
            body = text_of(message, " ") or (f"calls {', '.join(names)}" if names else "")
        elif role == "bashExecution":
            body = f"$ {message.get('command', '')}"
        else:
            body = text_of(message, " ") or str(message.get("summary", ""))
        text = f"{role}: {body}"
    elif kind == "compaction":
        text = f"compaction (kept from {entry.get('firstKeptEntryId')})"
    elif kind == "branch_summary":
        text = "branch summary"
    elif kind == "model_change":
        text = f"model → {entry.get('provider')}/{entry.get('modelId')}"
    elif kind == "thinking_level_change":
        text = f"thinking → {entry.get('thinkingLevel')}"
    else:
        text = str(kind)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@app.command()
def tree(file: FileArg, as_json: JsonOpt = False) -> None:
    """Show the session tree: branches, labels, and the leaf."""
    session = load(file)
    labels = session.labels()
    on_path = {e["id"] for e in session.path()}
    if as_json:
        write_json(
            {
                "sessionId": session.session_id,
                "leafId": session.leaf_id,
                "entries": [
                    {
                        "id": e["id"],
                        "parentId": e.get("parentId"),
                        "type": e.get("type"),
                        "label": labels.get(e["id"]),
                        "onPath": e["id"] in on_path,
                    }
                    for e in session.entries
                ],
            }
        )
        return
    # Depth grows only at branch points, so a long linear session stays readable.
    stack: list[tuple[Entry, int]] = [(root, 0) for root in reversed(session.children(None))]
    while stack:
        entry, depth = stack.pop()
        line = Text("  " * depth)
        line.append(entry["id"], style="bold" if entry["id"] in on_path else "dim")
        line.append(" " + _preview(entry))
        if entry["id"] in labels:
            line.append(f" [{labels[entry['id']]}]", style="cyan")
        if entry["id"] == session.leaf_id:
            line.append("  ← leaf", style="bold green")
        console.print(line, highlight=False, soft_wrap=True)
        children = session.children(entry["id"])
        child_depth = depth + 1 if len(children) > 1 else depth
        stack.extend((child, child_depth) for child in reversed(children))


@app.command()
def context(
    file: FileArg,
    leaf: Annotated[str | None, typer.Option(help="Build the context at this entry.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show what the model would see: the context at the leaf, with token estimates."""
    session = load(file)
    if leaf is not None:
        session.require_entry(leaf)
    built = session.build_context(leaf)
    messages = built.messages
    per_message = [estimate_tokens(m) for m in messages]
    tokens = estimate_context_tokens(messages, per_message)
    llm = convert_to_llm(messages)
    model = built.model
    summary: dict[str, Any] = {
        "sessionId": session.session_id,
        "leafId": leaf or session.leaf_id,
        "model": None if model is None else f"{model.provider}/{model.model_id}",
        "thinkingLevel": built.thinking_level,
        "messageCount": len(messages),
        "roleCounts": dict(Counter(role_of(m) for m in messages)),
        "estimatedTokens": sum(per_message),
        "contextTokens": tokens.tokens,
        "usageTokens": tokens.usage_tokens,
        "trailingTokens": tokens.trailing_tokens,
        "firstKeptEntryMissing": built.first_kept_entry_missing,
    }
    if as_json:
        write_json({**summary, "perMessageTokens": per_message, "messages": llm})
        return
    header = Table.grid(padding=(0, 2))
    for key, value in summary.items():
        header.add_row(Text(key, style="bold"), Text(str(value)))
    console.print(header)
    if built.first_kept_entry_missing:
        warn("the latest compaction's first kept entry is not on this path: its kept part is lost")
    table = Table("#", "entry", "role", "tokens", "content", show_lines=False)
    for index, (message, entry_id, count) in enumerate(
        zip(messages, built.entry_ids, per_message, strict=True)
    ):
        fake: Entry = {"type": "message", "message": message}
        table.add_row(str(index), entry_id, role_of(message), str(count), _preview(fake, 60))
    console.print(table)


@app.command()
def migrate(
    file: FileArg,
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the v3 file.")],
) -> None:
    """Convert a version 1 or 2 session file to version 3 (the input is not modified)."""
    session = load(file)
    if not session.header_valid:
        raise SessionFormatError("no session header", path=str(file))
    if not session.migrated:
        console.print(f"{file} is already version 3; writing an identical copy")
    session.save(out)  # a migrated session is rendered as version 3, any other kept byte for byte
    console.print(
        f"wrote {out}: version {session.version_before or 1} → 3, {len(session.entries)} entries"
    )


def _settings(keep_recent: int, reserve: int) -> CompactionSettings:
    return CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep_recent)


@app.command()
def plan(
    file: FileArg,
    keep_recent: KeepOpt = 20000,
    reserve: ReserveOpt = 16384,
    as_json: JsonOpt = False,
) -> None:
    """Explain what a compaction would do right now, without doing it."""
    session = load(file)
    branch = session.path()
    plan = plan_compaction(branch, _settings(keep_recent, reserve))
    report = plan_report(plan)
    if as_json:
        write_json(report)
        return
    if plan.preparation is None:
        console.print(f"No compaction: {report['reason']}.")
        return
    _print_plan(plan, branch, report)


def plan_report(plan: CompactionPlan) -> dict[str, Any]:
    """``plan --json``: the decisions ``compact`` will carry out, as data."""
    preparation = plan.preparation
    if preparation is None or plan.bounds is None or plan.cut is None:
        return {"compact": False, "reason": str(plan.skipped)}
    read_files, modified_files = preparation.file_ops.file_lists()
    kept_tokens = sum(estimate_tokens(m) for m in preparation.kept_messages)
    return {
        "compact": True,
        "branchLength": plan.branch_length,
        "previousCompactionIndex": plan.bounds.previous_compaction_index,
        "rangeStart": plan.bounds.start,
        "fullPass": preparation.full_pass,
        "firstKeptEntryId": preparation.first_kept_entry_id,
        "firstKeptIndex": plan.cut.first_kept_index,
        "isSplitTurn": plan.cut.is_split_turn,
        "turnStartIndex": plan.cut.turn_start_index,
        "messagesToSummarize": len(preparation.messages_to_summarize),
        "tokensToSummarize": sum(estimate_tokens(m) for m in preparation.messages_to_summarize),
        "turnPrefixMessages": len(preparation.turn_prefix_messages),
        "turnPrefixTokens": sum(estimate_tokens(m) for m in preparation.turn_prefix_messages),
        "keptMessages": len(preparation.kept_messages),
        "keptTokens": kept_tokens,
        "tokensBefore": preparation.tokens_before,
        "estimatedTokensAfterWithoutSummary": kept_tokens,
        "previousSummary": preparation.previous_summary is not None,
        "readFiles": read_files,
        "modifiedFiles": modified_files,
    }


def _print_plan(plan: CompactionPlan, branch: list[Entry], report: dict[str, Any]) -> None:
    preparation, bounds, cut = plan.preparation, plan.bounds, plan.cut
    assert preparation is not None and bounds is not None and cut is not None
    kept = branch[cut.first_kept_index]
    why = (
        f"walking back from the leaf, {plan.settings.keep_recent_tokens} tokens are reached; "
        f"the first entry where the kept part may start is {kept['id']} ({_preview(kept, 50)})"
    )
    console.print(f"[bold]Cut[/]: {why}.")
    if cut.is_split_turn:
        turn = branch[cut.turn_start_index]
        console.print(
            f"[bold]Split turn[/]: the turn starting at {turn['id']} is cut; its first "
            f"{len(preparation.turn_prefix_messages)} messages get a separate prefix summary."
        )
    if preparation.full_pass:
        console.print(
            "[bold]Full pass[/]: the checkpoint is rebuilt from the whole log, not updated."
        )
    elif bounds.previous_compaction_index >= 0:
        console.print(
            f"[bold]Previous checkpoint[/] at index {bounds.previous_compaction_index} is merged; "
            f"the summarized range starts at its first kept entry (index {bounds.start})."
        )
    grid = Table.grid(padding=(0, 2))
    for key, value in report.items():
        if key not in ("readFiles", "modifiedFiles", "compact"):
            grid.add_row(Text(key, style="bold"), Text(str(value)))
    grid.add_row(Text("readFiles", style="bold"), Text("\n".join(report["readFiles"]) or "-"))
    grid.add_row(
        Text("modifiedFiles", style="bold"), Text("\n".join(report["modifiedFiles"]) or "-")
    )
    console.print(grid)


@app.command("compact")
def compact_command(
    file: FileArg,
    model: Annotated[
        str | None,
        typer.Option(help="Summarize with a model: openai:MODEL or anthropic:MODEL."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="Base URL of an OpenAI/Anthropic-compatible server.")
    ] = None,
    keep_recent: KeepOpt = 20000,
    reserve: ReserveOpt = 16384,
    instructions: Annotated[str | None, typer.Option(help="Extra focus for the summary.")] = None,
    dry_run: Annotated[bool, typer.Option(help="Print the summary; append nothing.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Compact the session: summarize the old part and append a checkpoint entry."""
    session = load(file)
    summarizer = None
    if model is not None:
        from synopsis.summarizers.factory import make_summarizer

        summarizer = make_summarizer(model, base_url=base_url)
    result, entry_id = asyncio.run(
        compact_session(
            session,
            summarizer,
            _settings(keep_recent, reserve),
            custom_instructions=instructions,
            dry_run=dry_run,
        )
    )
    if as_json:
        write_json(
            {
                "entryId": entry_id,
                "summary": result.summary,
                "firstKeptEntryId": result.first_kept_entry_id,
                "isSplitTurn": result.is_split_turn,
                "fullPass": result.full_pass,
                "tokensBefore": result.tokens_before,
                "estimatedTokensAfter": result.estimated_tokens_after,
                "details": result.details,
                "usage": result.usage.to_json(),
            }
        )
        return
    console.print(result.summary, markup=False, highlight=False)
    console.rule()
    action = "dry run, nothing appended" if entry_id is None else f"appended entry {entry_id}"
    console.print(
        f"tokens before {result.tokens_before} → after ≈ {result.estimated_tokens_after} "
        f"(kept from {result.first_kept_entry_id}; {action})"
    )
