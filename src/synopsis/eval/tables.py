"""The benchmark's terminal tables (rich): survival by type and round, and all metrics.

Built from aggregated cells only, so the table and the JSON always agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from synopsis.eval.canaries import CANARY_TYPES
from synopsis.eval.report import OVER_MARK, Cell, flagged, group_label, groups, percent
from synopsis.eval.runner import budget_label


def _rounds(cells: Sequence[Cell]) -> list[int]:
    return sorted({cell.round for cell in cells})


def survival_table(cells: Sequence[Cell]) -> Table:
    """Compactor × budget × type rows, one column per round, plus an overall row each."""
    rounds = _rounds(cells)
    table = Table(title="Survival by type and round (% of planted canaries kept)")
    for column in ("Compactor", "Budget", "Type"):
        table.add_column(column, no_wrap=True)
    for number in rounds:
        table.add_column(f"R{number}", justify="right")
    for index, (compactor, budget, rows) in enumerate(groups(cells)):
        if index:
            table.add_section()
        by_round = {cell.round: cell for cell in rows}
        first = True
        for kind in CANARY_TYPES:
            if not any(cell.by_type[kind].total for cell in rows):
                continue
            values = [
                flagged(by_round[n], by_round[n].by_type[kind].rate) if n in by_round else ""
                for n in rounds
            ]
            table.add_row(
                compactor if first else "",
                budget_label(budget) if first else "",
                kind.value,
                *values,
            )
            first = False
        overall = [
            flagged(by_round[n], by_round[n].overall.rate) if n in by_round else "" for n in rounds
        ]
        table.add_row("", "", "[bold]overall[/]", *[f"[bold]{v}[/]" for v in overall])
    table.caption = f"{OVER_MARK}: some runs went over their budget (see Over in the metrics)."
    return table


def metrics_table(cells: Sequence[Cell]) -> Table:
    """One row per compactor, budget and round: every metric, summed over scenarios."""
    table = Table(title="All metrics by round (summed over scenarios)")
    table.add_column("Run", no_wrap=True)
    table.add_column("R", justify="right")
    for column in (
        "Kept%",
        "Fit kept%",
        "Over",
        "Rules%",
        "Stale",
        "Exec%",
        "Files%",
        "Size%",
        "ms",
    ):
        table.add_column(column, justify="right", no_wrap=True, min_width=4)
    for index, (compactor, budget, rows) in enumerate(groups(cells)):
        if index:
            table.add_section()
        for number, cell in enumerate(rows):
            table.add_row(
                group_label(compactor, budget) if number == 0 else "",
                str(cell.round),
                flagged(cell, cell.overall.rate),
                percent(cell.in_budget.rate),
                f"[bold red]{cell.over_budget}/{cell.runs}[/]" if cell.over_budget else "0",
                percent(cell.rules.rate),
                f"{cell.stale.hit}/{cell.stale.total}",
                percent(cell.exec_state.rate),
                percent(cell.artifacts.rate),
                percent(cell.size_ratio),
                f"{1000 * cell.seconds / cell.runs:.0f}" if cell.runs else "–",
            )
    table.caption = (
        "Kept: canaries whose required tokens survive (! = some runs over budget). Fit kept: "
        "the same, counting nothing kept by a run over its budget — rank by this. Over: runs "
        "whose context exceeded the budget. Rules: safety rules and hard "
        "constraints (runs whose budget holds them). Stale: replaced values stated as current "
        "/ replaced values. Exec: tool-event mentions whose status matches the events. "
        "Files: modified files named. Size: context after / uncompacted history. "
        "ms: compaction time per run."
    )
    return table
