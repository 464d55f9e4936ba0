"""Importing Claude Code, Codex and OpenAI transcripts as Pi sessions.

The expected counts are taken from the source files by the small readers below, which
know only the source formats (not the importer); the output is read back through
``open_session`` and checked by the real ``synopsis doctor`` process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from synopsis import open_session
from synopsis.compaction.file_ops import FileOperations
from synopsis.importers import ImportFormatError, import_transcript

DATA = Path(__file__).parent / "data"

CLAUDE_FILES = [
    "claude-code-hello-world.jsonl",
    "claude-code-coverage-test-fix.jsonl",
    "claude-code-loglines.json",
]
CODEX_FILES = [
    "codex-exec-0.135.jsonl",
    "codex-2025-09-legacy.jsonl",
    "codex-handwritten-tools.jsonl",
]


def _json_lines(path: Path) -> list[Any]:
    text = path.read_text()
    if path.suffix == ".json":
        document = json.loads(text)
        return list(document["loglines"] if isinstance(document, dict) else document)
    rows = []
    for line in text.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # the hand-written Codex file has one torn line on purpose
    return rows


def claude_source_counts(path: Path) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    reply_ids: set[Any] = set()
    call_ids: list[str] = []
    files: set[str] = set()
    for row in _json_lines(path):
        if row.get("isSidechain") or row.get("type") not in ("user", "assistant"):
            continue
        content = row["message"]["content"]
        if row["type"] == "assistant":
            reply_ids.add(row["message"].get("id") or id(row))
            for block in content:
                if block["type"] == "tool_use":
                    call_ids.append(block["id"])
                    if block["name"] in ("Read", "Write", "Edit", "MultiEdit"):
                        files.add(block["input"]["file_path"])
            continue
        blocks = content if isinstance(content, list) else [{"type": "text"}]
        counts["results"] += sum(b["type"] == "tool_result" for b in blocks)
        counts["user"] += any(b["type"] != "tool_result" for b in blocks)
    return {
        "user": counts["user"],
        "assistant": len(reply_ids),
        "calls": call_ids,
        "results": counts["results"],
        "files": files,
    }


def codex_source_counts(path: Path) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    call_ids: list[str] = []
    for row in _json_lines(path):
        item = row.get("payload") if row.get("type") == "response_item" else row
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "message" and item.get("role") == "user":
            counts["user"] += 1
        elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
            call_ids.append(item["call_id"])
        elif kind in ("function_call_output", "custom_tool_call_output"):
            counts["results"] += item["call_id"] in call_ids
    return {"user": counts["user"], "calls": call_ids, "results": counts["results"]}


def imported_counts(path: Path) -> dict[str, Any]:
    session = open_session(path)
    assert not session.skipped
    roles: Counter[str] = Counter()
    call_ids: list[str] = []
    answered: list[str] = []
    for entry in session.entries:
        if entry["type"] != "message":
            continue
        message = entry["message"]
        roles[message["role"]] += 1
        if message["role"] == "assistant":
            call_ids += [b["id"] for b in message["content"] if b["type"] == "toolCall"]
        if message["role"] == "toolResult":
            assert message["toolCallId"] in call_ids, "a result comes before its call"
            answered.append(message["toolCallId"])
    return {
        "user": roles["user"],
        "assistant": roles["assistant"],
        "calls": call_ids,
        "results": len(answered),
    }


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "synopsis", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_doctor_healthy(path: Path) -> None:
    done = run_cli("doctor", path, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["healthy"] is True
    assert report["findings"] == []


@pytest.mark.parametrize("name", CLAUDE_FILES)
def test_claude_code_counts_and_health(name: str, tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    done = run_cli("import", DATA / name, "-o", out)
    assert done.returncode == 0, done.stderr
    expected = claude_source_counts(DATA / name)
    got = imported_counts(out)
    assert got["user"] == expected["user"]
    assert got["assistant"] == expected["assistant"]  # rows of one reply are merged
    assert got["calls"] == expected["calls"]
    assert got["results"] == expected["results"]
    assert_doctor_healthy(out)

    session = open_session(out)
    context = session.build_context()
    assert context.messages
    tracked = FileOperations()
    tracked.add_from_messages(context.messages)
    read_only, modified = tracked.file_lists()
    assert set(read_only) | set(modified) == expected["files"]


@pytest.mark.parametrize("name", CODEX_FILES)
def test_codex_counts_and_health(name: str, tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    done = run_cli("import", DATA / name, "-o", out, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["format"] == "codex"
    expected = codex_source_counts(DATA / name)
    got = imported_counts(out)
    assert got["user"] == expected["user"]
    assert got["calls"] == expected["calls"]
    assert got["results"] == expected["results"]
    assert_doctor_healthy(out)
    assert open_session(out).build_context().messages


def test_codex_developer_messages_reach_the_model_as_hidden_instructions(
    tmp_path: Path,
) -> None:
    out = tmp_path / "session.jsonl"
    import_transcript(DATA / "codex-exec-0.135.jsonl", out)
    session = open_session(out)
    developer = [e for e in session.entries if e["type"] == "custom_message"]
    assert [e["customType"] for e in developer] == ["codex/developer"]
    assert developer[0]["display"] is False
    assert developer[0]["content"] == "[REDACTED_DEVELOPER_CONTEXT]"
    context_roles = [m["role"] for m in session.build_context().messages]
    assert context_roles[0] == "custom"
    assert session.header["id"] == "019e9625-802f-7e91-840a-cfe88d14117a"
    assert session.header["cwd"] == "/tmp/agent-history-real-agent/codex/workspace"


def test_codex_file_operations_are_tracked(tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    report = import_transcript(DATA / "codex-handwritten-tools.jsonl", out)
    tracked = FileOperations()
    tracked.add_from_messages(open_session(out).build_context().messages)
    read_only, modified = tracked.file_lists()
    assert read_only == []  # the report module was read, then patched
    assert modified == ["inventory/report.py", "tests/test_report.py"]
    assert report.several_file_patches == 1  # tests/conftest.py is listed in `paths` only
    assert report.unanswered_calls == 1
    warnings = "\n".join(report.summary_warnings())
    assert "line 21 is not JSON" in warnings
    assert "tool output without its call ×1" in warnings


def test_codex_token_counts_become_the_reply_usage(tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    import_transcript(DATA / "codex-handwritten-tools.jsonl", out)
    replies = [
        e["message"]
        for e in open_session(out).entries
        if e["type"] == "message" and e["message"]["role"] == "assistant"
    ]
    first = replies[0]
    assert [b["id"] for b in first["content"] if b["type"] == "toolCall"] == [
        "call_read_report",
        "call_grep_round",
    ]
    # input_tokens 9000 includes 4000 cached ones, which Pi counts as cacheRead.
    assert first["usage"] == {
        "input": 5000,
        "output": 300,
        "cacheRead": 4000,
        "cacheWrite": 0,
        "totalTokens": 9300,
    }
    assert all("usage" not in reply for reply in replies[1:])


def test_legacy_codex_patches_given_to_the_shell_are_tracked(tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    import_transcript(DATA / "codex-2025-09-legacy.jsonl", out)
    patched = set()
    for row in _json_lines(DATA / "codex-2025-09-legacy.jsonl"):
        if row.get("type") == "function_call" and "Begin Patch" in row["arguments"]:
            script = json.loads(row["arguments"])["command"][-1]
            for line in script.splitlines():
                if "File:" in line and line.lstrip("* ").startswith(("Add", "Update")):
                    patched.add(line.split("File:", 1)[1].strip())
    assert patched
    tracked = FileOperations()
    tracked.add_from_messages(open_session(out).build_context().messages)
    assert patched <= set(tracked.file_lists()[1])


def test_nothing_is_dropped(tmp_path: Path) -> None:
    """Rows with no Pi equivalent are kept as custom entries, verbatim."""
    source = DATA / "codex-handwritten-tools.jsonl"
    out = tmp_path / "session.jsonl"
    import_transcript(source, out)
    expected: list[Any] = []
    call_ids = set()
    for number, line in enumerate(source.read_text().splitlines(), start=1):
        try:
            row = json.loads(line)
        except ValueError:
            expected.append({"line": number, "text": line})
            continue
        item = row["payload"]
        if row["type"] != "response_item":
            expected.append(row)
        elif item["type"] in ("function_call", "custom_tool_call"):
            call_ids.add(item["call_id"])
        elif item["type"] == "web_search_call" or (
            item["type"].endswith("_output") and item["call_id"] not in call_ids
        ):
            expected.append(item)
    kept = [e["data"] for e in open_session(out).entries if e["type"] == "custom"]
    key = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731
    assert sorted(map(key, kept)) == sorted(map(key, expected))


def test_openai_round_trip(tmp_path: Path) -> None:
    from synopsis.messages import convert_to_llm
    from synopsis.providers.openai import to_openai_messages

    conversation: list[dict[str, Any]] = [
        {"role": "user", "content": "Rename the config key `timeout` to `timeout_s`."},
        {
            "role": "assistant",
            "content": "Reading both files.",
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path": "app.toml"}'},
                },
                {
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path": "app.py"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": "timeout = 30"},
        {"role": "tool", "tool_call_id": "call_b", "content": "cfg['timeout']"},
        {"role": "assistant", "content": "Both use `timeout`; renaming now."},
        {"role": "user", "content": 'Go ahead — "quotes", <tags> & ünïcode stay as they are.'},
    ]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "system", "content": "You are terse."}, *conversation]))
    out = tmp_path / "session.jsonl"
    report = import_transcript(source, out)
    assert report.source_format == "openai"
    assert report.instruction_messages == 1
    assert_doctor_healthy(out)

    messages = open_session(out).build_context().messages
    assert messages[0]["role"] == "custom"  # the system prompt, kept in the context
    back = to_openai_messages(None, convert_to_llm(messages[1:]))
    for message in back:
        if message["role"] == "assistant":
            for call in message.get("tool_calls") or []:
                call["function"]["arguments"] = json.loads(call["function"]["arguments"])
    for message in conversation:
        for call in message.get("tool_calls") or []:
            call["function"]["arguments"] = json.loads(call["function"]["arguments"])
    assert back == conversation

    # The same list as JSON lines imports to the same entries.
    lines = tmp_path / "chat.jsonl"
    lines.write_text("\n".join(json.dumps(m) for m in json.loads(source.read_text())) + "\n")
    again = tmp_path / "again.jsonl"
    import_transcript(lines, again)
    first = [{k: v for k, v in e.items() if k != "timestamp"} for e in open_session(out).entries]
    second = [{k: v for k, v in e.items() if k != "timestamp"} for e in open_session(again).entries]
    assert first == second


def test_hostile_text_survives_the_import(tmp_path: Path) -> None:
    hostile = "<script>alert('x')</script> \"quoted\" \x00\x1b[31m \ud800 lone"
    row = {"role": "user", "content": hostile}
    source = tmp_path / "chat.jsonl"
    # json.dumps escapes the lone surrogate as \ud800, as JavaScript would write it.
    source.write_text(json.dumps(row) + "\n")
    out = tmp_path / "session.jsonl"
    import_transcript(source, out)
    [entry] = open_session(out).entries
    assert entry["message"]["content"] == hostile
    assert_doctor_healthy(out)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"", "holds no records"),
        (b"\x00\x01\x02 not json at all\n", "not a Claude Code, Codex or OpenAI transcript"),
        (b'{"type":"session","version":3,"id":"x","timestamp":"t","cwd":""}\n', "not a Claude"),
        (b"[1, 2", "not JSON"),
        ("directory", "is not a regular file"),
        ("no-out-dir", "cannot write"),
    ],
)
def test_bad_input_is_one_error_line(
    content: bytes | str | None, message: str, tmp_path: Path
) -> None:
    source = tmp_path / "input.jsonl"
    out = tmp_path / "out.jsonl"
    if content == "directory":
        source.mkdir()
    elif content == "no-out-dir":
        source = DATA / "codex-exec-0.135.jsonl"
        out = tmp_path / "missing" / "out.jsonl"
    elif isinstance(content, bytes):
        source.write_bytes(content)
    done = run_cli("import", source, "-o", out)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert message in lines[0]
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_existing_output_and_wrong_format_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    done = run_cli("import", DATA / "claude-code-hello-world.jsonl", "-o", out)
    assert done.returncode == 2 and "exists" in done.stderr
    assert out.read_text() == "precious\n"
    done = run_cli("import", DATA / "claude-code-hello-world.jsonl", "-o", out, "--force")
    assert done.returncode == 0
    source = DATA / "claude-code-hello-world.jsonl"
    for fmt, expected in (("codex", "does not look like a codex"), ("pi", "unknown format")):
        done = run_cli("import", source, "-o", tmp_path / "x.jsonl", "--format", fmt)
        assert done.returncode == 2 and expected in done.stderr, done.stderr
    with pytest.raises(ImportFormatError, match="overwrite the transcript"):
        import_transcript(source, source, overwrite=True)


def test_sidechain_rows_are_kept_apart_unless_the_file_is_the_sub_agent_s(
    tmp_path: Path,
) -> None:
    rows = _json_lines(DATA / "claude-code-hello-world.jsonl")
    marked = [
        dict(r, isSidechain=True) if r.get("type") in ("user", "assistant") else r for r in rows
    ]
    mixed = rows[:3] + [dict(r, isSidechain=True) for r in rows[1:5]] + rows[3:]
    expected = claude_source_counts(DATA / "claude-code-hello-world.jsonl")
    for name, content in (("agent-a1.jsonl", marked), ("mixed.jsonl", mixed)):
        source, out = tmp_path / name, tmp_path / f"out-{name}"
        source.write_text("".join(json.dumps(r) + "\n" for r in content))
        report = import_transcript(source, out)
        got = imported_counts(out)
        assert (got["user"], got["calls"], got["results"]) == (
            expected["user"],
            expected["calls"],
            expected["results"],
        ), name
        sidechain_kept = report.custom_entries["claude-code sub-agent row (isSidechain)"]
        assert sidechain_kept == (4 if name == "mixed.jsonl" else 0)


def test_rows_between_the_rows_of_one_reply_do_not_split_it(tmp_path: Path) -> None:
    rows = _json_lines(DATA / "claude-code-coverage-test-fix.jsonl")
    # Newer Claude Code versions write progress and system rows while a reply streams.
    spliced: list[Any] = []
    for row in rows:
        spliced.append(row)
        if row.get("type") == "assistant":
            spliced.append({"type": "progress", "data": {"type": "hook_progress"}})
    source = tmp_path / "spliced.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in spliced))
    out = tmp_path / "out.jsonl"
    report = import_transcript(source, out)
    expected = claude_source_counts(DATA / "claude-code-coverage-test-fix.jsonl")
    assert imported_counts(out)["assistant"] == expected["assistant"]
    assert report.custom_entries["claude-code progress"] == sum(
        r.get("type") == "assistant" for r in rows
    )
    assert_doctor_healthy(out)
