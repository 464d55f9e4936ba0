"""``doctor`` knows Pi 1.6's entries: no false alarms on what Pi writes, alarms on damage.

The entry schema lives in :mod:`synopsis.session.entries`; the loader and the doctor both
read it, so a type the loader knows is a type the doctor checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from synopsis.session.doctor import diagnose, diagnose_bytes
from synopsis.session.entries import ENTRY_FIELDS, KNOWN_ENTRY_TYPES, EntryType

PI16 = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi16"
HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}


def _file(*entries: dict[str, Any]) -> bytes:
    lines = [HEADER]
    parent = None
    for number, fields in enumerate(entries, 1):
        entry = {"id": f"e{number}", "parentId": parent, "timestamp": "t", **fields}
        parent = entry["id"]
        lines.append(entry)
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def _message(role: str, **fields: Any) -> dict[str, Any]:
    return {"type": "message", "message": {"role": role, **fields}}


PI16_FEATURES = _file(
    _message("system", content=None, sections={"preamble": "be brief", "x": None}),
    _message("user", content="read it"),
    _message("assistant", content=None, stopReason="error", errorMessage="overloaded"),
    {"type": "context_edit", "targetId": "e3", "replacement": None},
    _message(
        "assistant", content=[{"type": "toolCall", "id": "c1", "name": "codemode", "arguments": {}}]
    ),
    _message(
        "toolResult",
        toolCallId="c1",
        toolName="codemode",
        content=None,
        nestedCalls={"calls": [{"name": "read", "arguments": {"path": "a.py"}}]},
    ),
    {"type": "context_edit", "targetId": "e6", "replacement": {"content": "[elided]"}},
    {"type": "usage", "kind": "title", "usage": {"input": 0, "output": 0}},
    {"type": "custom_message", "customType": "note", "display": True},
    {
        "type": "compaction",
        "summary": "s",
        "firstKeptEntryId": "e10",  # its own id: retain-none
        "tokensBefore": 10,
        "systemMessage": {"role": "system", "content": "be brief", "timestamp": 1},
    },
)


def test_pi16_entries_raise_no_alarm() -> None:
    report = diagnose_bytes(PI16_FEATURES)
    assert report.problems == [], [f.message for f in report.problems]
    assert report.entries == 10


@pytest.mark.parametrize(
    ("entry", "complaint"),
    [
        ({"type": "context_edit", "replacement": None}, "'targetId' is missing"),
        ({"type": "context_edit", "targetId": "e1"}, "'replacement' is missing"),
        ({"type": "context_edit", "targetId": "e1", "replacement": "x"}, "an object or null"),
        ({"type": "usage", "usage": 3}, "'usage' is int, not an object"),
        (
            {
                "type": "compaction",
                "summary": "s",
                "firstKeptEntryId": "e1",
                "tokensBefore": 1,
                "systemMessage": {"role": "user", "content": "x"},
            },
            "'systemMessage'",
        ),
        (_message("system", content=3), "'content' is int"),
        (_message("system", content="", sections=[]), "'sections' is list"),
    ],
)
def test_damaged_pi16_entries_are_reported(entry: dict[str, Any], complaint: str) -> None:
    report = diagnose_bytes(_file(_message("user", content="hi"), entry))
    messages = [f.message for f in report.problems if f.kind == "invalid-field"]
    assert any(complaint in m for m in messages), messages


def test_the_schema_covers_every_entry_type() -> None:
    assert set(KNOWN_ENTRY_TYPES) == {kind.value for kind in EntryType}
    assert {"context_edit", "usage"} <= KNOWN_ENTRY_TYPES
    # every type but those with no fields of their own has requirements the doctor checks
    assert set(ENTRY_FIELDS) == KNOWN_ENTRY_TYPES - {"message"}


@pytest.mark.skipif(not (PI16 / "sessions").is_dir(), reason="pi16 fixtures are not present")
def test_sessions_pi16_wrote_are_healthy() -> None:
    files = [*sorted((PI16 / "sessions").glob("*.jsonl")), *sorted((PI16 / "edge").glob("*.jsonl"))]
    damaged = {"edge16-crlf-malformed.jsonl"}  # malformed lines on purpose
    for path in files:
        report = diagnose(path)
        assert report.healthy == (path.name not in damaged), (path.name, report.problems)
