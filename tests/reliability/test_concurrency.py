"""Concurrent writers: several processes (or threads) append to one session file at once.

Afterwards every entry of every writer is in the file exactly once, ids are unique, every
``parentId`` names an entry, and each writer's entries chain among themselves (each
writer holds its own tree: they open the file with ``on_stale="fork"``). A process
opening the file while the writers are still alive sees everything they acknowledged.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from synopsis.session import Session, open_session, read_session_file
from synopsis.session.jsonl import parse_session
from tests.reliability._sessions import counter_ids

CHILD = Path(__file__).with_name("_child.py")


def _check(path: Path, acknowledged: dict[str, list[str]], per_writer: int) -> None:
    loaded = read_session_file(path, strict=True)
    assert loaded.header is not None
    entries = loaded.entries
    ids = [entry["id"] for entry in entries]
    assert len(ids) == len(set(ids)), "an id is used twice"
    by_id = {entry["id"]: entry for entry in entries}
    Session(loaded.header, entries)  # no duplicates, no cycles
    assert sum(len(acked) for acked in acknowledged.values()) == len(entries)
    texts = Counter(
        entry["message"]["content"]
        if isinstance(entry["message"]["content"], str)
        else entry["message"]["content"][0]["text"]
        for entry in entries
        if entry["type"] == "message"
    )
    for tag, acked in acknowledged.items():
        for number in range(per_writer):
            matching = [text for text in texts if text.startswith(f"{tag} #{number} ")]
            assert len(matching) == 1 and texts[matching[0]] == 1, (tag, number)
        # Each writer's entries are in the file, in its order, chained among themselves.
        positions = [ids.index(entry_id) for entry_id in acked]
        assert positions == sorted(positions)
        assert by_id[acked[0]]["parentId"] is None
        for previous, current in itertools.pairwise(acked):
            assert by_id[current]["parentId"] == previous
    for entry in entries:
        assert entry["parentId"] is None or entry["parentId"] in by_id
        if entry["type"] == "compaction":
            assert entry["firstKeptEntryId"] in by_id


def _run_processes(path: Path, writers: int, per_writer: int, ids: str) -> None:
    processes = [
        subprocess.Popen(
            [sys.executable, str(CHILD), "concurrent", str(path), f"p{n}", str(per_writer), ids],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        for n in range(writers)
    ]
    acknowledged: dict[str, list[str]] = {}
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline() == b"ready\n", process.stderr
        for process in processes:  # all at once
            assert process.stdin is not None
            process.stdin.write(b"go\n")
        for n, process in enumerate(processes):
            assert process.stdout is not None
            lines: list[str] = []
            while (line := process.stdout.readline().decode().strip()) != "done":
                assert line, (
                    f"writer p{n} died: {process.stderr.read() if process.stderr else ''!r}"
                )
                lines.append(line)
            acknowledged[f"p{n}"] = lines
        # Every writer is still running: a new reader sees all they acknowledged.
        _check(path, acknowledged, per_writer)
    finally:
        for process in processes:
            _, err = process.communicate(b"", timeout=60)
            assert process.returncode == 0, err.decode(errors="replace")
    _check(path, acknowledged, per_writer)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("ids", ["random", "colliding"])
def test_processes_appending_at_once_lose_nothing(tmp_path: Path, ids: str) -> None:
    """``colliding``: every writer proposes the same ids, so the writers must rename."""
    _run_processes(tmp_path / "shared.jsonl", writers=4, per_writer=100, ids=ids)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_many_processes_appending_at_once(tmp_path: Path) -> None:
    _run_processes(tmp_path / "shared.jsonl", writers=8, per_writer=1000, ids="colliding")


@pytest.mark.timeout(120)
def test_threads_with_their_own_sessions_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "threads.jsonl"
    per_writer = 200
    barrier = threading.Barrier(4)
    acknowledged: dict[str, list[str]] = {}
    errors: list[BaseException] = []

    def write(tag: str) -> None:
        try:
            session = open_session(path, create=True, new_id=counter_ids("t"), on_stale="fork")
            barrier.wait()
            acked = []
            for number in range(per_writer):
                acked.append(
                    session.append_message({"role": "user", "content": f"{tag} #{number} "})
                )
            acknowledged[tag] = acked
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=write, args=(f"t{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    _check(path, acknowledged, per_writer)
    parse_session(path.read_bytes(), strict=True)
