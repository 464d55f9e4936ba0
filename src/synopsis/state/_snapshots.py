"""A summary a harness left in a user turn, read as the checkpoint it is.

Gemini CLI's ``/compress`` replaces the history with one user-role message that holds a
``<state_snapshot>``: an XML summary (overall goal, active constraints, key knowledge,
task state …) the model wrote. The user typed none of it, so it is no request, rule or
fact of theirs; it is a previous summary, and is read as one — its sections as the
checkpoint sections they correspond to, its items with the trust of a summary.
"""

from __future__ import annotations

import html
import re

from synopsis.state._patterns import lower_same
from synopsis.state.sections import SECTION_TITLES, classify_heading
from synopsis.state.statements import is_rule

_SNAPSHOT = re.compile(r"<state_snapshot>\s*(.*?)\s*</state_snapshot>", re.DOTALL)
_PART = re.compile(r"<([a-z][a-z0-9_]*)>(.*?)</\1>", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_STEP_MARK = re.compile(r"^(?:[-*]|\d{1,3}[.)])?\s*\[(DONE|IN PROGRESS|TODO|PENDING)\]\s*", re.I)

_PART_SECTIONS = {
    "overall_goal": "goal",
    "active_constraints": "constraints",
    "key_knowledge": "critical",
    "file_system_state": "critical",
    "artifact_trail": "done",
    "recent_actions": "done",
    "task_state": "in_progress",
}
"""Where each part of a Gemini CLI snapshot stands in a checkpoint; a part of another name
goes where its words say (``classify_heading``), else to Critical Context."""
_STEP_SECTIONS = {"done": "done", "in progress": "in_progress", "todo": "next", "pending": "next"}
"""A step of the task state goes by its mark ("[DONE] …", "[TODO] …")."""
_ORDER = ("goal", "constraints", "done", "in_progress", "next", "critical")
_PROGRESS_PARTS = ("done", "in_progress")
_PROGRESS_HEADINGS = tuple(f"### {SECTION_TITLES[part]}" for part in _PROGRESS_PARTS)


def split_snapshot(text: str) -> tuple[str, str] | None:
    """(the snapshot in ``text`` as checkpoint text, what the message says besides it),
    or None when ``text`` holds no snapshot."""
    found = _SNAPSHOT.search(text)
    if found is None:
        return None
    rest = (text[: found.start()] + text[found.end() :]).strip()
    return snapshot_checkpoint(found.group(1)), rest


def snapshot_checkpoint(body: str) -> str:
    """A snapshot's parts as the sections of a checkpoint, each item verbatim."""
    sections: dict[str, list[str]] = {}
    for part in _PART.finditer(_COMMENT.sub("", body)):
        tag, content = part.group(1), html.unescape(part.group(2))
        section = _PART_SECTIONS.get(tag) or classify_heading(tag.replace("_", " "))
        section = section if section in _ORDER else "critical"
        for item in _items(content):
            mark = _STEP_MARK.match(item) if tag == "task_state" else None
            where = _STEP_SECTIONS[mark.group(1).lower()] if mark else section
            if where == "constraints" and not is_rule(lower_same(item)):
                where = "critical"  # a state of the work ("Fixed at 7 seconds"), which may change
            sections.setdefault(where, []).append(f"- {item[mark.end() :] if mark else item}")
    lines: list[str] = []
    for section in _ORDER:
        if section not in sections:
            continue
        if section in _PROGRESS_PARTS:
            if not any(part in lines for part in _PROGRESS_HEADINGS):
                lines.append(f"## {SECTION_TITLES['progress']}")
            lines.append(f"### {SECTION_TITLES[section]}")
        else:
            lines.append(f"## {SECTION_TITLES[section]}")
        lines += [*sections[section], ""]
    return "\n".join(lines).strip() + "\n"


def _items(content: str) -> list[str]:
    """A part's items: its bullet or numbered lines, else its text as one item."""
    lines = [line.strip() for line in content.strip().split("\n") if line.strip()]
    listed = [re.sub(r"^[-*]\s+", "", line) for line in lines]
    if len(lines) > 1 or (lines and lines[0][:1] in "-*"):
        return listed
    return [" ".join(lines)] if lines else []
