"""Section accuracy: does each truth item stand in *its own* section of the checkpoint?

The corpus score (:mod:`synopsis.eval.labels`) asks whether an item's tokens are anywhere
in the compacted context. An agent reading a checkpoint needs more: a decision under Key
Decisions, a failure under Blocked or Failed Approaches, the goal under Goal. This module
reads the checkpoint by its headings — with its own word lists, not the parser the
summarizer uses, so the measure cannot agree with the code it measures by construction —
and counts, for the truth items of the turns the checkpoint replaced (items whose turn is
still kept verbatim are left out: the checkpoint need not repeat them):

* per kind (goal, decision, failure, state), the items whose tokens all stand in one of
  the kind's sections (a request is in place under Goal while open and under Done once
  finished: the checkpoint moves finished requests there);
* failures labelled as resolved (tag ``resolved``, or a ``resolved_turn`` among the
  replaced turns: the checkpoint saw the fix) that still stand under Blocked;
* stages whose last request is unfinished (the label ``unfinished`` on the case, else the
  stage ends on a user message, a tool call or a tool result — mid-request by
  construction) while In Progress is empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.eval.labels import contains

SCORED_KINDS = ("goal", "decision", "failure", "state")
TASK_KINDS = ("decision", "failure", "state")
"""The decisions and the task state (what was done, what failed): issue 12's measure."""
SECTIONS_OF: Mapping[str, tuple[str, ...]] = {
    "goal": ("goal", "done"),
    "decision": ("decisions",),
    "failure": ("blocked", "failed", "in_progress", "done"),
    "state": ("done", "in_progress", "blocked", "failed", "next"),
}
"""Where an agent would look for an item of each kind."""

_HEADING_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("failed", ("failed approach", "what failed", "dead end", "失败的尝试")),
    ("in_progress", ("in progress", "in-progress", "ongoing", "进行中")),
    ("done", ("early progress", "done", "completed", "finished", "已完成")),
    ("blocked", ("blocked", "blocker", "受阻", "阻塞")),
    ("decisions", ("decision", "决定", "决策")),
    ("next", ("next step", "todo", "to do", "下一步", "待办")),
    ("goal", ("goal", "original request", "objective", "task", "目标", "任务")),
    ("constraints", ("constraint", "rule", "preference", "约束", "规则")),
    ("critical", ("context", "fact", "value", "背景", "事实")),
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_EMPTY_LINE = re.compile(r"^\s*(?:[-*]\s*)?(?:\(none\)|none|n/a|—|-)?\s*$", re.IGNORECASE)


def heading_kind(title: str) -> str | None:
    """Which section a heading opens (None: a heading that names none of ours)."""
    low = title.lower()
    for kind, words in _HEADING_WORDS:
        if any(word in low for word in words):
            return kind
    return None


def checkpoint_sections(text: str) -> dict[str, str]:
    """The checkpoint's text by section; a heading we cannot name continues the section
    before it (a sub-heading of a part we know)."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            current = heading_kind(heading.group(1)) or current
            continue
        if current is not None:
            found.setdefault(current, []).append(line)
    return {kind: "\n".join(lines) for kind, lines in found.items()}


def is_empty(section: str | None) -> bool:
    return section is None or all(_EMPTY_LINE.match(line) for line in section.splitlines())


def ends_mid_request(turns: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a conversation stops before the assistant's answer to the last request."""
    if not turns:
        return False
    last = turns[-1]
    role = last.get("role")
    return role in ("user", "tool") or (role == "assistant" and bool(last.get("tool_calls")))


def _resolved_by(item: Mapping[str, Any], replaced: frozenset[int]) -> bool:
    """Whether the checkpoint saw the failure resolved: the turn that resolves it is one
    of those it replaced (a fix in the kept messages is read there, verbatim)."""
    turn = item.get("resolved_turn")
    if isinstance(turn, int):
        return turn in replaced
    return "resolved" in item.get("tags", ())


@dataclass(frozen=True, slots=True)
class SectionScore:
    by_kind: dict[str, tuple[int, int]]
    """kind → (items in their own section, items the checkpoint replaced)."""
    missed: tuple[str, ...]
    """Ids of the items not in their own section."""
    resolved_failures: int
    """Failures labelled resolved by the end of the stage, of the replaced turns."""
    resolved_blocked: int
    """Of those, the ones still standing under Blocked."""
    unfinished: bool
    in_progress_empty: bool

    @property
    def empty_while_unfinished(self) -> bool:
        return self.unfinished and self.in_progress_empty


def score_sections(
    summary: str,
    truth: Iterable[Mapping[str, Any]],
    replaced_turns: frozenset[int],
    *,
    end: int,
    unfinished: bool,
) -> SectionScore:
    """Score one checkpoint (see the module docstring). ``replaced_turns``: the turns the
    checkpoint stands for (not in the context verbatim); ``end``: turns seen so far."""
    sections = checkpoint_sections(summary)
    by_kind: dict[str, list[int]] = {}
    missed: list[str] = []
    resolved = resolved_blocked = 0
    for item in truth:
        kind = str(item.get("kind", ""))
        if kind not in SECTIONS_OF or int(item.get("turn", 0)) not in replaced_turns:
            continue
        tokens = [str(t) for t in item.get("tokens", ())]
        where = "\n".join(sections.get(s, "") for s in SECTIONS_OF[kind])
        ok = bool(tokens) and all(contains(where, t) for t in tokens)
        tally = by_kind.setdefault(kind, [0, 0])
        tally[0] += ok
        tally[1] += 1
        if not ok:
            missed.append(str(item.get("id", "")))
        if kind == "failure" and _resolved_by(item, replaced_turns):
            resolved += 1
            blocked = sections.get("blocked", "")
            resolved_blocked += bool(tokens) and all(contains(blocked, t) for t in tokens)
    return SectionScore(
        by_kind={k: (v[0], v[1]) for k, v in by_kind.items()},
        missed=tuple(missed),
        resolved_failures=resolved,
        resolved_blocked=resolved_blocked,
        unfinished=unfinished,
        in_progress_empty=is_empty(sections.get("in_progress")),
    )


@dataclass(frozen=True, slots=True)
class SectionTotals:
    by_kind: dict[str, tuple[int, int]]
    resolved_failures: int
    resolved_blocked: int
    unfinished: int
    empty_while_unfinished: int
    checkpoints: int

    @property
    def hit(self) -> int:
        return sum(h for h, _ in self.by_kind.values())

    @property
    def total(self) -> int:
        return sum(t for _, t in self.by_kind.values())

    @property
    def task(self) -> tuple[int, int]:
        """(in their own section, items) over the decision and task-state kinds."""
        pairs = [self.by_kind.get(k, (0, 0)) for k in TASK_KINDS]
        return sum(h for h, _ in pairs), sum(t for _, t in pairs)

    def to_json(self) -> dict[str, Any]:
        return {
            "inOwnSection": self.hit,
            "items": self.total,
            "decisionsAndTaskState": {"inOwnSection": self.task[0], "items": self.task[1]},
            "byKind": {k: {"inOwnSection": h, "items": t} for k, (h, t) in self.by_kind.items()},
            "resolvedFailures": self.resolved_failures,
            "resolvedListedAsBlocked": self.resolved_blocked,
            "unfinished": self.unfinished,
            "inProgressEmptyWhileUnfinished": self.empty_while_unfinished,
            "checkpoints": self.checkpoints,
        }


def sum_scores(scores: Iterable[SectionScore]) -> SectionTotals:
    by_kind: dict[str, list[int]] = {k: [0, 0] for k in SCORED_KINDS}
    resolved = blocked = unfinished = empty = count = 0
    for score in scores:
        count += 1
        for kind, (hit, total) in score.by_kind.items():
            by_kind[kind][0] += hit
            by_kind[kind][1] += total
        resolved += score.resolved_failures
        blocked += score.resolved_blocked
        unfinished += score.unfinished
        empty += score.empty_while_unfinished
    return SectionTotals(
        {k: (v[0], v[1]) for k, v in by_kind.items()}, resolved, blocked, unfinished, empty, count
    )
