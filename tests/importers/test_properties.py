"""Invariants of the converters, on generated transcripts."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.importers import ImportReport, convert_rows, import_transcript
from synopsis.importers._build import Row, chain
from synopsis.session import Session, new_header, parse_session, render_session
from synopsis.session.doctor import diagnose_bytes

_text = st.text(min_size=0, max_size=30)
_block = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, _text),
    st.builds(lambda t: {"type": "thinking", "thinking": t, "signature": "sig"}, _text),
    st.builds(
        lambda name, path: {"type": "tool_use", "name": name, "input": {"file_path": path}},
        st.sampled_from(["Read", "Edit", "Bash", "Grep"]),
        _text,
    ),
)


def _reply_rows(replies: list[list[dict[str, Any]]], split: bool) -> list[Row]:
    """Claude Code rows for ``replies``: one row per reply, or one per content block."""
    rows: list[Any] = [{"type": "user", "message": {"role": "user", "content": "go"}}]
    call = 0
    for number, blocks in enumerate(replies):
        content = []
        for block in blocks:
            if block["type"] == "tool_use":
                call += 1
                block = {**block, "id": f"toolu_{call}"}
            content.append(block)
        message = {"id": f"msg_{number}", "role": "assistant", "model": "claude-x"}
        groups = [[b] for b in content] if split else [content]
        rows += [{"type": "assistant", "message": {**message, "content": g}} for g in groups]
        results = [
            {"type": "tool_result", "tool_use_id": b["id"], "content": "ok"}
            for b in content
            if b["type"] == "tool_use"
        ]
        if results:
            rows.append({"type": "user", "message": {"role": "user", "content": results}})
    return [Row(i + 1, row) for i, row in enumerate(rows)]


def _entries(rows: list[Row]) -> list[dict[str, Any]]:
    report = ImportReport("claude-code")
    return list(chain(convert_rows(rows, "claude-code", report), default_timestamp="t"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_block, min_size=1, max_size=5), min_size=1, max_size=5))
def test_one_row_per_block_imports_like_one_row_per_reply(
    replies: list[list[dict[str, Any]]],
) -> None:
    assert _entries(_reply_rows(replies, split=True)) == _entries(_reply_rows(replies, split=False))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_block, min_size=1, max_size=5), min_size=1, max_size=5))
def test_every_result_follows_its_call(replies: list[list[dict[str, Any]]]) -> None:
    seen: set[str] = set()
    results = 0
    for entry in _entries(_reply_rows(replies, split=True)):
        message = entry.get("message", {})
        if message.get("role") == "assistant":
            seen.update(b["id"] for b in message["content"] if b["type"] == "toolCall")
        elif message.get("role") == "toolResult":
            assert message["toolCallId"] in seen
            results += 1
    assert results == sum(b["type"] == "tool_use" for blocks in replies for b in blocks)


def test_a_large_rollout_is_streamed(tmp_path: Path) -> None:
    """Memory stays far below the file's size: rows are read and written one at a time."""
    source = tmp_path / "rollout-big.jsonl"
    output = "x" * 2000
    with source.open("w") as handle:
        meta = {"type": "session_meta", "payload": {"id": "big", "cwd": "/w"}}
        handle.write(json.dumps(meta) + "\n")
        for n in range(4000):
            for item in (
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": f"step {n}"}],
                },
                {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": f"c{n}",
                    "arguments": '{"command":["ls"]}',
                },
                {"type": "function_call_output", "call_id": f"c{n}", "output": output},
            ):
                handle.write(json.dumps({"type": "response_item", "payload": item}) + "\n")
    size = source.stat().st_size
    tracemalloc.start()
    try:
        report = import_transcript(source, tmp_path / "session.jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.tool_results == 4000
    assert size > 8_000_000
    assert peak < size / 8, (peak, size)


_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_json = st.recursive(
    _json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
_ids = st.sampled_from(["c1", "c2", "toolu_1", "call_x"])
_claude_row = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["user", "assistant", "system", "summary"]),
        "message": st.fixed_dictionaries(
            {
                "id": st.sampled_from(["m1", "m2", None]),
                "content": st.one_of(
                    st.text(max_size=8),
                    st.lists(
                        st.one_of(
                            st.fixed_dictionaries(
                                {
                                    "type": st.just("tool_use"),
                                    "id": _ids,
                                    "name": st.text(max_size=5),
                                    "input": _json,
                                }
                            ),
                            st.fixed_dictionaries(
                                {
                                    "type": st.just("tool_result"),
                                    "tool_use_id": _ids,
                                    "content": _json,
                                }
                            ),
                            _json,
                        ),
                        max_size=3,
                    ),
                ),
            }
        ),
        "isSidechain": st.booleans(),
    }
)
_codex_item = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "message",
                "reasoning",
                "function_call",
                "function_call_output",
                "custom_tool_call",
                "custom_tool_call_output",
                "web_search_call",
            ]
        ),
        "role": st.sampled_from(["user", "assistant", "developer", "tool"]),
        "call_id": _ids,
        "name": st.sampled_from(["shell", "apply_patch", "exec_command", "other"]),
        "arguments": st.one_of(st.text(max_size=10), _json),
        "input": st.one_of(st.just("*** Begin Patch\n*** Add File: a.py\n+x\n"), _json),
        "output": _json,
        "content": _json,
        "summary": _json,
    }
)
_codex_row = st.one_of(
    st.builds(lambda item: {"type": "response_item", "payload": item}, _codex_item),
    st.builds(lambda p: {"type": "event_msg", "payload": p}, _json),
    _json,
)
_openai_row = st.one_of(
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["user", "assistant", "tool", "system", "function", "x"]),
            "content": _json,
            "tool_call_id": _ids,
            "tool_calls": st.lists(
                st.fixed_dictionaries({"id": _ids, "function": _json}), max_size=2
            ),
        }
    ),
    _json,
)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.tuples(st.just("claude-code"), st.lists(_claude_row, max_size=8)),
        st.tuples(st.just("codex"), st.lists(_codex_row, max_size=8)),
        st.tuples(st.just("openai"), st.lists(_openai_row, max_size=8)),
    )
)
def test_any_rows_give_a_healthy_session(case: tuple[Any, list[Any]]) -> None:
    """Malformed rows never crash a converter, and what it writes is a sound session."""
    source_format, values = case
    report = ImportReport(source_format)
    rows = [Row(n + 1, value) for n, value in enumerate(values)]
    entries = list(chain(convert_rows(rows, source_format, report), default_timestamp="t"))
    data = render_session(new_header(session_id="s", cwd=""), entries)
    doctor = diagnose_bytes(data)
    assert doctor.healthy, [finding.message for finding in doctor.findings]
    session = Session(parse_session(data).header, parse_session(data).entries)
    session.build_context()
