"""Hostile input, case by case: each gives a loaded session with a clear report, or a clear
error; never another exception, a hang, unbounded memory or a write to the input file.
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path
from typing import Any

import orjson
import pytest

from synopsis.errors import SessionFormatError, SynopsisError
from synopsis.session import open_session, parse_session, read_session_file
from synopsis.session.jsonl import MAX_NESTING, dump_line
from tests.reliability._exercise import exercise_file
from tests.reliability._sessions import session_bytes

HEADER = b'{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}\n'
USER = (
    b'{"type":"message","id":"u1","parentId":null,"timestamp":"2025-01-01T00:00:01Z",'
    b'"message":{"role":"user","content":"hello"}}\n'
)


def _message(content: bytes, role: bytes = b"user") -> bytes:
    return (
        b'{"type":"message","id":"x1","parentId":"u1","timestamp":"2025-01-01T00:00:02Z",'
        b'"message":{"role":"' + role + b'","content":' + content + b"}}\n"
    )


def _entry(fields: bytes) -> bytes:
    return b'{"id":"x1","parentId":"u1","timestamp":"2025-01-01T00:00:02Z",' + fields + b"}\n"


def _deep(depth: int, inner: bytes = b"") -> bytes:
    return b"[" * depth + inner + b"]" * depth


LOADS: dict[str, bytes] = {
    "invalid UTF-8 in a string": _message(b'"caf\xe9 \xff\xfe"'),
    "UTF-8-encoded surrogate": _message(b'"\xed\xa0\x80"'),
    "lone high surrogate": _message(b'"broken \\ud83d emoji"'),
    "lone low surrogate in a key": _message(b'[{"type":"text","text":"a","\\udc00":1}]'),
    "1e999 (JavaScript: Infinity)": _entry(b'"type":"custom","customType":"c","data":1e999'),
    "integer beyond 64 bits": _entry(b'"type":"custom","customType":"c","data":1' + b"0" * 30),
    "content is a number": _message(b"5"),
    "content is null": _message(b"null"),
    "content blocks of every type": _message(b'[5,"s",null,[],{"type":{}},{"text":1}]'),
    "assistant content is a string": _message(b'"text"', b"assistant"),
    "tool call with bad fields": _message(
        b'[{"type":"toolCall","id":[],"name":{},"arguments":[]}]', b"assistant"
    ),
    "tool result content is a number": _message(b"7", b"toolResult"),
    "usage of the wrong type": _entry(
        b'"type":"message","message":{"role":"assistant","content":[],"usage":"lots"}'
    ),
    "compaction with wrong types": _entry(
        b'"type":"compaction","summary":5,"firstKeptEntryId":5,"tokensBefore":"x","details":[]'
    ),
    "compaction without fields": _entry(b'"type":"compaction"'),
    "branch summary with wrong types": _entry(b'"type":"branch_summary","summary":[],"fromId":5'),
    "custom message with wrong types": _entry(
        b'"type":"custom_message","customType":5,"content":{},"display":"yes"'
    ),
    "label with wrong types": _entry(b'"type":"label","targetId":5,"label":7'),
    "model change with wrong types": _entry(b'"type":"model_change","provider":[],"modelId":{}'),
    "thinking level change with a number": _entry(
        b'"type":"thinking_level_change","thinkingLevel":5'
    ),
    "session info with a number": _entry(b'"type":"session_info","name":5'),
    "timestamp of the wrong type": _entry(b'"type":"custom","customType":"c","timestamp":[1]'),
    "unknown entry type": _entry(b'"type":"from-the-future","payload":{"a":[1,2]}'),
    "missing parentId": b'{"type":"custom","id":"x1","customType":"c"}\n',
    "nesting at the limit": _entry(
        b'"type":"custom","customType":"c","data":' + _deep(MAX_NESTING - 1)
    ),
    "tool call arguments nested deep": _message(
        b'[{"type":"toolCall","id":"c","name":"n","arguments":{"a":'
        + _deep(MAX_NESTING - 6)
        + b"}}]",
        b"assistant",
    ),
}

SKIPPED: dict[str, tuple[bytes, str]] = {
    "NaN": (_entry(b'"type":"custom","customType":"c","data":NaN'), "not valid JSON"),
    "Infinity": (_entry(b'"type":"custom","customType":"c","data":Infinity'), "not valid JSON"),
    "-Infinity": (_entry(b'"type":"custom","customType":"c","data":-Infinity'), "not valid JSON"),
    "invalid UTF-8 outside strings": (b"\xff" + USER, "not valid JSON"),
    "control bytes": (b"\x00\x01\x02\n", "not valid JSON"),
    "truncated line": (USER[:40] + b"\n", "not valid JSON"),
    "100k nested arrays": (_deep(100_000) + b"\n", "nested deeper"),
    "100k unclosed arrays": (b"[" * 100_000 + b"\n", "nested deeper"),
    "100k nested arrays in content": (_message(_deep(100_000)), "nested deeper"),
    "deep nesting with a lone surrogate": (
        _message(b'["\\ud800",' + _deep(100_000) + b"]"),
        "nested deeper",
    ),
    "nesting one past the limit": (
        _entry(b'"type":"custom","customType":"c","data":' + _deep(MAX_NESTING)),
        "nested deeper",
    ),
    "message is a list": (_entry(b'"type":"message","message":[]'), "message"),
    "message without role": (_entry(b'"type":"message","message":{"content":"x"}'), "role"),
    "role is a number": (_entry(b'"type":"message","message":{"role":5}'), "role"),
    "parentId is a number": (
        b'{"type":"custom","id":"x1","parentId":7,"customType":"c"}\n',
        "parentId",
    ),
    "id is a number": (b'{"type":"custom","id":7,"parentId":null}\n', "'id'"),
    "id missing": (b'{"type":"custom","parentId":null}\n', "'id'"),
    "type is a number": (b'{"type":7,"id":"x1","parentId":null}\n', "'type'"),
    "type missing": (b'{"id":"x1","parentId":null}\n', "'type'"),
    "entry is a list": (b'[{"type":"custom","id":"x1"}]\n', "JSON object"),
    "entry is a string": (b'"entry"\n', "JSON object"),
    "entry is null": (b"null\n", "JSON object"),
    "huge integer": (_entry(b'"type":"custom","customType":"c","data":' + b"9" * 5000), "JSON"),
}


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(data)
    return path


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", LOADS)
def test_odd_but_readable_entries_load_and_work(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER + USER + LOADS[name])
    sessions = exercise_file(path)
    assert sessions, "the file should open"
    session = sessions[0]
    assert session.skipped == []
    assert "x1" in session
    # What loaded can be written back and read again.
    again = parse_session(session.to_bytes(), strict=True)
    assert [e["id"] for e in again.entries] == ["u1", "x1"]
    for entry in session.entries:
        dump_line(entry)


def test_invalid_utf8_becomes_replacement_characters(tmp_path: Path) -> None:
    session = open_session(_write(tmp_path, HEADER + USER + LOADS["invalid UTF-8 in a string"]))
    assert session.require_entry("x1")["message"]["content"] == "caf\ufffd \ufffd\ufffd"


def test_lone_surrogate_survives_a_round_trip(tmp_path: Path) -> None:
    data = HEADER + USER + LOADS["lone high surrogate"]
    session = open_session(_write(tmp_path, data))
    assert session.require_entry("x1")["message"]["content"] == "broken \ud83d emoji"
    assert session.to_bytes() == data


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", SKIPPED)
def test_unreadable_entries_are_skipped_with_a_reason(name: str, tmp_path: Path) -> None:
    line, reason = SKIPPED[name]
    path = _write(tmp_path, HEADER + USER + line + USER.replace(b'"u1"', b'"u2"', 1))
    sessions = exercise_file(path)
    assert sessions
    session = sessions[0]
    assert [s.line for s in session.skipped] == [3]
    assert reason in session.skipped[0].reason
    assert [e["id"] for e in session.entries] == ["u1", "u2"]
    with pytest.raises(SessionFormatError) as error:
        open_session(path, strict=True)
    assert f"{path}:3:" in str(error.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n\n  \n",
        b"not a session\n",
        b'{"type":"session","id":5}\n' + USER,
        USER,
        b'{"type":"session","version":3}\n',
        _deep(100_000) + b"\n" + HEADER + USER,
        b"\xef\xbb\xbf\xef\xbb\xbf" + HEADER,
    ],
    ids=[
        "empty",
        "blank",
        "text",
        "header-id-number",
        "no-header",
        "header-no-id",
        "deep-first",
        "double-bom",
    ],
)
def test_files_without_a_usable_header_fail_clearly_or_load_empty(
    data: bytes, tmp_path: Path
) -> None:
    path = _write(tmp_path, data)
    exercise_file(path)
    try:
        session = open_session(path)
    except SynopsisError:
        return
    # A file whose first JSON line is a header loads even after junk lines.
    assert session.header_valid or not data.strip()


def test_header_with_a_string_version_still_loads(tmp_path: Path) -> None:
    """Loaders read a non-integer version as version 1 (and migrate); doctor flags it."""
    path = _write(tmp_path, HEADER.replace(b'"version":3', b'"version":"3"') + USER)
    exercise_file(path)
    assert len(open_session(path).entries) == 1


@pytest.mark.timeout(60)
def test_not_a_regular_file_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path, Path("/dev/zero")):
        with pytest.raises(SessionFormatError):
            open_session(target)
        with pytest.raises(SessionFormatError):
            read_session_file(target)


@pytest.mark.timeout(120)
def test_an_enormous_line_loads_with_bounded_memory(tmp_path: Path) -> None:
    size = 40_000_000
    text = b"A" * size
    path = _write(tmp_path, HEADER + USER + _message(b'"' + text + b'"'))
    tracemalloc.start()
    try:
        session = open_session(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(session.require_entry("x1")["message"]["content"]) == size
    # Beyond the file's own bytes: the decoded text and the parsed string, no more.
    beyond = peak - path.stat().st_size
    assert beyond < 2.5 * size, f"{beyond / 1e6:.0f} MB beyond the file for a 40 MB line"
    session.build_context()


@pytest.mark.timeout(120)
def test_an_enormous_garbage_line_is_skipped_with_bounded_memory(tmp_path: Path) -> None:
    size = 40_000_000
    path = _write(tmp_path, HEADER + USER + b"[" * size + b"\n" + b"{" * size)
    tracemalloc.start()
    try:
        session = open_session(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [s.line for s in session.skipped] == [3, 4]
    assert session.skipped[1].reason.startswith("torn final line")
    assert peak - path.stat().st_size < size // 10  # rejected without a copy


# --- every field, every wrong type -------------------------------------------------------

_WRONG: list[bytes] = [b"[]", b"{}", b"7", b"null", b'"s"', b"true"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    items = (
        list(value.items())
        if isinstance(value, dict)
        else list(enumerate(value))
        if isinstance(value, list)
        else []
    )
    for key, child in items:
        found.append((*prefix, key))
        found.extend(_paths(child, (*prefix, key)))
    return found


def _replace(line: bytes, path: tuple[Any, ...], raw: bytes) -> bytes:
    value = orjson.loads(line)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "\x00marker\x00"
    return orjson.dumps(value).replace(b'"\\u0000marker\\u0000"', raw, 1)


def _every_wrong_type(tmp_path: Path, turns: int, wrong: list[bytes], max_leaves: int) -> int:
    lines = session_bytes(turns, compact_after=1).split(b"\n")[:-1]
    path = tmp_path / "session.jsonl"
    cases = 0
    for index, line in enumerate(lines):
        for field_path in _paths(orjson.loads(line)):
            for raw in wrong:
                damaged = [*lines[:index], _replace(line, field_path, raw), *lines[index + 1 :]]
                path.write_bytes(b"\n".join(damaged) + b"\n")
                exercise_file(path, max_leaves=max_leaves)
                cases += 1
    return cases


@pytest.mark.timeout(300)
def test_every_field_of_every_entry_with_every_wrong_type(tmp_path: Path) -> None:
    assert _every_wrong_type(tmp_path, turns=2, wrong=_WRONG, max_leaves=1) > 900


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_every_field_with_every_hostile_value_at_every_leaf(tmp_path: Path) -> None:
    hostile = [*_WRONG, b"-1", b"1e999", b'"\\ud800"', b"[[[[[]]]]]", b'[{"type":"toolCall"}]']
    assert _every_wrong_type(tmp_path, turns=3, wrong=hostile, max_leaves=40) > 2000
