"""``synopsis eval``: the compaction fidelity benchmark.

Generates canary sessions, compacts them round after round with each compactor at each
budget, and prints what survived. Offline by default (truncation, the embedded summarizer
with and without the guard); ``--model openai:MODEL`` adds a model summarizer.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from synopsis.cli._app import app, console, console_error, user_text, write_json
from synopsis.cli._status import working
from synopsis.errors import SettingsError, SynopsisError
from synopsis.eval.compactors import DEFAULT_COMPACTORS, MODEL_PREFIX, make_compactor
from synopsis.eval.corpus import CONDITIONS, STAGES, load_corpus, run_corpus
from synopsis.eval.corpus_report import (
    corpus_json,
    extractor_table,
    kinds_table,
    rounds_table,
    sections_table,
)
from synopsis.eval.html import render_corpus_html, render_html
from synopsis.eval.report import aggregate, report_json
from synopsis.eval.runner import DEFAULT_ROUNDS, parse_budget, run_benchmark
from synopsis.eval.scenarios import DEFAULT_TURNS, LANGUAGES, STYLES, generate_scenarios
from synopsis.eval.tables import metrics_table, survival_table

_T = TypeVar("_T", bound=str)
_STYLE_ALIASES = {"customer-service": "support", "cs": "support", "coding-agent": "coding"}


def _items(text: str, option: str) -> list[str]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise SettingsError(f"{option} needs at least one value")
    return list(dict.fromkeys(items))


def _choices(text: str, option: str, allowed: tuple[_T, ...]) -> list[_T]:
    chosen: list[_T] = []
    for item in _items(text, option):
        value = _STYLE_ALIASES.get(item, item)
        match = next((a for a in allowed if a == value), None)
        if match is None:
            raise SettingsError(f"{option}: unknown value {item!r}; use {', '.join(allowed)}")
        chosen.append(match)
    return chosen


def _seeds(text: str) -> list[int]:
    try:
        return [int(item) for item in _items(text, "--seeds")]
    except ValueError:
        raise SettingsError(f"--seeds must be whole numbers, got {text!r}") from None


@app.command("eval")
def eval_command(
    rounds: Annotated[
        int, typer.Option(help="Compactions per run (each compacts the previous result).")
    ] = DEFAULT_ROUNDS,
    budgets: Annotated[
        str, typer.Option(help="Context budgets after compaction, as shares of the original.")
    ] = "10%,20%,30%",
    compactors: Annotated[
        str,
        typer.Option(
            help="Comma-separated: truncation, lead, lead+guard, summary, guarded, "
            "model:PROVIDER:MODEL (each explained above)."
        ),
    ] = ",".join(DEFAULT_COMPACTORS),
    model: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PROVIDER:MODEL",
            help="Also run a model summarizer (guard on): openai:MODEL or anthropic:MODEL.",
        ),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="Base URL of an OpenAI/Anthropic-compatible server.")
    ] = None,
    seeds: Annotated[str, typer.Option(help="Scenario seeds.")] = "1,2,3",
    styles: Annotated[str, typer.Option(help="coding, support.")] = ",".join(STYLES),
    languages: Annotated[str, typer.Option(help="en, zh.")] = ",".join(LANGUAGES),
    turns: Annotated[int, typer.Option(help="User turns per scenario.")] = DEFAULT_TURNS,
    concurrency: Annotated[
        int | None,
        typer.Option(help="Runs in flight at once (default: 4 with a model, else 1)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Machine-readable JSON on stdout.")
    ] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report.")
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus",
            metavar="DIR",
            help="Score a folder of labelled conversations instead (fidelity corpus format).",
        ),
    ] = None,
) -> None:
    """Measure what compaction loses: planted canaries, repeated compaction, baselines.

    Each scenario is compacted round after round; a budget is the share of the original
    context the compacted one may use. A run whose context ends up larger than its budget
    is flagged (Over, and "!" on its figures) and keeps nothing in "Fit kept%", the
    figure to rank compactors by.

    Compactors (--compactors):

    * truncation: no summary; keeps the newest messages that fit the budget (what an
      agent without compaction does).

    * lead: a careless summarizer that keeps the opening of what it is given, up to its
      size limit, guard off (a lossy, drifting summary).

    * lead+guard: the same with the summary guard (what the guard saves of it).

    * summary: synopsis's embedded, offline checkpoint writer, guard off.

    * guarded: the embedded checkpoint writer with the guard (synopsis's default).

    * model:PROVIDER:MODEL: a model summarizer with the guard (e.g. model:openai:gpt-4o-mini;
      --base-url for a compatible server).

    With --corpus DIR a folder of labelled conversations (the fidelity corpus format) is
    replayed through compact_messages with the embedded writer instead, and scored per
    item kind, per section of the checkpoint and against its budget.
    """
    if corpus is not None:
        _corpus_command(corpus, as_json, html)
        return
    try:
        names = _items(compactors, "--compactors") + [MODEL_PREFIX + m for m in model or ()]
        chosen = [make_compactor(name, base_url=base_url) for name in dict.fromkeys(names)]
        shares = [parse_budget(b) for b in _items(budgets, "--budgets")]
        seed_list = _seeds(seeds)
        style_list = _choices(styles, "--styles", STYLES)
        language_list = _choices(languages, "--languages", LANGUAGES)
        scenarios = generate_scenarios(seed_list, style_list, language_list, turns=turns)
        for scenario in scenarios:
            scenario.slices(rounds)  # validates rounds against the scenario's turns
        config: dict[str, Any] = {
            "rounds": rounds,
            "budgets": shares,
            "compactors": [c.name for c in chosen],
            "seeds": seed_list,
            "styles": list(style_list),
            "languages": list(language_list),
            "turns": turns,
        }
        networked = any(c.name.startswith(MODEL_PREFIX) for c in chosen)
        # Offline compactors are CPU-bound: running them one at a time keeps each
        # compaction's measured time its own.
        in_flight = concurrency if concurrency is not None else (4 if networked else 1)
        began = time.perf_counter()
        with working(f"eval: {len(scenarios)} scenarios × {len(chosen)} compactors") as line:
            done: list[str] = []

            def finished(name: str) -> None:
                done.append(name)
                line.update(f"eval: {len(done)} runs done, the last {name}")

            results = asyncio.run(
                run_benchmark(
                    scenarios,
                    chosen,
                    shares,
                    rounds,
                    concurrency=in_flight,
                    on_done=finished if networked else None,
                )
            )
        wall = time.perf_counter() - began
    except SynopsisError as error:
        console_error(str(error))
        raise typer.Exit(2) from None

    cells = aggregate(results)
    if html is not None:
        try:
            html.write_text(render_html(cells, config, wall, results), encoding="utf-8")
        except OSError as error:
            console_error(f"cannot write {html}: {error.strerror or error}")
            raise typer.Exit(2) from None
    if as_json:
        write_json(report_json(results, config, wall))
        return
    console.print(survival_table(cells))
    console.print(metrics_table(cells))
    console.print(
        user_text(
            f"{len(scenarios)} scenarios × {len(chosen)} compactors × {len(shares)} budgets × "
            f"{rounds} rounds in {wall:.1f} s"
            + (f"; HTML report: {html}" if html is not None else "")
        )
    )


def _corpus_command(folder: Path, as_json: bool, html: Path | None) -> None:
    """``--corpus DIR``: replay each labelled case in stages through compact_messages."""
    try:
        cases = load_corpus(folder)
    except SynopsisError as error:
        console_error(str(error))
        raise typer.Exit(2) from None
    began = time.perf_counter()
    results = asyncio.run(run_corpus(cases))
    wall = time.perf_counter() - began
    config: dict[str, Any] = {
        "corpus": str(folder),
        "cases": len(cases),
        "stages": list(STAGES),
        "conditions": [
            {
                "name": c.name,
                "keepShare": c.keep_share,
                "summaryShare": c.summary_share,
                "budgetShare": c.budget_share,
            }
            for c in CONDITIONS
        ],
        "seconds": round(wall, 3),
    }
    if html is not None:
        try:
            html.write_text(render_corpus_html(results, config), encoding="utf-8")
        except OSError as error:
            console_error(f"cannot write {html}: {error.strerror or error}")
            raise typer.Exit(2) from None
    if as_json:
        write_json(corpus_json(results, config))
        return
    console.print(rounds_table(results, f"{folder}: {len(cases)} cases, embedded summarizer"))
    console.print(kinds_table(results))
    console.print(extractor_table(results))
    console.print(sections_table(results))
    console.print(f"{len(cases)} cases × {len(CONDITIONS)} conditions in {wall:.1f} s")
