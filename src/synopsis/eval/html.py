"""A self-contained HTML report: survival-by-round charts (inline SVG) and the tables.

No scripts and nothing fetched from the network: the file opens anywhere, offline, and
can be attached to an issue as it is. Every text that comes from data is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from synopsis.eval.canaries import CANARY_TYPES
from synopsis.eval.corpus import StageResult
from synopsis.eval.corpus_report import final_results, section_totals
from synopsis.eval.report import Cell, flagged, groups, percent
from synopsis.eval.runner import RoundResult, budget_label

PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
DASHES = ("", "7 4", "2 3", "10 3 2 3")
"""Each series gets its own dash pattern (and later ones a thinner line), so series with
the same figures stay visible on top of each other."""
_W, _H = 420, 260
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 16, 28, 36

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}
th:first-child,td:first-child,td.l{text-align:left}
tr.overall td{font-weight:600;background:#f6f6f6}
.charts{display:flex;flex-wrap:wrap;gap:1rem}
.note{color:#555;font-size:.85rem;max-width:60rem}
details.case{border:1px solid #ddd;border-radius:4px;margin:.4rem 0;padding:.3rem .6rem}
details.case summary{cursor:pointer;font-weight:600}
.over{color:#b00020;font-weight:600}
ul.lost{font-size:.85rem;margin:.3rem 0}
pre.checkpoint{white-space:pre-wrap;background:#f7f7f7;border:1px solid #e3e3e3;padding:.5rem;
font-size:.8rem;max-height:40rem;overflow:auto}
"""


def _x(index: int, count: int) -> float:
    span = _W - _LEFT - _RIGHT
    return _LEFT + (span * index / (count - 1) if count > 1 else span / 2)


def _y(rate: float) -> float:
    return _TOP + (_H - _TOP - _BOTTOM) * (1 - rate)


def survival_chart(title: str, series: Sequence[tuple[str, Sequence[float | None]]]) -> str:
    """An SVG line chart: x = round, y = survival (0–100%), one line per series."""
    rounds = max((len(values) for _, values in series), default=0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H + 20 * len(series)}"'
        f' role="img" aria-label="{escape(title)}">',
        f'<text x="{_W / 2}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        y = _y(tick)
        parts.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_W - _RIGHT}" y2="{y:.1f}" stroke="#e5e5e5"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="10">'
            f"{tick * 100:.0f}%</text>"
        )
    for index in range(rounds):
        parts.append(
            f'<text x="{_x(index, rounds):.1f}" y="{_H - _BOTTOM + 16}" text-anchor="middle"'
            f' font-size="10">R{index + 1}</text>'
        )
    for number, (name, values) in enumerate(series):
        color = PALETTE[number % len(PALETTE)]
        dash = DASHES[number % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        width = max(1.5, 3.5 - number)
        points = [(_x(i, rounds), _y(v)) for i, v in enumerate(values) if v is not None]
        if points:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{color}"'
                f' stroke-width="{width:g}"{style}/>'
            )
            parts.extend(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>' for x, y in points
            )
        legend_y = _H + 20 * number
        parts.append(
            f'<line x1="{_LEFT}" y1="{legend_y - 3}" x2="{_LEFT + 22}" y2="{legend_y - 3}"'
            f' stroke="{color}" stroke-width="{width:g}"{style}/>'
            f'<text x="{_LEFT + 28}" y="{legend_y + 1}" font-size="11">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _charts(cells: Sequence[Cell]) -> str:
    budgets: dict[float, list[tuple[str, list[float | None]]]] = {}
    rules: dict[float, list[tuple[str, list[float | None]]]] = {}
    for compactor, budget, rows in groups(cells):
        budgets.setdefault(budget, []).append((compactor, [c.overall.rate for c in rows]))
        rules.setdefault(budget, []).append((compactor, [c.rules.rate for c in rows]))
    charts = [
        survival_chart(f"All canaries, budget {budget_label(b)}", series)
        for b, series in budgets.items()
    ]
    charts += [
        survival_chart(f"Safety rules + constraints, budget {budget_label(b)}", series)
        for b, series in rules.items()
    ]
    return '<div class="charts">' + "".join(charts) + "</div>"


def _survival_table(cells: Sequence[Cell]) -> str:
    rounds = sorted({cell.round for cell in cells})
    head = "".join(f"<th>R{n}</th>" for n in rounds)
    rows = [f"<tr><th>Compactor</th><th>Budget</th><th>Type</th>{head}</tr>"]
    for compactor, budget, group in groups(cells):
        by_round = {cell.round: cell for cell in group}
        label = f'<td class="l">{escape(compactor)}</td><td class="l">{budget_label(budget)}</td>'
        for kind in CANARY_TYPES:
            if not any(cell.by_type[kind].total for cell in group):
                continue
            values = "".join(
                f"<td>{percent(by_round[n].by_type[kind].rate) if n in by_round else ''}</td>"
                for n in rounds
            )
            rows.append(f'<tr>{label}<td class="l">{kind.value}</td>{values}</tr>')
        overall = "".join(
            f"<td>{percent(by_round[n].overall.rate) if n in by_round else ''}</td>" for n in rounds
        )
        rows.append(f'<tr class="overall">{label}<td class="l">overall</td>{overall}</tr>')
    return "<table>" + "".join(rows) + "</table>"


_OVER_CLASS = ' class="over"'


def _metrics_table(cells: Sequence[Cell]) -> str:
    header = (
        "<tr><th>Compactor</th><th>Budget</th><th>Round</th><th>Survival %</th>"
        "<th>Fit survival %</th><th>Over budget</th><th>Rules kept %</th><th>Stale</th>"
        "<th>Exec state %</th><th>Artifacts %</th>"
        "<th>Size %</th><th>Context tokens</th><th>Original tokens</th></tr>"
    )
    rows = [header]
    for cell in cells:
        rows.append(
            f'<tr><td class="l">{escape(cell.compactor)}</td>'
            f'<td class="l">{budget_label(cell.budget)}</td><td>{cell.round}</td>'
            f"<td>{flagged(cell, cell.overall.rate)}</td><td>{percent(cell.in_budget.rate)}</td>"
            f"<td{_OVER_CLASS if cell.over_budget else ''}>{cell.over_budget}/{cell.runs}</td>"
            f"<td>{percent(cell.rules.rate)}</td>"
            f"<td>{cell.stale.hit}/{cell.stale.total}</td>"
            f"<td>{percent(cell.exec_state.rate)}</td><td>{percent(cell.artifacts.rate)}</td>"
            f"<td>{percent(cell.size_ratio)}</td><td>{cell.context_tokens}</td>"
            f"<td>{cell.original_tokens}</td></tr>"
        )
    return "<table>" + "".join(rows) + "</table>"


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_value(item) for item in value)
    if isinstance(value, float):
        return budget_label(value) if 0 < value <= 1 else f"{value:g}"
    return str(value)


def case_html(title: str, note: str, over: bool, lost: Sequence[str], checkpoint: str) -> str:
    """One case as a collapsible block: what it lost and the checkpoint text, escaped."""
    flag = ' <span class="over">over budget</span>' if over else ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lost) or "<li>nothing</li>"
    text = escape(checkpoint) if checkpoint else "(no checkpoint: nothing was summarized)"
    return (
        f'<details class="case"><summary>{escape(title)} — {len(lost)} lost{flag}</summary>'
        f'<p class="note">{escape(note)}</p><p>Lost:</p><ul class="lost">{items}</ul>'
        f'<p>Checkpoint:</p><pre class="checkpoint">{text}</pre></details>'
    )


def _scenario_cases(results: Sequence[RoundResult]) -> str:
    last: dict[tuple[str, str, float], RoundResult] = {}
    for result in results:
        last[(result.scenario.name, result.compactor, result.budget)] = result
    blocks = []
    for (scenario, compactor, budget), result in last.items():
        lost = [
            f"{score.canary.type.value} {score.canary.id}: {score.canary.text}"
            + (f" (missing: {', '.join(score.missing)})" if score.missing else "")
            for score in result.scores
            if not score.survived
        ]
        note = (
            f"round {result.round}: {result.context_tokens} context tokens for a budget of "
            f"{result.limits.budget_tokens} (of {result.original_tokens} uncompacted)"
        )
        title = f"{scenario} · {compactor} @ {budget_label(budget)}"
        blocks.append(case_html(title, note, result.over_budget, lost, result.checkpoint))
    return "".join(blocks)


def render_html(
    cells: Sequence[Cell],
    config: dict[str, Any],
    wall_seconds: float,
    results: Sequence[RoundResult] = (),
) -> str:
    """The report as one HTML document; with ``results``, one block per scenario,
    compactor and budget after the last round: the canaries lost and the checkpoint."""
    return (
        _head("synopsis eval — compaction fidelity", "Compaction fidelity benchmark")
        + f'<p class="note">{_settings(config)}. Wall time {wall_seconds:.1f} s.</p>'
        '<p class="note">A canary survives when every required token is in the context after '
        "compaction. Rules kept: safety rules and hard constraints, in runs whose budget can "
        "hold them. Stale: replaced values still stated as current. Exec state: mentions of "
        "tool events whose claimed status (done / pending / blocked) matches the events. "
        "Size: context tokens after compaction / tokens of the uncompacted history. "
        "Over budget: runs whose context exceeded the budget; their figures carry a “!” and "
        "Fit survival counts nothing they kept.</p>"
        "<h2>Survival by round</h2>"
        f"{_charts(cells)}"
        "<h2>Survival by type and round (%)</h2>"
        f"{_survival_table(cells)}"
        "<h2>All metrics</h2>"
        f"{_metrics_table(cells)}"
        + ("<h2>Per case, after the last round</h2>" + _scenario_cases(results) if results else "")
        + "</body></html>\n"
    )


def _head(title: str, heading: str) -> str:
    """The document up to its first heading: both reports share the page and its style."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(heading)}</h1>"
    )


def _settings(config: dict[str, Any]) -> str:
    return ", ".join(f"{escape(key)}: {escape(_value(value))}" for key, value in config.items())


def render_corpus_html(results: Sequence[StageResult], config: dict[str, Any]) -> str:
    """``eval --corpus --html``: the totals, then one block per case and condition after its
    last stage — the truth items lost, those not in their own section, the checkpoint."""
    rows = ["<tr><th>Condition</th><th>Kept</th><th>In own section</th><th>Over budget</th></tr>"]
    final = final_results(results)
    sections = section_totals(results)
    for condition, totals in sections.items():
        group = [r for r in final if r.condition == condition]
        items = [i for r in group for i in r.score.items]
        kept = sum(i.kept for i in items)
        over = sum(r.over_budget for r in group)
        rows.append(
            f'<tr><td class="l">{escape(condition)}</td><td>{kept}/{len(items)}</td>'
            f"<td>{totals.hit}/{totals.total}</td>"
            f"<td{_OVER_CLASS if over else ''}>{over}/{len(group)}</td></tr>"
        )
    blocks = []
    for result in final:
        truth = {str(t.get("id", "")): t for t in result.case.truth}
        lost = [
            f"{i.kind} {i.id}: {' · '.join(map(str, truth[i.id].get('tokens', ())))}"
            f" (missing: {', '.join(i.missing)})"
            for i in result.score.items
            if not i.kept
        ]
        if result.sections is not None:
            lost += [
                f"{truth[m].get('kind')} {m}: not in its own section of the checkpoint"
                for m in result.sections.missed
                if m in truth and all(i.kept for i in result.score.items if i.id == m)
            ]
        budget = f" for a budget of {result.budget_tokens}" if result.budget_tokens else ""
        note = (
            f"{result.condition}, stage {result.round} ({result.end} turns seen): "
            f"{result.context_tokens} context tokens{budget}, checkpoint "
            f"{result.summary_tokens} tokens"
        )
        title = f"{result.case.id} · {result.condition}"
        blocks.append(case_html(title, note, result.over_budget, lost, result.summary))
    return (
        _head("synopsis eval --corpus", "Labelled corpus")
        + f'<p class="note">{_settings(config)}</p>'
        '<p class="note">Kept: truth items whose tokens are all in the final context. In own '
        "section: items of the turns the checkpoint replaced that stand in their own section "
        "(decision under Key Decisions, failure under Blocked or Failed Approaches, …).</p>"
        f"<table>{''.join(rows)}</table>"
        "<h2>Per case, after the last stage</h2>"
        f"{''.join(blocks)}</body></html>\n"
    )
