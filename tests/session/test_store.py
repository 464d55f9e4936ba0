"""File-backed sessions: appends go to the file, reloading gives the same session."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from synopsis.errors import SessionFormatError
from synopsis.session import FileSession, open_session, read_session_file, render_session
from tests.session.builders import assistant, call, tool_result, user


def fill(session: FileSession) -> None:
    """One entry of every type, with a branch and a branch summary."""
    root = session.append_message(user("map the orchard"))
    session.append_model_change("acme", "acme-large-2")
    session.append_thinking_level_change("medium")
    session.append_message(assistant("", calls=[call("c1", "read", {"path": "map.txt"})]))
    session.append_message(tool_result("c1", "rows: 12 — 中文 \U0001f34e"))
    session.append_custom("tracker", {"rows": 12, "ratio": 0.1 + 0.2})
    session.append_custom_message("hint", "frost on the 14th")
    session.append_label(root, "start")
    session.append_session_info("orchard survey")
    session.append_compaction("surveyed", root, 321, {"readFiles": ["map.txt"]})
    session.branch(root)
    session.branch_with_summary(root, "the other way was flooded")
    session.append_message(assistant("done", stop="stop"))


def test_created_session_is_written_on_first_append(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    session = open_session(path, create=True, cwd="/orchard")
    assert not path.exists()  # opening wrote nothing
    assert session.header["cwd"] == "/orchard"
    session.append_message(user("hello"))
    lines = path.read_bytes().splitlines()
    assert len(lines) == 2
    assert orjson.loads(lines[0]) == session.header
    assert orjson.loads(lines[1]) == session.entries[0]


def test_appends_then_reload_gives_an_equal_session(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    fill(session)
    again = open_session(path)
    assert again.header == session.header
    assert again.entries == session.entries
    assert again.leaf_id == session.leaf_id
    assert again.labels() == session.labels()
    assert again.name == "orchard survey"
    assert again.skipped == []
    assert again.build_context().messages == session.build_context().messages
    assert again.to_bytes() == path.read_bytes()


def test_appends_to_an_existing_file_leave_its_bytes_in_front(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    fill(session)
    before = path.read_bytes()
    reopened = open_session(path)
    reopened.append_message(user("one more"))
    after = path.read_bytes()
    assert after.startswith(before)
    assert after[len(before) :].count(b"\n") == 1
    assert reopened.to_bytes() == after


def test_append_after_a_torn_last_line_starts_a_new_line(tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    session = open_session(path, create=True)
    session.append_message(user("a"))
    with path.open("ab") as handle:
        handle.write(b'{"type":"message","id":"half')  # a crash mid-write
    reopened = open_session(path)
    assert [s.line for s in reopened.skipped] == [3]
    new_id = reopened.append_message(user("b"))
    again = open_session(path)
    assert again.leaf_id == new_id
    assert [s.line for s in again.skipped] == [3]


def test_unchanged_session_saves_the_bytes_it_was_read_from(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    header = b'{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/","extra":1.0}'
    entry = (
        b'{"type":"future_thing","id":"f1","parentId":null,"timestamp":"t",'
        b'"n":1e-7,"big":12345678901234567890,"z":-0.0,"s":"\\u00e9\xe2\x80\xa8"}'
    )
    data = header + b"\r\n\r\n" + entry + b"\r\n{not json\r\n"
    path.write_bytes(data)
    session = open_session(path)
    assert [e["type"] for e in session.entries] == ["future_thing"]
    assert session.to_bytes() == data
    out = tmp_path / "copy.jsonl"
    session.save(out)
    assert out.read_bytes() == data


def test_render_session_writes_one_line_per_entry(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    fill(session)
    rendered = render_session(session.header, session.entries)
    assert rendered.count(b"\n") == len(session.entries) + 1
    assert rendered == path.read_bytes()  # appends and a full render agree byte for byte


def test_save_replaces_the_target_atomically(tmp_path: Path) -> None:
    source = tmp_path / "s.jsonl"
    session = open_session(source, create=True)
    fill(session)
    target = tmp_path / "target.jsonl"
    target.write_bytes(b"old contents\n")
    session.save(target)
    assert target.read_bytes() == source.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl", "target.jsonl"]


def test_durable_appends_work_the_same(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    session = open_session(path, create=True, durable=True)
    session.append_message(user("kept safe"))
    assert read_session_file(path).entries == session.entries


def test_skipped_lines_are_listed_and_strict_refuses(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    session.append_message(user("a"))
    with path.open("ab") as handle:
        handle.write(b"garbage\n")
    assert [s.line for s in open_session(path).skipped] == [3]
    with pytest.raises(SessionFormatError, match=":3:"):
        open_session(path, strict=True)


def test_appending_to_a_blank_file_writes_a_header_first(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n\n")
    session = open_session(path)
    new_id = session.append_message(user("first words"))
    again = open_session(path)
    assert again.header == session.header
    assert again.leaf_id == new_id


def test_appends_to_a_file_opened_as_new_session_are_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(b'{"type":"not-a-header"}\n')
    session = open_session(path, invalid_header="new-session")
    try:
        new_id = session.append_message(user("hello"))
    except SessionFormatError:
        return  # refusing to append is an acceptable fix
    again = open_session(path, invalid_header="new-session")
    assert again.leaf_id == new_id
