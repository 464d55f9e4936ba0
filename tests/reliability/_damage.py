"""Damaged sessions with known defects, for checking that `synopsis doctor` finds each one.

A :class:`Draft` is a healthy session file as a list of lines. Each ``plant_*`` function
damages it in one way and records the finding the doctor must report: its kind, the line
(tracked by identity, so later insertions do not confuse it) and the entry id. Every
defect is planted so that it causes no other finding on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from tests.reliability._sessions import build_session


@dataclass(eq=False)
class Line:
    """One line of the draft; compared by identity, so equal lines stay distinct."""

    data: bytes


@dataclass(frozen=True)
class Expected:
    kind: str
    line: Line | None
    entry_id: str | None


@dataclass
class Draft:
    lines: list[Line]
    expected: list[Expected] = field(default_factory=list)
    unterminated: bool = False
    """The last line gets no newline."""

    @classmethod
    def healthy(cls) -> Draft:
        session = build_session(3, compact_after=1, branch=True)
        values = [session.header, *session.entries]
        return cls([Line(orjson.dumps(value)) for value in values])

    def to_bytes(self) -> bytes:
        data = b"\n".join(line.data for line in self.lines)
        return data if self.unterminated else data + b"\n"

    def line_number(self, line: Line) -> int:
        return next(n for n, candidate in enumerate(self.lines, 1) if candidate is line)

    def entries(self) -> list[tuple[Line, dict[str, Any]]]:
        found = []
        for line in self.lines:
            try:
                value = orjson.loads(line.data)
            except orjson.JSONDecodeError:
                continue
            if isinstance(value, dict) and value.get("type") != "session":
                found.append((line, value))
        return found

    def find(self, test: Callable[[dict[str, Any]], bool]) -> tuple[Line, dict[str, Any]]:
        return next((line, value) for line, value in self.entries() if test(value))

    def rewrite(self, line: Line, value: dict[str, Any]) -> None:
        line.data = orjson.dumps(value)

    def insert_before_last(self, data: bytes) -> Line:
        line = Line(data)
        self.lines.insert(len(self.lines) - 1, line)
        return line

    def expect(self, kind: str, line: Line | None, entry_id: str | None = None) -> None:
        self.expected.append(Expected(kind, line, entry_id))


def _message_role(role: str) -> Callable[[dict[str, Any]], bool]:
    return lambda value: value.get("type") == "message" and value["message"]["role"] == role


def plant_missing_header(draft: Draft) -> None:
    del draft.lines[0]
    draft.expect("missing-header", draft.lines[0])


def plant_invalid_header(draft: Draft) -> None:
    header = orjson.loads(draft.lines[0].data)
    header["cwd"] = 5
    draft.lines[0].data = orjson.dumps(header)
    draft.expect("invalid-header", draft.lines[0])


def plant_unparsable_line(draft: Draft) -> None:
    line = draft.insert_before_last(b'{"type":"message","id":"half-writ')
    draft.expect("unparsable-line", line)


def plant_torn_line(draft: Draft) -> None:
    line = Line(b'{"type":"message","id":"torn","parentId":null,"message":{"role":"us')
    draft.lines.append(line)
    draft.unterminated = True
    draft.expect("torn-line", line)


def plant_invalid_entry(draft: Draft) -> None:
    line = draft.insert_before_last(
        b'{"type":"message","id":"no-message","parentId":null,"message":[]}'
    )
    draft.expect("invalid-entry", line)


def plant_stray_header(draft: Draft) -> None:
    line = draft.insert_before_last(draft.lines[0].data.replace(b'"0badc0de', b'"0ddba11'))
    draft.expect("stray-header", line, "0ddba11-0000-4000-8000-000000000000")


def plant_invalid_field(draft: Draft) -> None:
    line, value = draft.find(lambda v: v.get("type") == "compaction")
    value["tokensBefore"] = "lots"
    draft.rewrite(line, value)
    draft.expect("invalid-field", line, value["id"])


def plant_duplicate_id(draft: Draft) -> None:
    original, value = draft.find(_message_role("bashExecution"))
    copy = draft.insert_before_last(original.data)
    draft.expect("duplicate-id", copy, value["id"])


def plant_orphan_parent(draft: Draft) -> None:
    line, value = draft.find(lambda v: v.get("type") == "session_info")
    value["parentId"] = "ghost-parent"
    draft.rewrite(line, value)
    draft.expect("orphan-parent", line, value["id"])


def plant_parent_cycle(draft: Draft) -> None:
    first = draft.insert_before_last(
        b'{"type":"custom","id":"loop-a","parentId":"loop-b","timestamp":"2025-01-01T00:00:00Z",'
        b'"customType":"x"}'
    )
    draft.insert_before_last(
        b'{"type":"custom","id":"loop-b","parentId":"loop-a","timestamp":"2025-01-01T00:00:00Z",'
        b'"customType":"x"}'
    )
    draft.expect("parent-cycle", first, "loop-a")


def plant_missing_first_kept(draft: Draft) -> None:
    line, value = draft.find(lambda v: v.get("type") == "compaction")
    value["firstKeptEntryId"] = "vanished"
    draft.rewrite(line, value)
    draft.expect("missing-first-kept", line, value["id"])


def plant_first_kept_off_path(draft: Draft) -> None:
    line, value = draft.find(lambda v: v.get("type") == "compaction")
    _, other = draft.find(lambda v: v.get("type") == "branch_summary")  # another branch
    value["firstKeptEntryId"] = other["id"]
    draft.rewrite(line, value)
    draft.expect("first-kept-off-path", line, value["id"])


def plant_orphan_tool_result(draft: Draft) -> None:
    line, value = draft.find(_message_role("toolResult"))
    value["message"]["toolCallId"] = "call-nobody-made"
    draft.rewrite(line, value)
    draft.expect("orphan-tool-result", line, value["id"])


PLANTERS: dict[str, Callable[[Draft], None]] = {
    "missing-header": plant_missing_header,
    "invalid-header": plant_invalid_header,
    "unparsable-line": plant_unparsable_line,
    "torn-line": plant_torn_line,
    "invalid-entry": plant_invalid_entry,
    "stray-header": plant_stray_header,
    "invalid-field": plant_invalid_field,
    "duplicate-id": plant_duplicate_id,
    "orphan-parent": plant_orphan_parent,
    "parent-cycle": plant_parent_cycle,
    "missing-first-kept": plant_missing_first_kept,
    "first-kept-off-path": plant_first_kept_off_path,
    "orphan-tool-result": plant_orphan_tool_result,
}


def plant_everything(draft: Draft) -> None:
    """Every defect in one file (a second compaction carries the missing first kept entry)."""
    for kind, planter in PLANTERS.items():
        if kind not in ("missing-header", "invalid-header", "missing-first-kept", "torn-line"):
            planter(draft)
    plant_missing_first_kept_on_a_copy(draft)
    plant_torn_line(draft)
    plant_missing_header(draft)


def all_defects() -> Draft:
    draft = Draft.healthy()
    plant_everything(draft)
    return draft


def plant_missing_first_kept_on_a_copy(draft: Draft) -> None:
    """A second compaction (a child of the first) whose first kept entry is gone."""
    _, first = draft.find(lambda v: v.get("type") == "compaction")
    value = {**first, "id": "second-compaction", "parentId": first["id"]}
    value["firstKeptEntryId"] = "vanished"
    value["tokensBefore"] = 1
    line = draft.insert_before_last(orjson.dumps(value))
    draft.expect("missing-first-kept", line, "second-compaction")
    # Appended on an entry that already had children: what a stale writer leaves.
    draft.expect("off-path-entries", line, "second-compaction")
