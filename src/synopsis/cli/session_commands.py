"""``synopsis tree | context | migrate | plan | compact``: look at and compact a session."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from synopsis.cli._app import app, clean, console, note, user_text, warn, write_json
from synopsis.cli._lines import Painter, columns, one_line, styling, write_lines
from synopsis.errors import SessionFormatError, SettingsError
from synopsis.messages import convert_to_llm, role_of, text_of, tool_calls
from synopsis.session import FileSession, open_session
from synopsis.session.context import SessionContext
from synopsis.session.entries import Entry
from synopsis.session.jsonl import gc_paused, write_atomically
from synopsis.session.skim import Unread, full_message, messages_of
from synopsis.token_counters import token_counter
from synopsis.tokens import ContextTokens, TokenCounter, current_context_tokens

if TYPE_CHECKING:  # the compaction engine is imported by the commands that compact
    from synopsis.compaction import CompactionSettings
    from synopsis.compaction.orchestrate import CompactionPlan

FileArg = Annotated[Path, typer.Argument(help="A Pi session file (JSONL).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
KeepOpt = Annotated[
    int | None,
    typer.Option(
        "--keep-recent",
        help="Tokens of recent messages kept verbatim (default: Pi's 20000, or a quarter "
        "of a smaller --window).",
    ),
]
ReserveOpt = Annotated[
    int | None,
    typer.Option(
        "--reserve",
        help="Tokens reserved for the reply (default: Pi's 16384, or a quarter of a "
        "smaller --window).",
    ),
]
CounterOpt = Annotated[
    str,
    typer.Option(
        "--counter",
        metavar="NAME",
        help="How messages without reported usage are counted: chars4 (Pi's characters/4), "
        "cjk (a CJK character is a token), cjk:RATIO, tiktoken[:ENCODING].",
    ),
]


SKIM_FROM_BYTES = 1 << 20
"""Smaller files are read in full: reading a small file is quicker than importing the
skim's decoder (msgspec) to read less of it, and a CLI call on it starts faster."""


def load(path: Path, *, skim: bool = False) -> FileSession:
    """Open a session, warning about every line that could not be loaded.

    An empty (or blank) file is an error: every command here needs a session, and
    treating nothing as a new one would print an empty tree or compact nothing.
    ``skim``: message bodies may stay unread (see :func:`open_session`), for a command
    that reads few of them; a file under :data:`SKIM_FROM_BYTES` is read in full.
    """
    if skim:
        try:
            skim = path.stat().st_size >= SKIM_FROM_BYTES
        except OSError:
            skim = False  # open_session says what is wrong with the path
    session = open_session(path, skim=skim)
    if not session.header_valid:
        raise SessionFormatError("the file is empty: it holds no session", path=str(path))
    for skipped in session.skipped:
        warn(skipped.describe(path))
    return session


def _preview(entry: Entry, width: int = 72) -> str:
    kind = entry.get("type")
    if kind == "message":
        message = entry["message"]
        if type(message) is Unread:  # read for this line only: `tree --all` reads every one
            message = message.read()
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
    return one_line(text, width)


AllOpt = Annotated[
    bool, typer.Option("--all", help="Show everything, however long (no summarizing).")
]

FULL_TREE_ENTRIES = 1000
"""Trees up to this many entries are shown whole; larger ones summarize linear runs."""
RUN_ENDS = 3
"""Entries shown at each end of a summarized linear run."""


TreeRow = tuple[Entry, int, bool]
"""An entry, its depth, and whether it opens the tree or a branch or has branches."""


def _tree_rows(session: FileSession) -> list[TreeRow]:
    """Every entry, depth first in file order. Depth grows only at branch points, so a
    long linear session stays readable."""
    kids = session.child_lists()
    rows: list[TreeRow] = []
    stack: list[TreeRow] = [(root, 0, True) for root in reversed(kids.get(None, ()))]
    none: list[Entry] = []
    while stack:
        entry, depth, opens = stack.pop()
        while True:  # down a linear run without the stack
            children = kids.get(entry["id"], none)
            if len(children) != 1:
                break
            rows.append((entry, depth, opens))
            entry, opens = children[0], False
        branches = len(children) > 1
        rows.append((entry, depth, opens or branches))
        child_depth = depth + 1 if branches else depth
        stack.extend((child, child_depth, branches) for child in reversed(children))
    return rows


_LANDMARK_TYPES = frozenset({"compaction", "branch_summary"})


def _summarized(
    rows: list[TreeRow], labels: dict[str, str], leaf_id: str | None
) -> list[TreeRow | int]:
    """``rows`` with every run of more than ``2 * RUN_ENDS + 1`` consecutive entries at
    one depth cut to its ends, with the number left out between them. Landmarks end a
    run and are always shown: roots, branch points and the first entry of every branch,
    labelled entries, checkpoints, branch summaries and the leaf."""
    shown: list[TreeRow | int] = []
    run: list[TreeRow] = []

    def flush() -> None:
        if len(run) > 2 * RUN_ENDS + 1:
            shown.extend(run[:RUN_ENDS])
            shown.append(len(run) - 2 * RUN_ENDS)
            shown.extend(run[-RUN_ENDS:])
        else:
            shown.extend(run)
        run.clear()

    for row in rows:
        entry, depth, opens = row
        entry_id = entry["id"]
        if (
            opens
            or entry_id in labels
            or entry_id == leaf_id
            or entry.get("type") in _LANDMARK_TYPES
        ):
            flush()
            shown.append(row)
            continue
        if run and run[-1][1] != depth:
            flush()
        run.append(row)
    flush()
    return shown


@app.command()
def tree(file: FileArg, show_all: AllOpt = False, as_json: JsonOpt = False) -> None:
    """Show the session tree: branches, labels, and the leaf.

    A tree of more than 1,000 entries is summarized: long linear runs show their first
    and last entries and how many are left out; branch points, labels, checkpoints and
    the leaf are always shown. --all shows every entry.
    """
    with gc_paused(promote=True):  # the loaded session would be walked again by every collection
        _tree(file, show_all, as_json)


def _tree(file: Path, show_all: bool, as_json: bool) -> None:
    session = load(file, skim=True)  # ids, parents and types; bodies only of the rows shown
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
    rows = _tree_rows(session)
    summarize = not show_all and len(rows) > FULL_TREE_ENTRIES
    shown = _summarized(rows, labels, session.leaf_id) if summarize else rows
    paint = Painter(styling())
    lines: list[str] = []
    depth = 0
    for row in shown:
        if isinstance(row, int):
            lines.append("  " * depth + paint(f"… {row:,} more entries (--all shows them)", "dim"))
            continue
        entry, depth, _ = row
        entry_id = entry["id"]
        line = "  " * depth + paint(clean(entry_id), "bold" if entry_id in on_path else "dim")
        line += " " + clean(_preview(entry))
        if entry_id in labels:
            line += " " + paint(f"[{clean(labels[entry_id])}]", "cyan")
        if entry_id == session.leaf_id:
            line += "  " + paint("← leaf", "bold green")
        lines.append(line)
    if summarize:
        lines.append(
            paint(f"({len(rows):,} entries; long linear runs summarized, --all shows all)", "dim")
        )
    write_lines(lines)


CONTEXT_ROWS = 200
"""Messages listed by ``context`` unless --limit or --all says otherwise."""


@app.command()
def context(
    file: FileArg,
    leaf: Annotated[str | None, typer.Option(help="Build the context at this entry.")] = None,
    counter: CounterOpt = "chars4",
    limit: Annotated[
        int,
        typer.Option(
            "--limit",
            metavar="N",
            min=1,
            help="List the last N messages (checkpoints and branch summaries always).",
        ),
    ] = CONTEXT_ROWS,
    show_all: AllOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Show what the model would see: the context at the leaf, with token estimates."""
    with gc_paused(promote=True):  # the loaded session would be walked again by every collection
        _context(file, leaf, counter, 0 if show_all else limit, as_json)


def _context(file: Path, leaf: str | None, counter: str, limit: int, as_json: bool) -> None:
    """``limit``: how many of the last messages to list, 0 for all of them."""
    count = token_counter(counter)
    session = load(file, skim=not as_json)  # the JSON holds every message: read them all
    if leaf is not None:
        session.require_entry(leaf)
    built, per_message, tokens = _context_figures(session, leaf, count)
    messages = built.messages
    model = built.model
    summary: dict[str, Any] = {
        "sessionId": session.session_id,
        "leafId": leaf or session.leaf_id,
        "model": None if model is None else f"{model.provider}/{model.model_id}",
        "thinkingLevel": built.thinking_level,
        "messageCount": len(messages),
        "roleCounts": dict(Counter(role_of(m) for m in messages)),
        "counter": count.name,
        "estimatedTokens": sum(per_message),
        "contextTokens": tokens.tokens,
        "usageTokens": tokens.usage_tokens,
        "trailingTokens": tokens.trailing_tokens,
        "firstKeptEntryMissing": built.first_kept_entry_missing,
    }
    if as_json:
        llm = convert_to_llm(messages)
        write_json({**summary, "perMessageTokens": per_message, "messages": llm})
        return
    paint = Painter(styling())
    width = max(map(len, summary))
    lines = [paint(key.ljust(width), "bold") + "  " + clean(v) for key, v in summary.items()]
    lines += [paint(f"{key}: {meaning}", "dim") for key, meaning in _EXPLAINED.items()]
    write_lines(lines)
    if built.first_kept_entry_missing:
        warn("the latest compaction's first kept entry is not on this path: its kept part is lost")
    first_listed = max(0, len(messages) - limit) if limit else 0
    rows = [["#", "entry", "role", "tokens", "content"]]
    summaries: list[tuple[int, str, Any]] = []
    left_out = 0
    for index, (message, entry_id, tokens_of) in enumerate(
        zip(messages, built.entry_ids, per_message, strict=True)
    ):
        role = role_of(message)
        if role in _SUMMARY_ROLES:
            summaries.append((index, entry_id, message))
            content = f"{_SUMMARY_ROLES[role]}, shown in full below"
        elif index < first_listed:
            left_out += 1
            continue
        else:
            content = _preview({"type": "message", "message": message}, 60)
        rows.append([str(index), clean(entry_id), clean(role), str(tokens_of), clean(content)])
    table = columns(rows, right=frozenset({0, 3}))
    table[0] = paint(table[0], "bold")
    if left_out:
        table.append(
            paint(
                f"… {left_out:,} earlier messages not listed (--limit N lists the last N, "
                "--all every one)",
                "dim",
            )
        )
    write_lines(["", *table])
    for index, entry_id, head in summaries:
        message = full_message(head)
        title = f"#{index} {_SUMMARY_ROLES[role_of(message)]} (entry {entry_id})"
        body = clean(message.get("summary", ""), multiline=True)
        write_lines(["", paint(f"── {clean(title)} ──", "bold"), body])


def _context_figures(
    session: FileSession, leaf: str | None, count: TokenCounter
) -> tuple[SessionContext, list[int], ContextTokens]:
    """The context at ``leaf`` (default: the leaf), each message's estimate and the
    context's size (:func:`current_context_tokens`).

    Of a skimmed session (:attr:`FileSession.skimmed`) the messages stay heads: each body
    is read for its estimate and let go, and read again where the size needs it (the
    messages after the last usage), so the whole context is never held as dicts. Only
    the message that names the model is read for good before the context is built: the
    model is the one of the last assistant message or model change on the path.
    """
    entry = session.get_entry(leaf) if leaf is not None else session.leaf_entry
    while session.skimmed and entry is not None and entry.get("type") != "model_change":
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "assistant":
            full_message(message)
            break
        parent = entry.get("parentId")
        entry = session.get_entry(parent) if isinstance(parent, str) else None
    built = session.build_context(leaf)
    messages = messages_of(built.messages)
    per_message = [count.count(m) for m in messages]
    tokens = current_context_tokens(messages, built.new_messages_start, count.count)
    return built, per_message, tokens


_SUMMARY_ROLES = {"compactionSummary": "checkpoint", "branchSummary": "branch summary"}
"""Messages whose text is the point of looking: printed whole, not previewed."""

_EXPLAINED = {
    "contextTokens": "the size auto-compaction compares with its threshold, "
    "usageTokens + trailingTokens",
    "usageTokens": "the context size the provider reported with the last reply since the "
    "checkpoint (0: no such reply)",
    "trailingTokens": "the counter's estimate of the messages after that reply (of all "
    "messages without one)",
    "estimatedTokens": "the counter's estimate of every message, ignoring reported usage",
}
"""What the token figures of ``context`` mean, printed under them."""


@app.command()
def migrate(
    file: FileArg,
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the v3 file.")],
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Convert a version 1 or 2 session file to version 3 (the input is not modified)."""
    from synopsis.session.doctor import same_file

    if same_file(file, out):  # also through a link or another spelling of the path
        raise SettingsError(
            f"-o {out} is the input file: migrate writes a new file and never modifies its "
            "input; choose another output file"
        )
    if (out.exists() or out.is_symlink()) and not force:
        raise SessionFormatError("already exists; pass --force to replace it", path=str(out))
    session = load(file)
    session.save(out)  # a migrated session is rendered as version 3, any other kept byte for byte
    before = (session.version_before or 1) if session.migrated else 3
    if as_json:
        write_json(
            {
                "input": str(file),
                "output": str(out),
                "versionBefore": before,
                "version": 3,
                "migrated": session.migrated,
                "entries": len(session.entries),
            }
        )
        return
    if not session.migrated:
        console.print(user_text(f"{file} is already version 3; wrote an identical copy"))
    console.print(
        user_text(f"wrote {out}: version {before} → 3, {len(session.entries)} entries"),
        highlight=False,
    )


def _settings(
    keep_recent: int | None,
    reserve: int | None,
    window: int | None = None,
    counter: TokenCounter | None = None,
) -> CompactionSettings:
    """Settings from the options: Pi's defaults, or for ``--window`` defaults that fit it."""
    from synopsis.compaction import CompactionSettings

    options: dict[str, Any] = {} if counter is None else {"token_counter": counter}
    if window is not None:
        return CompactionSettings.for_window(
            window, reserve_tokens=reserve, keep_recent_tokens=keep_recent, **options
        )
    if reserve is not None:
        options["reserve_tokens"] = reserve
    if keep_recent is not None:
        options["keep_recent_tokens"] = keep_recent
    return CompactionSettings(**options)


def _trigger(session: FileSession, settings: CompactionSettings, window: int) -> dict[str, Any]:
    """Whether auto-compaction (the agent's check before a model call) would run now."""
    built = session.build_context()
    size = current_context_tokens(
        built.messages, built.new_messages_start, settings.token_counter.count
    )
    threshold = settings.threshold(window)
    return {
        "contextWindow": window,
        "reserveTokens": settings.reserve_tokens,
        "keepRecentTokens": settings.keep_recent_tokens,
        "threshold": threshold,
        "contextTokens": size.tokens,
        "counter": settings.token_counter.name,
        "wouldTrigger": settings.should_compact(size.tokens, window),
    }


def _print_trigger(trigger: dict[str, Any]) -> None:
    verdict = "would trigger now" if trigger["wouldTrigger"] else "would not trigger now"
    relation = ">" if trigger["wouldTrigger"] else "≤"
    console.print(
        f"[bold]Auto-compaction[/] {verdict}: the context is {trigger['contextTokens']:,} "
        f"tokens ({trigger['counter']}) {relation} the threshold {trigger['threshold']:,} "
        f"(window {trigger['contextWindow']:,} − reserve {trigger['reserveTokens']:,}).",
        highlight=False,
    )


@app.command()
def plan(
    file: FileArg,
    keep_recent: KeepOpt = None,
    reserve: ReserveOpt = None,
    window: Annotated[
        int | None,
        typer.Option(
            "--window",
            help="The model's context window: also say whether auto-compaction would trigger now.",
        ),
    ] = None,
    counter: CounterOpt = "chars4",
    as_json: JsonOpt = False,
) -> None:
    """Explain what a compaction would do right now, without doing it."""
    settings = _settings(keep_recent, reserve, window, token_counter(counter))
    # the plan reads the bodies it counts as it counts them; the trigger sizes the context
    # from its messages, so with --window they are read in full
    session = load(file, skim=window is None)
    trigger = _trigger(session, settings, window) if window is not None else None
    branch = session.path()
    from synopsis.compaction.orchestrate import plan_compaction

    plan = plan_compaction(branch, settings)
    report = plan_report(plan)
    if as_json:
        write_json({**report, "autoCompaction": trigger})
        return
    if trigger is not None:
        _print_trigger(trigger)
    if plan.preparation is None:
        console.print(user_text(f"No compaction: {report['reason']}."))
        return
    _print_plan(plan, branch, report)


def plan_report(plan: CompactionPlan) -> dict[str, Any]:
    """``plan --json``: the decisions ``compact`` will carry out, as data."""
    preparation = plan.preparation
    if preparation is None or plan.bounds is None or plan.cut is None:
        return {"compact": False, "reason": str(plan.skipped)}
    count = plan.settings.token_counter.count
    read_files, modified_files = preparation.file_ops.file_lists()
    kept_tokens = sum(map(count, preparation.kept_messages))
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
        "tokensToSummarize": sum(map(count, preparation.messages_to_summarize)),
        "turnPrefixMessages": len(preparation.turn_prefix_messages),
        "turnPrefixTokens": sum(map(count, preparation.turn_prefix_messages)),
        "keptMessages": len(preparation.kept_messages),
        "keptTokens": kept_tokens,
        "tokensBefore": preparation.tokens_before,
        "estimatedTokensAfterWithoutSummary": kept_tokens,
        "previousSummary": preparation.previous_summary is not None,
        "readFiles": read_files,
        "modifiedFiles": modified_files,
    }


def _print_plan(plan: CompactionPlan, branch: list[Entry], report: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    preparation, bounds, cut = plan.preparation, plan.bounds, plan.cut
    assert preparation is not None and bounds is not None and cut is not None
    kept = branch[cut.first_kept_index]
    why = (
        f"walking back from the leaf, {plan.settings.keep_recent_tokens} tokens are reached; "
        f"the first entry where the kept part may start is {kept['id']} ({_preview(kept, 50)})"
    )
    console.print(Text.assemble(("Cut", "bold"), ": " + clean(why) + "."))
    if cut.is_split_turn:
        turn = branch[cut.turn_start_index]
        console.print(
            Text.assemble(
                ("Split turn", "bold"),
                f": the turn starting at {clean(turn['id'])} is cut; its first "
                f"{len(preparation.turn_prefix_messages)} messages get a separate prefix "
                "summary.",
            )
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
            grid.add_row(Text(key, style="bold"), user_text(value))
    grid.add_row(
        Text("readFiles", style="bold"),
        user_text("\n".join(map(clean, report["readFiles"])) or "-", multiline=True),
    )
    grid.add_row(
        Text("modifiedFiles", style="bold"),
        user_text("\n".join(map(clean, report["modifiedFiles"])) or "-", multiline=True),
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
    keep_recent: KeepOpt = None,
    reserve: ReserveOpt = None,
    instructions: Annotated[str | None, typer.Option(help="Extra focus for the summary.")] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the summary; append nothing.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Compact the session: summarize the old part and append a checkpoint entry.

    A version 1 or 2 file is rewritten as version 3; the original is kept next to it as
    FILE.v1.bak (or .v2.bak).
    """
    if base_url is not None and model is None:
        raise SettingsError("--base-url needs --model (the server of that model)")
    settings = _settings(keep_recent, reserve)
    summarizer = None
    if model is not None:
        from synopsis.summarizers.factory import make_summarizer

        summarizer = make_summarizer(model, base_url=base_url)
    import asyncio

    from synopsis.cli._status import working
    from synopsis.compaction.orchestrate import compact_session

    session = load(file)
    backup = None if dry_run else _back_up_old_format(session, file)
    try:
        with working(f"compacting with {model or 'the embedded summarizer'}"):
            result, entry_id = asyncio.run(
                compact_session(
                    session,
                    summarizer,
                    settings,
                    custom_instructions=instructions,
                    dry_run=dry_run,
                )
            )
    except BaseException:
        if backup is not None and _holds(file, session.source_bytes):
            backup.unlink(missing_ok=True)  # nothing was rewritten: no backup needed
        raise
    if backup is not None:
        note(
            f"{file} was version {session.version_before or 1}: rewrote it as version 3 "
            f"and kept the original as {backup}"
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
    console.print(user_text(result.summary, multiline=True), highlight=False)
    console.rule()
    action = "dry run, nothing appended" if entry_id is None else f"appended entry {entry_id}"
    console.print(
        user_text(
            f"tokens before {result.tokens_before} → after ≈ {result.estimated_tokens_after} "
            f"(kept from {result.first_kept_entry_id}; {action})"
        ),
        highlight=False,
    )


def _holds(file: Path, data: bytes) -> bool:
    try:
        return file.read_bytes() == data
    except OSError:
        return False


def _back_up_old_format(session: FileSession, file: Path) -> Path | None:
    """Before a version 1 or 2 file is rewritten as version 3, keep its bytes next to it.

    The backup is ``FILE.vN.bak`` (``.vN.1.bak``... when that name is taken), written
    atomically before anything changes; ``None`` for a current-version file.
    """
    if not session.migrated:
        return None
    version = session.version_before or 1
    candidate = file.with_name(f"{file.name}.v{version}.bak")
    number = 0
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = file.with_name(f"{file.name}.v{version}.{number}.bak")
    write_atomically(candidate, session.source_bytes)
    return candidate
