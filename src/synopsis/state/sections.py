"""Reading the sections of a checkpoint, whoever wrote it.

The embedded summarizer merges a previous checkpoint by its sections and the guard puts
restored facts into the right one, so both need to find "## Constraints & Preferences"
in text a model wrote — which may say "## Constraints", "**Goal**" or "## 约束". Headings
are classified by keyword, fenced code is never mistaken for a heading, and the trailing
parts compaction appends (the split-turn context, the file lists) are kept apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

SECTION_TITLES = {
    "goal": "Goal",
    "constraints": "Constraints & Preferences",
    "progress": "Progress",
    "done": "Done",
    "in_progress": "In Progress",
    "blocked": "Blocked",
    "failed": "Failed Approaches",
    "decisions": "Key Decisions",
    "next": "Next Steps",
    "critical": "Critical Context",
    "original_request": "Original Request",
    "early_progress": "Early Progress",
    "suffix_context": "Context for Suffix",
    "focus": "Focus",
}
CHECKPOINT_ORDER = ("goal", "constraints", "progress", "decisions", "next", "critical")
PROGRESS_PARTS = ("done", "in_progress", "blocked", "failed")

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_BOLD_HEADING = re.compile(r"^\*\*([^*\n]{1,60}?):?\*\*:?[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
BULLET = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_ENTRY_SUFFIX = re.compile(r"[ \t]*\[entry ([^\]\s]+)\]$")
CONSTRAINT_LABEL = "- Constraint: "
"""How a rule is listed under a split turn's Original Request (there is no rules section)."""
CORRECTED_NOTE = " (corrected by the user: use this value)"
IDENTIFIER_LINE = re.compile(
    r"^- (?P<kind>url|email|commit|id|ticket|issue|sha|color|version|date|amount|port|path|"
    r"value): (?P<value>\S(?:.*?\S)?)(?: — “(?P<context>.*)”)?"
    r"(?: \(corrected by the user: use this value\))?$"
)
"""A value line as the embedded summarizer writes it, so update mode can read it back."""
TAIL_MARKERS = ("\n<read-files>", "\n<modified-files>")
TURN_SPLIT = re.compile(r"\n---\n\n(?=\*\*Turn Context|#{1,6} )")
"""Where a split turn's summary is joined to the history checkpoint."""

_CLASSIFY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("original_request", ("original request", "原始请求")),
    ("early_progress", ("early progress", "早期进展")),
    ("suffix_context", ("context for suffix", "suffix")),
    ("constraints", ("constraint", "preference", "rule", "约束", "偏好", "限制", "规则")),
    ("focus", ("focus", "重点")),
    ("failed", ("failed approach", "tried", "abandoned", "dead end", "失败的尝试", "放弃")),
    ("in_progress", ("in progress", "in-progress", "current task", "ongoing", "进行中")),
    ("blocked", ("blocked", "blocker", "failed", "failure", "阻塞", "受阻", "失败")),
    ("done", ("done", "completed", "finished", "已完成", "完成")),
    ("progress", ("progress", "进展", "进度")),
    ("decisions", ("decision", "决策", "决定")),
    ("next", ("next", "todo", "下一步", "后续")),
    ("critical", ("critical", "context", "key files", "reference", "关键", "上下文")),
    ("goal", ("goal", "objective", "task", "目标", "任务")),
)


_CLASSIFIERS = tuple(
    (
        kind,
        re.compile("|".join(rf"\b{re.escape(w)}" if w.isascii() else re.escape(w) for w in words)),
    )
    for kind, words in _CLASSIFY
)


def classify_heading(title: str) -> str | None:
    """Which checkpoint section a heading names, or None for one we do not know."""
    text = title.strip().strip("*_:：").lower()
    for kind, pattern in _CLASSIFIERS:
        if pattern.search(text):
            return kind
    return None


@dataclass(frozen=True, slots=True)
class Heading:
    line: int
    level: int
    """Markdown level; a bold-only line (``**Goal**``) counts as level 2."""
    title: str
    kind: str | None


def split_tail(text: str) -> tuple[str, str]:
    """(checkpoint text, the file lists compaction appended to it)."""
    cut = len(text)
    for marker in TAIL_MARKERS:
        index = text.find(marker)
        if 0 <= index < cut:
            cut = index
    return text[:cut], text[cut:]


def unfenced(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(index, line) of the lines outside fenced code (the fence lines themselves skipped):
    a ``#`` or a value inside a code block is code, not a heading or a statement."""
    in_fence = False
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            yield index, line


def headings(lines: list[str]) -> list[Heading]:
    """The headings of a checkpoint's lines, skipping fenced code."""
    found: list[Heading] = []
    for index, line in unfenced(lines):
        match = _HEADING.match(line)
        if match:
            title = match.group(2)
            found.append(Heading(index, len(match.group(1)), title, classify_heading(title)))
            continue
        bold = _BOLD_HEADING.match(line)
        if bold:
            title = bold.group(1)
            kind = classify_heading(title)
            if kind is not None:
                found.append(Heading(index, 2 if kind not in PROGRESS_PARTS else 3, title, kind))
    return found


def section_end(lines: list[str], marks: list[Heading], position: int) -> int:
    """The line where the section opened by ``marks[position]`` ends (exclusive)."""
    level = marks[position].level
    for later in marks[position + 1 :]:
        if later.level <= level:
            return later.line
    return len(lines)


def blocks(lines: list[str]) -> list[str]:
    """The items of a section body: bullets with their continuation lines, paragraphs,
    and fenced blocks, each kept verbatim."""
    items: list[str] = []
    current: list[str] = []
    in_fence = False

    def flush() -> None:
        if current:
            items.append("\n".join(current).rstrip())
            current.clear()

    for line in lines:
        if in_fence:
            current.append(line)
            if _FENCE.match(line):
                in_fence = False
            continue
        if _FENCE.match(line):
            if not (current and line[:1] in (" ", "\t")):
                flush()
            current.append(line)
            in_fence = True
            continue
        if not line.strip():
            flush()
            continue
        if BULLET.match(line) and line[:1] not in (" ", "\t"):
            flush()
            current.append(line)
        elif current and (line[:1] in (" ", "\t") or not BULLET.match(current[0])):
            current.append(line)
        else:
            flush()
            current.append(line)
    flush()
    return items


def parse_sections(text: str) -> list[tuple[str | None, str, list[str]]]:
    """(kind, title, items) for each section of a checkpoint body, in order.

    Text before the first heading comes first with kind None and title "". Sub-headings
    that name no section stay inside their parent as an item, so nothing is lost.
    """
    lines = text.split("\n")
    marks = headings(lines)
    result: list[tuple[str | None, str, list[str]]] = []
    start = 0
    title = ""
    kind: str | None = None
    parent_kind: str | None = None
    for mark in marks:
        if mark.kind is None and mark.level >= 3 and parent_kind is not None:
            continue  # an unknown sub-heading: keep it as an item of its parent section
        body = lines[start : mark.line]
        if body or kind is not None:
            result.append((kind, title, blocks(body)))
        kind, title, start = mark.kind, mark.title, mark.line + 1
        if mark.level <= 2:
            parent_kind = mark.kind
    result.append((kind, title, blocks(lines[start:])))
    return [section for section in result if section[1] or section[2]]


def item_text(item: str) -> str:
    """An item without its bullet marker."""
    return BULLET.sub("", item, count=1).strip()


def split_entry_suffix(text: str) -> tuple[str, str | None]:
    """``"rule [entry ab12]"`` → ``("rule", "ab12")``: the form constraints are rendered in."""
    match = _ENTRY_SUFFIX.search(text)
    if match is None:
        return text, None
    return text[: match.start()], match.group(1)
