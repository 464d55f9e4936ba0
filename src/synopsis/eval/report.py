"""Aggregating benchmark results: per compactor, budget and round, across scenarios.

Counts are summed over scenarios (a rate is hits / total over all of them), so a
scenario with more canaries of a type weighs more, as it should. The JSON document holds
the aggregates, the canary definitions and every per-run score, so any figure in the
table can be traced to the canary and the round that produced it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synopsis.eval.canaries import CANARY_TYPES, CanaryType
from synopsis.eval.metrics import PINNED_TYPES
from synopsis.eval.runner import RoundResult, budget_label
from synopsis.eval.scenarios import Scenario

REPORT_VERSION = 1


@dataclass(slots=True)
class Tally:
    """``hit`` out of ``total``."""

    hit: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.hit += int(ok)
        self.total += 1

    @property
    def rate(self) -> float | None:
        return self.hit / self.total if self.total else None

    def to_json(self) -> dict[str, Any]:
        return {"hit": self.hit, "total": self.total, "rate": self.rate}


@dataclass(slots=True)
class Cell:
    """Everything measured for one compactor, budget and round, over all scenarios."""

    compactor: str
    budget: float
    round: int
    by_type: dict[CanaryType, Tally] = field(
        default_factory=lambda: {kind: Tally() for kind in CANARY_TYPES}
    )
    overall: Tally = field(default_factory=Tally)
    rules: Tally = field(default_factory=Tally)
    """Safety rules and hard constraints kept, in runs whose budget allows them."""
    rules_unfit: int = 0
    """Runs where the budget could not hold every rule (left out of ``rules``)."""
    stale: Tally = field(default_factory=Tally)
    """``hit``: replaced values still stated as current; ``total``: replaced values."""
    exec_state: Tally = field(default_factory=Tally)
    """Mentions of tool events whose claimed status matches the events."""
    artifacts: Tally = field(default_factory=Tally)
    in_budget: Tally = field(default_factory=Tally)
    """Canaries kept by runs that stayed within their budget; a run over it keeps none:
    the figure to rank compactors by, since any of them can keep everything by not
    shrinking."""
    over_budget: int = 0
    """Runs whose context after compaction exceeded the budget."""
    context_tokens: int = 0
    original_tokens: int = 0
    seconds: float = 0.0
    runs: int = 0

    @property
    def size_ratio(self) -> float | None:
        return self.context_tokens / self.original_tokens if self.original_tokens else None

    def add(self, result: RoundResult) -> None:
        self.runs += 1
        self.context_tokens += result.context_tokens
        self.original_tokens += result.original_tokens
        self.seconds += result.seconds
        if not result.pinned_fit:
            self.rules_unfit += 1
        self.over_budget += result.over_budget
        for score in result.scores:
            kind = score.canary.type
            self.by_type[kind].add(score.survived)
            self.overall.add(score.survived)
            self.in_budget.add(score.survived and not result.over_budget)
            if kind in PINNED_TYPES and result.pinned_fit:
                self.rules.add(score.survived)
            if score.canary.stale:
                self.stale.add(score.stale)
            if score.status_accurate is not None:
                self.exec_state.add(score.status_accurate)
            if kind is CanaryType.MODIFIED_FILE:
                self.artifacts.add(score.survived)

    def to_json(self) -> dict[str, Any]:
        return {
            "compactor": self.compactor,
            "budget": self.budget,
            "round": self.round,
            "survival": self.overall.to_json(),
            "survivalInBudget": self.in_budget.to_json(),
            "overBudgetRuns": self.over_budget,
            "byType": {kind.value: tally.to_json() for kind, tally in self.by_type.items()},
            "rules": self.rules.to_json(),
            "rulesUnfitRuns": self.rules_unfit,
            "stale": {"count": self.stale.hit, "total": self.stale.total},
            "execState": self.exec_state.to_json(),
            "artifacts": self.artifacts.to_json(),
            "contextTokens": self.context_tokens,
            "originalTokens": self.original_tokens,
            "sizeRatio": self.size_ratio,
            "seconds": self.seconds,
            "runs": self.runs,
        }


def aggregate(results: Iterable[RoundResult]) -> list[Cell]:
    """One cell per (compactor, budget, round), in the order they first appear."""
    cells: dict[tuple[str, float, int], Cell] = {}
    for result in results:
        key = (result.compactor, result.budget, result.round)
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = Cell(*key)
        cell.add(result)
    return list(cells.values())


def groups(cells: Sequence[Cell]) -> list[tuple[str, float, list[Cell]]]:
    """Cells grouped by (compactor, budget), rounds in order."""
    grouped: dict[tuple[str, float], list[Cell]] = {}
    for cell in cells:
        grouped.setdefault((cell.compactor, cell.budget), []).append(cell)
    return [(c, b, sorted(rows, key=lambda r: r.round)) for (c, b), rows in grouped.items()]


def scenario_json(scenario: Scenario) -> dict[str, Any]:
    return {
        "name": scenario.name,
        "seed": scenario.seed,
        "style": scenario.style,
        "language": scenario.language,
        "messages": len(scenario.messages),
        "tokens": scenario.tokens(),
        "canaries": [canary.to_json() for canary in scenario.canaries],
    }


def run_json(result: RoundResult) -> dict[str, Any]:
    return {
        "scenario": result.scenario.name,
        "compactor": result.compactor,
        "budget": result.budget,
        "round": result.round,
        "originalTokens": result.original_tokens,
        "contextTokens": result.context_tokens,
        "limits": {
            "budgetTokens": result.limits.budget_tokens,
            "keepRecentTokens": result.limits.keep_recent_tokens,
            "summaryTokens": result.limits.summary_tokens,
        },
        "compacted": result.compacted,
        "overBudget": result.over_budget,
        "pinnedFit": result.pinned_fit,
        "seconds": result.seconds,
        "scores": [score.to_json() for score in result.scores],
    }


def report_json(
    results: Sequence[RoundResult], config: dict[str, Any], wall_seconds: float
) -> dict[str, Any]:
    """The whole benchmark as one JSON-ready document."""
    scenarios: dict[str, Scenario] = {}
    for result in results:
        scenarios.setdefault(result.scenario.name, result.scenario)
    return {
        "version": REPORT_VERSION,
        "config": config,
        "wallSeconds": wall_seconds,
        "cells": [cell.to_json() for cell in aggregate(results)],
        "scenarios": [scenario_json(s) for s in scenarios.values()],
        "runs": [run_json(result) for result in results],
    }


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}"


OVER_MARK = "!"
"""Marks a figure from runs of which some went over their budget."""


def flagged(cell: Cell, rate: float | None) -> str:
    """A rate, marked when some of the cell's runs went over their budget."""
    return percent(rate) + (OVER_MARK if cell.over_budget else "")


def group_label(compactor: str, budget: float) -> str:
    return f"{compactor} @ {budget_label(budget)}"
