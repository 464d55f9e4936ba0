"""``driver.py prepare`` prints the same thing whether it skims the file or loads it.

The driver skims a current-version file (message bodies stay bytes: the cut, the token
counts, the file lists and the transcript read them from their lines); the oracle is the
same command on the session opened the usual way, every body decoded, going through the
plain serializer. Generated trees have branches (a parent drawn among earlier entries,
the leaf anywhere), compactions (kept parts that start on the branch, elsewhere, or
nowhere), context edits, and messages of every role with odd texts (see
``tests/compaction/test_skimmed_transcript.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.compaction.test_skimmed_transcript import _SHORT, _calling_message, _line, _message
from tests.parity import driver
from tests.session.test_loader import HEADER


@st.composite
def _session(draw: st.DrawFn) -> list[bytes]:
    lines = [json.dumps(HEADER).encode()]
    ids: list[str] = []
    for number in range(draw(st.integers(1, 24))):
        entry_id = f"e{number}"
        parent = ids[-1] if ids else None
        if ids and draw(st.integers(0, 5)) == 0:  # a branch
            parent = draw(st.sampled_from([None, *ids[-4:], *ids[:1]]))
        kind = draw(st.sampled_from(["message"] * 12 + ["compaction", "context_edit", "label"]))
        entry: dict[str, Any] = {"type": kind, "id": entry_id, "parentId": parent}
        if kind == "message":
            entry["message"] = draw(_message() | _calling_message())
        elif kind == "compaction":
            kept = draw(st.sampled_from([*ids, "missing"])) if ids else "missing"
            entry.update(summary=draw(_SHORT), firstKeptEntryId=kept, tokensBefore=5)
            entry["details"] = {"readFiles": ["r.md"], "modifiedFiles": []}
        elif kind == "context_edit":
            target = draw(st.sampled_from(ids)) if ids else "missing"
            replacement = draw(st.sampled_from([None, {"content": "edited"}]))
            entry.update(targetId=target, replacement=replacement)
        else:
            entry.update(targetId=entry_id, label="l")
        lines.append(_line(entry, draw(st.booleans())))
        ids.append(entry_id)
    return lines


@settings(max_examples=150, deadline=None)
@given(_session(), st.sampled_from([1, 5, 40, 400]))
def test_prepare_prints_the_same_skimmed_or_loaded(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], keep: int
) -> None:
    path = tmp_path_factory.mktemp("driver") / "session.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    skimmed = driver._skimmed(str(path))
    assert skimmed is not None
    expected = driver.prepare_command(driver._open(str(path)), keep, 100)
    assert driver.prepare_command(skimmed, keep, 100) == expected


def test_the_oracle_is_not_the_skim(tmp_path: Path) -> None:
    """The loaded session holds full messages: its transcript goes through the plain
    serializer, not the heads' renderer."""
    path = tmp_path / "s.jsonl"
    entry = {"type": "message", "id": "a", "parentId": None}
    entry["message"] = {"role": "user", "content": "hi"}
    path.write_bytes(json.dumps(HEADER).encode() + b"\n" + json.dumps(entry).encode() + b"\n")
    messages = [entry["message"] for entry in driver._open(str(path)).entries]
    assert all(type(message) is dict for message in messages)
