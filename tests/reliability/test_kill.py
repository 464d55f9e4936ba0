"""Crash safety: a writer killed with SIGKILL at random moments loses no acknowledged entry.

A child process appends entries (and now and then a compaction) in a loop, printing each
id after its append returned. The parent kills it at a random moment, checks the file,
and starts the next child on the same file. Killing during a migration rewrite leaves
either the old file or the new one.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from synopsis.session import open_session, parse_session, read_session_file, render_session
from synopsis.session.tree import Session

CHILD = Path(__file__).with_name("_child.py")


def _start(*args: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, str(CHILD), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered: communicate() must see everything readline() did not take
    )
    assert process.stdout is not None
    ready = process.stdout.readline()
    if ready != b"ready\n":
        _, err = process.communicate(timeout=30)
        pytest.fail(f"child did not start: {ready!r} {err.decode(errors='replace')}")
    return process


def _kill_soon(process: subprocess.Popen[bytes], rng: random.Random, max_delay: float) -> list[str]:
    """Let the child run, SIGKILL it, and return the ids it acknowledged.

    The kill comes at a random moment, or just after the child announced a big append
    (``writing``), whichever is first: aimed kills are how torn lines get made.
    """
    assert process.stdout is not None
    fd = process.stdout.fileno()
    received = b""
    deadline = time.monotonic() + rng.uniform(0, max_delay)
    while (remaining := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([fd], [], [], remaining)
        if not readable:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        received += chunk
        if b"writing\n" in chunk:
            time.sleep(rng.uniform(0, 0.015))
            break
    return _kill(process, received)


def _kill(process: subprocess.Popen[bytes], received: bytes = b"") -> list[str]:
    """SIGKILL the child; the ids it acknowledged (complete lines only)."""
    process.send_signal(signal.SIGKILL)
    out, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, err.decode(errors="replace")
    out = received + out
    complete = out[: out.rfind(b"\n") + 1].decode()
    return [line for line in complete.splitlines() if line != "writing"]


def _check_after_kills(path: Path, acknowledged: list[str], kills: int) -> int:
    """The file holds every acknowledged id in order and is a valid tree; returns torn lines."""
    loaded = read_session_file(path)
    assert loaded.header is not None
    ids = [entry["id"] for entry in loaded.entries]
    position = {entry_id: index for index, entry_id in enumerate(ids)}
    missing = [entry_id for entry_id in acknowledged if entry_id not in position]
    assert not missing, f"acknowledged entries lost: {missing}"
    order = [position[entry_id] for entry_id in acknowledged]
    assert order == sorted(order), "acknowledged entries out of order"
    # An entry written but not acknowledged: at most the one each kill interrupted.
    assert len(ids) - len(acknowledged) <= kills
    # Each kill can tear at most one line; only the last one can still be the final line.
    assert len(loaded.skipped) <= kills, loaded.skipped
    torn_final = [s for s in loaded.skipped if s.reason.startswith("torn final line")]
    assert len(torn_final) <= 1
    assert all("JSON" in s.reason for s in loaded.skipped), loaded.skipped
    for entry in loaded.entries:
        assert entry["parentId"] is None or entry["parentId"] in position
        if entry["type"] == "compaction":
            assert entry["firstKeptEntryId"] in position
    Session(loaded.header, loaded.entries)  # no duplicate ids, no cycles
    open_session(path).build_context()
    return len(loaded.skipped)


def _kill_loop(tmp_path: Path, kills: int, max_delay: float) -> int:
    """Kill ``kills`` writers in turn on one file; returns how many torn lines were left."""
    path = tmp_path / "session.jsonl"
    rng = random.Random()
    acknowledged: list[str] = []
    torn = 0
    for round_number in range(1, kills + 1):
        # Every other round aims at a big write; the others kill at any moment.
        big_every = rng.randint(3, 12) if round_number % 2 == 0 else 0
        process = _start("loop", str(path), str(round_number), str(big_every))
        acknowledged.extend(_kill_soon(process, rng, max_delay))
        if not path.exists():  # killed before the first append created the file
            assert not acknowledged
            continue
        torn = _check_after_kills(path, acknowledged, round_number)
    assert acknowledged, "the children never got to append anything"
    return torn


@pytest.mark.timeout(120)
def test_sigkill_at_random_moments_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    _kill_loop(tmp_path, kills=20, max_delay=0.12)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_sigkill_many_times(tmp_path: Path) -> None:
    _kill_loop(tmp_path, kills=150, max_delay=0.3)


def _version_1_file(entries: int) -> bytes:
    """An old-format file: no ids, no version, a compaction by line index."""
    header = {
        "type": "session",
        "id": "v1-session",
        "timestamp": "2025-01-01T00:00:00Z",
        "cwd": "/",
    }
    lines: list[dict[str, object]] = []
    for number in range(entries):
        role = "user" if number % 2 == 0 else "assistant"
        content: object = f"message {number} " + "y" * 2000
        if role == "assistant":
            content = [{"type": "text", "text": content}]
        lines.append(
            {"type": "message", "timestamp": "t", "message": {"role": role, "content": content}}
        )
    lines.append(
        {
            "type": "compaction",
            "summary": "s",
            "firstKeptEntryIndex": entries - 2,
            "tokensBefore": 1,
        }
    )
    return render_session(header, lines)


def _kill_during_migration(tmp_path: Path, rounds: int) -> None:
    original = _version_1_file(3000)
    before = parse_session(original)
    rng = random.Random()
    outcomes = {"old": 0, "new": 0}
    for round_number in range(rounds):
        path = tmp_path / f"old-{round_number}.jsonl"
        path.write_bytes(original)
        process = _start("migrate", str(path))
        time.sleep(rng.uniform(0, 0.06))
        acknowledged = _kill(process)
        data = path.read_bytes()
        if data == original:
            assert not acknowledged, "an acknowledged append is missing: old file left"
            outcomes["old"] += 1
        else:
            loaded = parse_session(data, strict=True)
            assert loaded.version_before == 3
            assert len(loaded.entries) == len(before.entries) + 1
            assert loaded.entries[-1]["message"]["content"] == "after migration"
            if acknowledged:
                assert loaded.entries[-1]["id"] == acknowledged[0]
            outcomes["new"] += 1
        open_session(path).build_context()  # either way, it loads
    assert sum(outcomes.values()) == rounds


@pytest.mark.timeout(120)
def test_kill_during_migration_rewrite_leaves_old_or_new_file(tmp_path: Path) -> None:
    _kill_during_migration(tmp_path, rounds=8)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_kill_during_migration_rewrite_many_times(tmp_path: Path) -> None:
    _kill_during_migration(tmp_path, rounds=80)
