"""The CLI as a user runs it: real processes on real session files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from synopsis.messages import tool_calls
from synopsis.session import open_session
from tests.synthetic import write_session

SYNOPSIS = str(Path(sys.executable).parent / "synopsis")
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi"


def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [SYNOPSIS, *args], capture_output=True, text=True, timeout=120, check=False
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "generated.jsonl"
    write_session(path, seed=3, entries=400)
    return path


def test_compact_then_context_shows_the_checkpoint_first(generated: Path, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(generated.read_bytes())
    before = json.loads(run("context", str(path), "--json").stdout)
    compacted = json.loads(run("compact", str(path), "--keep-recent", "4000", "--json").stdout)
    assert compacted["entryId"]
    assert compacted["tokensBefore"] == before["contextTokens"]
    after = json.loads(run("context", str(path), "--json").stdout)
    assert after["messageCount"] < before["messageCount"]
    first = after["messages"][0]
    assert first["role"] == "user"
    assert compacted["summary"] in first["content"][0]["text"]
    # Every tool result in what the model sees has its call before it.
    calls: set[str] = set()
    for message in after["messages"]:
        calls.update(call["id"] for call in tool_calls(message))
        if message["role"] == "toolResult":
            assert message["toolCallId"] in calls
    session = open_session(path)
    assert session.path()[-1]["type"] == "compaction"


def test_dry_run_appends_nothing(generated: Path, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(generated.read_bytes())
    out = run("compact", str(path), "--keep-recent", "4000", "--dry-run")
    assert "dry run" in out.stdout
    assert path.read_bytes() == generated.read_bytes()


def test_plan_explains_the_cut(generated: Path) -> None:
    report = json.loads(run("plan", str(generated), "--keep-recent", "4000", "--json").stdout)
    assert report["compact"] is True
    session = open_session(generated)
    kept = session.require_entry(report["firstKeptEntryId"])
    assert kept["message"]["role"] != "toolResult"
    assert report["tokensBefore"] > report["keptTokens"]
    human = run("plan", str(generated), "--keep-recent", "4000").stdout
    assert report["firstKeptEntryId"] in human


def test_tree_marks_the_leaf(generated: Path) -> None:
    session = open_session(generated)
    out = run("tree", str(generated)).stdout
    assert f"{session.leaf_id}" in out and "← leaf" in out
    data = json.loads(run("tree", str(generated), "--json").stdout)
    assert data["leafId"] == session.leaf_id
    assert len(data["entries"]) == len(session.entries)


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="shared fixtures are not present")
def test_migrate_writes_a_v3_file_and_leaves_the_input_alone(tmp_path: Path) -> None:
    source = FIXTURES / "edge" / "edge-v1-with-compaction-index.jsonl"
    before = source.read_bytes()
    out = tmp_path / "v3.jsonl"
    run("migrate", str(source), "-o", str(out))
    assert source.read_bytes() == before
    migrated = open_session(out, strict=True)
    assert migrated.header["version"] == 3 and not migrated.migrated
    assert len(migrated.entries) == len(open_session(source).entries)


def test_bad_input_is_one_line_and_a_nonzero_exit(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"message","id":"x"}\n')
    done = run("context", str(bad), ok=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and len(done.stderr.strip().splitlines()) == 1
    missing = run("tree", str(tmp_path / "nope.jsonl"), ok=False)
    assert missing.returncode == 2 and "no such session file" in missing.stderr


def test_malformed_line_is_a_warning(tmp_path: Path, generated: Path) -> None:
    lines = generated.read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:5]) + b"{not json\n" + b"".join(lines[5:]))
    done = run("context", str(damaged))
    assert "warning:" in done.stderr and ":6: skipped" in done.stderr
