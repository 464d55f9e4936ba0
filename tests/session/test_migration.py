"""Version 1 and 2 session files are migrated to version 3 in memory, never on disk."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from synopsis.session import Session, open_session, parse_session
from tests.session.builders import texts

V1_HEADER = {
    "type": "session",
    "id": "f00dcafe-0000-4000-8000-000000000001",
    "timestamp": "2025-06-01T08:00:00.000Z",
    "cwd": "/srv/orchard",
    "provider": "acme",
    "modelId": "acme-large-1",
}


def counter() -> Callable[[], str]:
    count = 0

    def next_id() -> str:
        nonlocal count
        count += 1
        return f"{count:08x}"

    return next_id


def v1_message(role: str, text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "timestamp": "2025-06-01T08:00:01.000Z",
        "message": {"role": role, "content": [{"type": "text", "text": text}]},
    }


def v1_file(*entries: dict[str, Any], header: dict[str, Any] = V1_HEADER) -> bytes:
    return b"".join(orjson.dumps(v) + b"\n" for v in (header, *entries))


def v1_with_compaction(first_kept_index: int) -> bytes:
    # line positions: header 0, then 1..6
    return v1_file(
        v1_message("user", "plant the apple trees"),  # 1
        v1_message("assistant", "planted"),  # 2
        {"type": "thinking_level_change", "timestamp": "t", "thinkingLevel": "high"},  # 3
        v1_message("user", "now water them"),  # 4
        {
            "type": "compaction",
            "timestamp": "2025-06-01T09:00:00.000Z",
            "summary": "Trees planted.",
            "firstKeptEntryIndex": first_kept_index,
            "tokensBefore": 1234,
        },  # 5
        {
            "type": "message",
            "timestamp": "t",
            "message": {"role": "hookMessage", "customType": "reminder", "content": "drink"},
        },  # 6
    )


def test_v1_entries_get_ids_in_file_order_and_a_linear_parent_chain() -> None:
    loaded = parse_session(v1_with_compaction(4), new_id=counter())
    assert loaded.migrated
    assert loaded.version_before is None
    assert loaded.header is not None and loaded.header["version"] == 3
    ids = [e["id"] for e in loaded.entries]
    assert ids == [f"{n:08x}" for n in range(1, 7)]
    assert [e["parentId"] for e in loaded.entries] == [None, *ids[:-1]]
    assert dict(loaded.header)["provider"] == "acme"  # extra v1 header fields stay


def test_v1_ids_are_eight_hex_unique_and_the_same_on_every_load() -> None:
    data = v1_with_compaction(4)
    loaded = parse_session(data)
    ids = [e["id"] for e in loaded.entries]
    assert all(re.fullmatch(r"[0-9a-f]{8}", i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert [e["id"] for e in parse_session(data).entries] == ids
    # Another session (another header id) gets other ids.
    other = data.replace(b'"type":"session","id":"', b'"type":"session","id":"x', 1)
    assert other != data
    assert not set(ids) & {e["id"] for e in parse_session(other).entries}


def test_first_kept_index_counts_the_header_as_position_zero() -> None:
    loaded = parse_session(v1_with_compaction(4), new_id=counter())
    compaction = loaded.entries[4]
    assert compaction["firstKeptEntryId"] == "00000004"  # the 4th line after the header
    assert "firstKeptEntryIndex" not in compaction
    session = Session(loaded.header, loaded.entries)
    context = session.build_context()
    assert texts(context.messages) == ["<Trees planted.>", "now water them", "drink"]


def test_first_kept_index_pointing_at_the_header_sets_no_id() -> None:
    loaded = parse_session(v1_with_compaction(0), new_id=counter())
    compaction = loaded.entries[4]
    assert "firstKeptEntryId" not in compaction
    assert "firstKeptEntryIndex" not in compaction


def test_hook_message_becomes_custom() -> None:
    loaded = parse_session(v1_with_compaction(4), new_id=counter())
    assert loaded.entries[5]["message"]["role"] == "custom"
    assert loaded.entries[5]["message"]["customType"] == "reminder"


def test_v2_keeps_its_ids_and_only_renames_hook_messages() -> None:
    header = {**V1_HEADER, "version": 2}
    entries: list[dict[str, Any]] = [
        {"type": "message", "id": "aa000001", "parentId": None, "timestamp": "t",
         "message": {"role": "user", "content": "hi"}},
        {"type": "message", "id": "aa000002", "parentId": "aa000001", "timestamp": "t",
         "message": {"role": "hookMessage", "customType": "x", "content": "psst"}},
    ]  # fmt: skip
    loaded = parse_session(v1_file(*entries, header=header))
    assert loaded.version_before == 2
    assert loaded.migrated
    assert [(e["id"], e["parentId"]) for e in loaded.entries] == [
        ("aa000001", None),
        ("aa000002", "aa000001"),
    ]
    assert loaded.entries[1]["message"]["role"] == "custom"


def test_v3_files_are_not_migrated() -> None:
    header = {**V1_HEADER, "version": 3}
    entry = {"type": "message", "id": "bb000001", "parentId": None, "timestamp": "t",
             "message": {"role": "hookMessage", "content": "left alone"}}  # fmt: skip
    loaded = parse_session(v1_file(entry, header=header))
    assert not loaded.migrated
    assert loaded.entries[0]["message"]["role"] == "hookMessage"


def test_opening_a_v1_file_never_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    data = v1_with_compaction(4)
    path.write_bytes(data)
    os.utime(path, ns=(2_000_000_000, 2_000_000_000))
    session = open_session(path)
    session.build_context()
    assert path.read_bytes() == data
    assert os.stat(path).st_mtime_ns == 2_000_000_000
    assert session.migrated


def test_migrated_session_saved_then_loaded_is_equal(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(v1_with_compaction(4))
    session = open_session(path, new_id=counter())
    out = tmp_path / "new.jsonl"
    session.save(out)
    again = open_session(out)
    assert not again.migrated
    assert again.version_before == 3
    assert again.header == session.header
    assert again.entries == session.entries
    assert again.leaf_id == session.leaf_id
    assert again.to_bytes() == out.read_bytes()


def test_first_append_to_a_migrated_file_rewrites_it_as_version_3(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(v1_with_compaction(4))
    session = open_session(path)
    new_id = session.append_message({"role": "user", "content": "and prune them"})
    lines = path.read_bytes().splitlines()
    assert orjson.loads(lines[0])["version"] == 3
    reopened = open_session(path)
    assert not reopened.migrated
    assert reopened.entries == session.entries
    assert reopened.leaf_id == new_id
    assert [e["parentId"] for e in reopened.entries][-1] == session.entries[-2]["id"]
