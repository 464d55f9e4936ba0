"""Tables and JSON for ``synopsis eval --corpus``: totals per condition and round, per
item kind, and the extractor's own recall and precision (see :mod:`synopsis.eval.corpus`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from synopsis.eval.corpus import KINDS, StageResult, check_extractor
from synopsis.eval.section_accuracy import SCORED_KINDS, SectionTotals, sum_scores


@dataclass(frozen=True, slots=True)
class Totals:
    condition: str
    round: int
    cases: int
    items: int
    kept: int
    updates: int
    updates_clean: int
    stale: int
    injected: int
    noise: int
    over_budget: int
    summary_tokens: int
    context_tokens: int
    by_kind: dict[str, tuple[int, int, int]]
    """kind → (kept, missing, items with a stale value)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "condition": self.condition,
            "round": self.round,
            "cases": self.cases,
            "items": self.items,
            "kept": self.kept,
            "updates": self.updates,
            "updatesClean": self.updates_clean,
            "staleHits": self.stale,
            "injected": self.injected,
            "noise": self.noise,
            "overBudget": self.over_budget,
            "summaryTokens": self.summary_tokens,
            "contextTokens": self.context_tokens,
            "byKind": {
                k: {"kept": v[0], "missing": v[1], "stale": v[2]} for k, v in self.by_kind.items()
            },
        }


def totals(results: Sequence[StageResult], *, final: bool = False) -> list[Totals]:
    """One row per (condition, round), in run order; with ``final``, one per condition
    over each case's last stage (round 0)."""
    groups: dict[tuple[str, int], list[StageResult]] = {}
    for result in final_results(results) if final else results:
        groups.setdefault((result.condition, 0 if final else result.round), []).append(result)
    rows = []
    for (condition, number), group in groups.items():
        items = [item for r in group for item in r.score.items]
        updates = [item for item in items if item.update]
        by_kind: dict[str, tuple[int, int, int]] = {}
        for kind in KINDS:
            of_kind = [item for item in items if item.kind == kind]
            if of_kind:
                kept = sum(item.kept for item in of_kind)
                stale = sum(bool(item.stale) for item in of_kind)
                by_kind[kind] = (kept, len(of_kind) - kept, stale)
        rows.append(
            Totals(
                condition=condition,
                round=number,
                cases=len(group),
                items=len(items),
                kept=sum(item.kept for item in items),
                updates=len(updates),
                updates_clean=sum(item.clean for item in updates),
                stale=sum(len(item.stale) for item in items),
                injected=sum(len(r.score.injected) for r in group),
                noise=sum(len(r.score.noise) for r in group),
                over_budget=sum(r.over_budget for r in group),
                summary_tokens=sum(r.summary_tokens for r in group),
                context_tokens=sum(r.context_tokens for r in group),
                by_kind=by_kind,
            )
        )
    return rows


def final_results(results: Sequence[StageResult]) -> list[StageResult]:
    """Each case's last stage under each condition."""
    last: dict[tuple[str, str], StageResult] = {}
    for result in results:
        last[(result.condition, result.case.id)] = result
    return list(last.values())


def extractor_totals(results: Sequence[StageResult]) -> dict[str, Any]:
    """Recall per kind and precision on rules of the final working states (one condition:
    the state does not depend on the budget)."""
    finals = [r for r in final_results(results) if r.condition == results[0].condition]
    found: dict[str, list[int]] = {}
    records = true = 0
    for result in finals:
        check = check_extractor(result.case, result.state)
        for kind, (hit, total) in check.found.items():
            tally = found.setdefault(kind, [0, 0])
            tally[0] += hit
            tally[1] += total
        records += check.rule_records
        true += check.rule_records_true
    return {
        "recall": {k: {"found": v[0], "items": v[1]} for k, v in sorted(found.items())},
        "ruleRecords": records,
        "ruleRecordsTrue": true,
        "rulePrecision": round(true / records, 4) if records else None,
    }


def section_totals(
    results: Sequence[StageResult], *, final: bool = True
) -> dict[str, SectionTotals]:
    """Section accuracy per condition: over each case's last stage (``final``), else over
    every stage (the unfinished-request count is mostly about intermediate stages)."""
    chosen = final_results(results) if final else list(results)
    by_condition: dict[str, list[StageResult]] = {}
    for result in chosen:
        by_condition.setdefault(result.condition, []).append(result)
    return {
        condition: sum_scores(r.sections for r in group if r.sections is not None)
        for condition, group in by_condition.items()
    }


def corpus_json(results: Sequence[StageResult], config: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": 1,
        "config": config,
        "totals": [row.to_json() for row in totals(results)],
        "final": [row.to_json() for row in totals(results, final=True)],
        "extractor": extractor_totals(results) if results else None,
        "sections": {
            "final": {c: t.to_json() for c, t in section_totals(results).items()},
            "allStages": {c: t.to_json() for c, t in section_totals(results, final=False).items()},
        },
        "cases": [
            {
                "case": r.case.id,
                "language": r.case.language,
                "condition": r.condition,
                "round": r.round,
                "turnsSeen": r.end,
                "kept": sum(i.kept for i in r.score.items),
                "items": len(r.score.items),
                "missing": [i.id for i in r.score.items if not i.kept],
                "stale": [{"id": i.id, "tokens": list(i.stale)} for i in r.score.items if i.stale],
                "injected": list(r.score.injected),
                "noise": list(r.score.noise),
                "contextTokens": r.context_tokens,
                "summaryTokens": r.summary_tokens,
                "budgetTokens": r.budget_tokens,
                "overBudget": r.over_budget,
                "notInOwnSection": list(r.sections.missed) if r.sections else [],
                "inProgressEmpty": r.sections.in_progress_empty if r.sections else None,
                "unfinished": r.sections.unfinished if r.sections else None,
            }
            for r in results
        ],
    }


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "-"


def rounds_table(results: Sequence[StageResult], title: str) -> Table:
    table = Table(title=title)
    for column in (
        "condition", "round", "kept", "updates clean", "stale", "injected", "noise",
        "over budget", "checkpoint tok", "context tok",
    ):  # fmt: skip
        table.add_column(column, justify="left" if column == "condition" else "right")
    for row in totals(results):
        table.add_row(
            row.condition,
            str(row.round),
            _pct(row.kept, row.items),
            f"{row.updates_clean}/{row.updates}",
            str(row.stale),
            str(row.injected),
            str(row.noise),
            f"{row.over_budget}/{row.cases}",
            str(row.summary_tokens // max(1, row.cases)),
            str(row.context_tokens // max(1, row.cases)),
        )
    return table


def kinds_table(results: Sequence[StageResult]) -> Table:
    """Per item kind, on the final context: kept / missing / stale, each condition."""
    rows = totals(results, final=True)
    table = Table(title="final round, per kind: kept / missing / stale")
    table.add_column("kind")
    for row in rows:
        table.add_column(row.condition, justify="right")
    for kind in KINDS:
        cells = []
        for row in rows:
            kept, missing, stale = row.by_kind.get(kind, (0, 0, 0))
            cells.append(f"{kept} / {missing} / {stale}")
        table.add_row(kind, *cells)
    return table


def extractor_table(results: Sequence[StageResult]) -> Table:
    data = extractor_totals(results)
    table = Table(title="extractor: truth items in the final working state (kind and source)")
    table.add_column("kind")
    table.add_column("in state", justify="right")
    for kind, tally in data["recall"].items():
        table.add_row(kind, _pct(tally["found"], tally["items"]))
    table.add_row(
        "rule precision", _pct(data["ruleRecordsTrue"], data["ruleRecords"]), style="bold"
    )
    return table


def sections_table(results: Sequence[StageResult]) -> Table:
    """Per kind: truth items of the replaced turns that stand in their own section of the
    final checkpoint; then the two state checks (see :mod:`synopsis.eval.section_accuracy`)."""
    final = section_totals(results)
    every = section_totals(results, final=False)
    table = Table(title="final checkpoint: items in their own section (replaced turns only)")
    table.add_column("kind")
    for condition in final:
        table.add_column(condition, justify="right")
    for kind in SCORED_KINDS:
        table.add_row(kind, *(_pct(*t.by_kind.get(kind, (0, 0))) for t in final.values()))
    table.add_row("decision + task state", *(_pct(*t.task) for t in final.values()), style="bold")
    table.add_row("all", *(_pct(t.hit, t.total) for t in final.values()))
    table.add_row(
        "resolved failure under Blocked",
        *(f"{t.resolved_blocked}/{t.resolved_failures} (all stages)" for t in every.values()),
    )
    table.add_row(
        "In Progress empty, request open",
        *(f"{t.empty_while_unfinished}/{t.unfinished} stages" for t in every.values()),
    )
    return table
