"""The writer's guarantees, one by one: torn lines, replaced files, shared ids, rewrites."""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from synopsis.compaction import CompactionSettings
from synopsis.compaction.orchestrate import compact_session
from synopsis.errors import SessionChangedError, SessionFormatError, StaleSessionError
from synopsis.session import open_session, parse_session, read_session_file
from synopsis.session.jsonl import write_atomically
from synopsis.summarizers.base import SummaryRequest, SummaryResult
from synopsis.summarizers.embedded import EmbeddedSummarizer
from tests.reliability._sessions import counter_ids, session_bytes
from tests.synthetic import write_session

_V1 = (
    b'{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}\n'
    b'{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}\n'
    b'{"type":"message","timestamp":"t","message":{"role":"assistant","content":[]}}\n'
)


def _healthy(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(session_bytes(2))
    return path


def test_torn_final_line_is_reported_and_the_next_entry_starts_a_new_line(tmp_path: Path) -> None:
    path = _healthy(tmp_path)
    healthy = path.read_bytes()
    path.write_bytes(healthy + b'{"type":"message","id":"torn","parentId":"e0')
    session = open_session(path)
    assert [s.reason.split(":")[0] for s in session.skipped] == ["torn final line"]
    leaf = session.leaf_id
    new_id = session.append_message({"role": "user", "content": "after the crash"})
    data = path.read_bytes()
    assert data.startswith(healthy)  # nothing before the torn line changed
    reloaded = read_session_file(path)
    assert reloaded.entries[-1]["id"] == new_id
    assert reloaded.entries[-1]["parentId"] == leaf
    # The torn fragment is now an ordinary bad line in the middle, not glued to the entry.
    assert len(reloaded.skipped) == 1
    assert reloaded.skipped[0].reason.startswith("not valid JSON")
    with pytest.raises(SessionFormatError):
        open_session(path, strict=True)


def test_complete_final_line_without_newline_is_not_glued(tmp_path: Path) -> None:
    path = _healthy(tmp_path)
    healthy = path.read_bytes()
    path.write_bytes(healthy[:-1])
    session = open_session(path)
    assert session.skipped == []
    session.append_message({"role": "user", "content": "next"})
    loaded = parse_session(path.read_bytes(), strict=True)
    assert len(loaded.entries) == len(parse_session(healthy).entries) + 1


def _wait_until_blocked_on_lock(path: Path, timeout: float = 10.0) -> None:
    """Wait until some thread waits for a flock on ``path`` (Linux's /proc/locks shows it)."""
    inode = f":{os.stat(path).st_ino} "
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            locks = Path("/proc/locks").read_text()
        except OSError:
            time.sleep(0.5)  # no /proc: give the thread time to get there
            return
        if any("->" in line and inode in line for line in locks.splitlines()):
            return
        time.sleep(0.005)
    pytest.fail("the appending thread never waited for the lock")


@pytest.mark.timeout(60)
def test_append_refuses_a_file_replaced_while_it_waited_for_the_lock(tmp_path: Path) -> None:
    """Another process renames a new file into place while we wait to append: the lock we
    waited for is on the unlinked file, and the new one is not the session we loaded."""
    path = _healthy(tmp_path)
    before = path.read_bytes()
    session = open_session(path)
    holder = os.open(path, os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    failures: list[BaseException] = []

    def append() -> None:
        try:
            session.append_message({"role": "user", "content": "x"})
        except SessionChangedError as error:
            failures.append(error)

    thread = threading.Thread(target=append)
    thread.start()
    try:
        _wait_until_blocked_on_lock(path)
        write_atomically(path, path.read_bytes())  # the "other process" replaces the file
    finally:
        os.close(holder)
    thread.join(timeout=30)
    assert failures and "replaced" in str(failures[0])
    assert path.read_bytes() == before


def test_ids_stay_unique_when_another_writer_took_the_same_id(tmp_path: Path) -> None:
    path = _healthy(tmp_path)
    first = open_session(path, new_id=counter_ids("x"), on_stale="fork")
    second = open_session(path, new_id=counter_ids("x"), on_stale="fork")  # the same ids
    one = first.append_message({"role": "user", "content": "from the first"})
    two = second.append_message({"role": "user", "content": "from the second"})
    three = second.append_message({"role": "assistant", "content": []})
    assert one == "x0001"
    assert two != one
    assert second.leaf_id == three
    assert second.require_entry(three)["parentId"] == two
    loaded = parse_session(path.read_bytes(), strict=True)
    ids = [entry["id"] for entry in loaded.entries]
    assert len(ids) == len(set(ids))
    assert ids[-3:] == [one, two, three]
    open_session(path)  # no duplicate ids


def test_a_second_opener_sees_what_the_first_acknowledged(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    writer = open_session(path, create=True)
    acknowledged = [writer.append_message({"role": "user", "content": str(n)}) for n in range(5)]
    reader = open_session(path)
    assert [entry["id"] for entry in reader.entries] == acknowledged


def test_migration_rewrite_refuses_a_file_changed_since_it_was_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(_V1)
    first = open_session(path)
    second = open_session(path)
    kept = first.append_message({"role": "user", "content": "first"})
    after_first = path.read_bytes()
    with pytest.raises(SessionChangedError, match="replaced by another file"):
        second.append_message({"role": "user", "content": "second"})
    assert path.read_bytes() == after_first
    assert len(second.entries) == 2  # nothing half-appended in memory either
    loaded = parse_session(after_first, strict=True)
    assert loaded.version_before == 3
    assert loaded.entries[-1]["id"] == kept


def test_migration_rewrite_keeps_the_file_permissions(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(_V1)
    path.chmod(0o640)
    session = open_session(path)
    session.append_message({"role": "user", "content": "after"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert parse_session(path.read_bytes(), strict=True).version_before == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_write_that_fails_half_way_leaves_no_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _healthy(tmp_path)
    before = path.read_bytes()
    session = open_session(path)
    real_write = os.write

    def disk_fills_up(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", disk_fills_up)
    with pytest.raises(OSError):
        session.append_message({"role": "user", "content": "y" * 10_000})
    monkeypatch.undo()
    assert path.read_bytes() == before
    session.append_message({"role": "user", "content": "after the disk was freed"})
    parse_session(path.read_bytes(), strict=True)


def test_durable_appends_create_the_file_with_its_header(tmp_path: Path) -> None:
    path = tmp_path / "durable.jsonl"
    session = open_session(path, create=True, durable=True)
    session.append_message({"role": "user", "content": "x"})
    loaded = parse_session(path.read_bytes(), strict=True)
    assert loaded.header is not None and loaded.header["id"] == session.session_id


def test_an_append_after_another_writer_appended_is_refused_and_reads_their_entries(
    tmp_path: Path,
) -> None:
    path = _healthy(tmp_path)
    mine = open_session(path)
    theirs = open_session(path)
    stale_leaf = mine.leaf_id
    their_id = theirs.append_message({"role": "user", "content": "theirs"})
    before = path.read_bytes()
    with pytest.raises(StaleSessionError, match="another writer appended 1 entry"):
        mine.append_message({"role": "user", "content": "mine, on a stale leaf"})
    assert path.read_bytes() == before
    assert mine.leaf_id == their_id and mine.require_entry(their_id)["parentId"] == stale_leaf
    again = mine.append_message({"role": "user", "content": "mine, on their entry"})
    assert open_session(path, strict=True).path()[-2:] == [
        mine.require_entry(their_id),
        mine.require_entry(again),
    ]


def test_compaction_is_refused_on_a_parent_another_writer_continued_even_when_forking(
    tmp_path: Path,
) -> None:
    path = _healthy(tmp_path)
    mine = open_session(path, on_stale="fork")
    theirs = open_session(path, on_stale="fork")
    first_kept = mine.path()[-2]["id"]
    theirs.append_message({"role": "user", "content": "continues the same branch"})
    with pytest.raises(StaleSessionError):
        mine.append_compaction("summary of a stale copy", first_kept, 10)
    # A plain append forks (the writers hold their own branches); that is the setting.
    mine.append_message({"role": "user", "content": "on my own branch"})


@pytest.mark.parametrize("on_stale", ["prepare-again", "error"])
def test_compact_session_prepares_again_or_refuses_when_the_file_moved_on(
    tmp_path: Path, on_stale: str
) -> None:
    path = tmp_path / "long.jsonl"
    write_session(path, seed=5, entries=300)
    mine = open_session(path)
    theirs = open_session(path)
    summaries: list[int] = []

    class Interleaving(EmbeddedSummarizer):
        """Summarizes, and the first time lets the other writer append meanwhile."""

        async def summarize(self, request: SummaryRequest) -> SummaryResult:
            if not summaries:
                theirs.append_message({"role": "user", "content": "meanwhile"})
            summaries.append(len(request.messages))
            return await super().summarize(request)

    settings = CompactionSettings(keep_recent_tokens=4000)
    if on_stale == "error":
        with pytest.raises(StaleSessionError):
            asyncio.run(compact_session(mine, Interleaving(), settings, on_stale="error"))
        assert not [e for e in read_session_file(path).entries[-1:] if e["type"] == "compaction"]
        return
    _, entry_id = asyncio.run(compact_session(mine, Interleaving(), settings))
    assert len(summaries) >= 2
    final = open_session(path, strict=True)
    assert final.leaf_id == entry_id
    assert final.require_entry(entry_id)["parentId"] == theirs.leaf_id
