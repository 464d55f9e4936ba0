"""What an external benchmark's eval figures mean: kept items split by what their labels say.

``synopsis eval --corpus DIR --json`` counts kept items per kind; on LoCoMo every item is
a fact, so that one line hides what matters: an item whose answer the conversation says
in several turns (``repeated``) is kept by whichever of them survives, a fact the
``assistant`` side said may fare otherwise than the ``user``'s, and some share is kept
only because the newest turns stay verbatim. This splits the final round's kept items by
those labels and sets beside them what the verbatim tail alone would keep.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from synopsis.eval.corpus import CONDITIONS, Case, context_text, context_tokens, turn_message
from synopsis.eval.external import CATEGORIES
from synopsis.eval.labels import score_labels

Tally = dict[str, tuple[int, int]]
"""group → (kept, items)."""


def _groups(item: Mapping[str, Any]) -> list[str]:
    tags = [str(t) for t in item.get("tags", ())]
    groups = ["all", "repeated" if "repeated" in tags else "said once"]
    groups.append(f"source {item.get('source', '')}")
    groups.extend(t for t in tags if t in CATEGORIES.values())
    return groups


def kept_by_group(cases: Sequence[Case], report: Mapping[str, Any]) -> dict[str, Tally]:
    """Per condition, the final round's kept / items per label group (see the module)."""
    last: dict[tuple[str, str], tuple[int, set[str]]] = {}
    for row in report.get("cases", ()):
        key = (str(row["case"]), str(row["condition"]))
        if key not in last or int(row["round"]) > last[key][0]:
            last[key] = (int(row["round"]), {str(m) for m in row.get("missing", ())})
    tallies: dict[str, Tally] = {}
    for case_id, condition in last:
        case = next((c for c in cases if c.id == case_id), None)
        if case is None:
            continue
        missing = last[(case_id, condition)][1]
        tally = tallies.setdefault(condition, {})
        for item in case.truth:
            for group in _groups(item):
                kept, items = tally.get(group, (0, 0))
                tally[group] = (kept + (str(item["id"]) not in missing), items + 1)
    return tallies


def tail_kept(case: Case, keep_share: float) -> tuple[int, int]:
    """(kept, items) when the context is only the newest turns within ``keep_share`` of the
    case's tokens — what keeping the tail verbatim gives without any checkpoint."""
    messages = [turn_message(t) for t in case.turns]
    each = [context_tokens([m]) for m in messages]  # turns are counted one by one
    keep = max(1, round(keep_share * sum(each)))
    start, used = len(messages), 0
    while start > 0 and used + each[start - 1] <= keep:
        start -= 1
        used += each[start]
    score = score_labels(context_text(messages[start:]), case.truth, (), ())
    return sum(item.kept for item in score.items), len(score.items)


def tally_lines(cases: Sequence[Case], report: Mapping[str, Any]) -> list[str]:
    """The split as text lines, one per condition and group, then the tail-only baseline."""
    lines = []
    for condition, tally in kept_by_group(cases, report).items():
        for group, (kept, items) in sorted(tally.items(), key=lambda g: (g[0] != "all", g[0])):
            lines.append(f"{condition}\t{group}\t{kept}/{items}")
        share = next((c.keep_share for c in CONDITIONS if c.name == condition), None)
        if share is not None:
            kept = sum(tail_kept(case, share)[0] for case in cases)
            total = sum(len(case.truth) for case in cases)
            lines.append(f"{condition}\tnewest {share:.0%} of turns alone\t{kept}/{total}")
    return lines
