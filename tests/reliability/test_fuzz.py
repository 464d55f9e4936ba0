"""Fuzzing the loader with damaged session files.

Start from small valid sessions, then flip bytes, truncate, duplicate, drop and reorder
lines, inject hostile values (NaN, lone surrogates, huge numbers, deep nesting, wrong
types) and garbage lines. Whatever comes out, only :class:`SynopsisError` may escape
loading, everything built on a loaded session must work, no case may spin (CPU-time
limit per case, pytest-timeout per test), memory stays bounded, and the input file is
never written.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.session.jsonl import MAX_NESTING
from tests.reliability._exercise import cpu_time_limit, exercise_file
from tests.reliability._sessions import session_bytes

HOSTILE_VALUES: list[bytes] = [
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e999",
    b"-0.0",
    b"123456789012345678901234567890",
    b"9" * 5000,
    b'"\\ud800"',
    b'"\\udc00 tail"',
    b'"\xff\xfe bytes"',
    b'"\xed\xa0\x80"',
    b"null",
    b"true",
    b"5",
    b"-1",
    b"[]",
    b"{}",
    b'"x"',
    b'{"role":5}',
    b'{"role":"toolResult","content":7}',
    b'[{"type":"toolCall"}]',
    b'[{"type":"toolCall","id":[],"name":{},"arguments":[]}]',
    b'[{"type":"text","text":null},5,"s",[]]',
    b'{"readFiles":[1,null],"modifiedFiles":"x"}',
    b"[" * (MAX_NESTING + 5) + b"]" * (MAX_NESTING + 5),
    b"[" * (MAX_NESTING - 10) + b"]" * (MAX_NESTING - 10),
    b'{"a":' * 200 + b"1" + b"}" * 200,
    b"[" * 3000,
    b'"' + b"A" * 50_000 + b'"',
]

GARBAGE_LINES: list[bytes] = [
    b"",
    b"   ",
    b"\r",
    b"{",
    b'{"type":',
    b"[1,2,3]",
    b"42",
    b'"just a string"',
    b'{"type":"session","version":3,"id":"second-header"}',
    b'{"type":"message","id":"dup","parentId":"dup","message":{"role":"user","content":"x"}}',
    b'{"type":"message","id":"zz","parentId":null}',
    b'{"type":"compaction","id":"cc","parentId":null,"firstKeptEntryId":"nowhere"}',
    b"\x00\x01\x02\xff",
    b"[" * 100_000,
    b"[" * 2000 + b"]" * 2000,
]

_PLACEHOLDER = "\x00hostile\x00"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (keys and indices), shallow first."""
    found: list[tuple[Any, ...]] = []
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, child in items:
        found.append((*prefix, key))
        found.extend(_paths(child, (*prefix, key)))
    return found


def _inject(line: bytes, path: tuple[Any, ...], raw: bytes) -> bytes:
    """``line`` with the value at ``path`` replaced by the raw JSON text ``raw``."""
    value = orjson.loads(line)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = _PLACEHOLDER
    return orjson.dumps(value).replace(orjson.dumps(_PLACEHOLDER), raw, 1)


Mutation = Callable[[list[bytes]], list[bytes]]


@st.composite
def _mutation(draw: st.DrawFn, lines: list[bytes]) -> list[bytes]:
    lines = list(lines)
    kind = draw(
        st.sampled_from(
            ["flip", "delete", "duplicate", "swap", "inject", "garbage", "random-line", "crlf"]
        )
    )
    if not lines:
        kind = "garbage"
    index = draw(st.integers(0, max(0, len(lines) - 1)))
    if kind == "flip":
        line = lines[index]
        at = draw(st.integers(0, len(line)))
        lines[index] = line[:at] + draw(st.binary(min_size=1, max_size=3)) + line[at + 1 :]
    elif kind == "delete":
        del lines[index]
    elif kind == "duplicate":
        lines.insert(draw(st.integers(0, len(lines))), lines[index])
    elif kind == "swap":
        other = draw(st.integers(0, len(lines) - 1))
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "inject":
        try:
            paths = _paths(orjson.loads(lines[index]))
        except orjson.JSONDecodeError:
            paths = []
        if paths:
            path = draw(st.sampled_from(paths))
            lines[index] = _inject(lines[index], path, draw(st.sampled_from(HOSTILE_VALUES)))
    elif kind == "garbage":
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(GARBAGE_LINES)))
    elif kind == "random-line":
        lines.insert(draw(st.integers(0, len(lines))), draw(st.binary(max_size=80)))
    else:
        lines[index] = lines[index] + b"\r"
    return lines


@st.composite
def damaged_sessions(draw: st.DrawFn) -> bytes:
    data = session_bytes(
        draw(st.integers(0, 4)),
        compact_after=draw(st.sampled_from([None, 1, 2])),
        branch=draw(st.booleans()),
    )
    lines = data.split(b"\n")[:-1]
    for _ in range(draw(st.integers(1, 6))):
        lines = draw(_mutation(lines))
    damaged = b"\n".join(lines) + b"\n"
    if draw(st.booleans()):
        damaged = damaged[: draw(st.integers(0, len(damaged)))]
    if draw(st.integers(0, 9)) == 0:
        damaged = b"\xef\xbb\xbf" + damaged
    return damaged


_MEMORY_SLACK = 16 * 1024 * 1024
"""Allowed peak of traced allocations beyond 40 times the input size."""


def _check(data: bytes, workdir: Path) -> None:
    path = workdir / "session.jsonl"
    path.write_bytes(data)
    tracemalloc.reset_peak()
    baseline, _ = tracemalloc.get_traced_memory()  # hypothesis's own state grows meanwhile
    with cpu_time_limit(20):
        exercise_file(path)
    _, peak = tracemalloc.get_traced_memory()
    used = peak - baseline
    assert used <= 40 * len(data) + _MEMORY_SLACK, f"{used} bytes for {len(data)} bytes"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tracemalloc.start()
    try:
        yield tmp_path_factory.mktemp("fuzz")
    finally:
        tracemalloc.stop()


_COMMON = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@pytest.mark.timeout(240)
@settings(max_examples=200, **_COMMON)  # type: ignore[arg-type]
@given(data=damaged_sessions())
def test_damaged_sessions_load_or_fail_cleanly(data: bytes, workdir: Path) -> None:
    _check(data, workdir)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(max_examples=5000, **_COMMON)  # type: ignore[arg-type]
@given(data=damaged_sessions())
def test_damaged_sessions_load_or_fail_cleanly_many(data: bytes, workdir: Path) -> None:
    _check(data, workdir)


@pytest.mark.timeout(120)
@settings(max_examples=100, **_COMMON)  # type: ignore[arg-type]
@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_load_or_fail_cleanly(data: bytes, workdir: Path) -> None:
    _check(data, workdir)


@pytest.mark.timeout(120)
@settings(max_examples=100, **_COMMON)  # type: ignore[arg-type]
@given(
    header=st.sampled_from(
        [
            b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}',
            b'{"type":"session","id":"v1"}',
            b'{"type":"session","version":2,"id":"v2"}',
        ]
    ),
    lines=st.lists(
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-(2**63), 2**64 - 1)
            | st.floats()
            | st.text(max_size=8)
            | st.sampled_from(["message", "compaction", "user", "assistant", "toolCall"]),
            lambda children: (
                st.lists(children, max_size=4)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "type",
                            "id",
                            "parentId",
                            "message",
                            "role",
                            "content",
                            "summary",
                            "firstKeptEntryId",
                            "firstKeptEntryIndex",
                            "toolCallId",
                            "arguments",
                            "name",
                            "text",
                            "thinking",
                            "details",
                            "usage",
                            "timestamp",
                        ]
                    ),
                    children,
                    max_size=6,
                )
            ),
            max_leaves=20,
        ),
        max_size=12,
    ),
)
def test_random_json_entries_load_or_fail_cleanly(
    header: bytes, lines: list[Any], workdir: Path
) -> None:
    """Every field with every type: structurally random entries under a valid header."""
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    _check(header + b"\n" + body, workdir)
