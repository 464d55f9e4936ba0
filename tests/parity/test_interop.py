"""Interoperability with Pi 1.6 files: what we write, Pi reads as Pi would have written it.

A session written by Pi 1.6 (from ``../shared/fixtures/pi16/``) is compacted by synopsis
and saved; the context built from the saved file must be the one Pi 1.6 builds after such
a compaction, derived from Pi's own expected outputs for the original file: its system
prompt first (the new compaction carries it as ``systemMessage``), the summary, then the
non-system messages after the cut Pi chose (``prepare-k*.json``), with Pi's estimates
(``context.json``). Files we write also round-trip byte for byte.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from synopsis.compaction import CompactionSettings
from synopsis.compaction.orchestrate import compact_session
from synopsis.session import open_session
from synopsis.system_messages import current_system_message
from tests.parity.cases import FIXTURES, run_driver

SESSIONS = FIXTURES / "sessions"
EXPECTED = FIXTURES / "expected"

pytestmark = pytest.mark.skipif(not SESSIONS.is_dir(), reason=f"{FIXTURES} is not present")

# Sessions and keep budgets where Pi 1.6 has something to compact (prepare is not null).
COMPACTED = [
    ("pi16-system-messages", 2000),
    ("pi16-failed-attempts", 2000),
    ("pi16-replace-output", 8000),
    ("pi16-retain-none", 2000),
    ("pi16-cut-in-kept", 2000),
    ("pi16-edit-kept-range", 2000),
    ("pi16-nested-calls", 8000),
    ("pi16-recovery-tail", 2000),
    ("pi16-odd-blocks", 2000),
]


def _expected(name: str, output: str) -> Any:
    return json.loads((EXPECTED / name / output).read_text(encoding="utf-8"))


def _driver_json(*argv: str) -> Any:
    code, out, err = run_driver(list(argv))
    assert code == 0, err
    return json.loads(out)


def _pi_context_after(name: str, keep: int) -> dict[str, Any]:
    """The context Pi 1.6 builds after compacting at Pi's own cut (from its outputs)."""
    before = _expected(name, "context.json")
    prepared = _expected(name, f"prepare-k{keep}.json")
    assert prepared is not None, "Pi has nothing to compact here: pick another budget"
    roles: list[str] = before["roles"]
    tokens: list[int] = before["perMessageTokens"]
    # The leading system prompt and summary of the compaction in force are replaced.
    lead = 0
    if prepared["prevCompactionIndex"] >= 0:
        lead = roles.index("compactionSummary") + 1
    rest = [(r, t) for r, t in zip(roles[lead:], tokens[lead:], strict=True) if r != "system"]
    summarized = prepared["messagesToSummarizeCount"] + prepared["turnPrefixMessagesCount"]
    kept = rest[summarized:]
    system = before["currentSystemMessageTokens"]
    head = ["system"] if system is not None else []
    return {
        "roles": [*head, "compactionSummary", *(r for r, _ in kept)],
        "keptTokens": [t for _, t in kept],
        "currentSystemMessageTokens": system,
        "firstKeptEntryId": prepared["firstKeptEntryId"],
    }


@pytest.mark.parametrize(("name", "keep"), COMPACTED, ids=[f"{n}-k{k}" for n, k in COMPACTED])
def test_a_pi16_session_compacted_by_us_gives_the_context_pi_builds(
    name: str, keep: int, tmp_path: Path
) -> None:
    path = tmp_path / f"{name}.jsonl"
    shutil.copyfile(SESSIONS / f"{name}.jsonl", path)
    session = open_session(path)
    settings = CompactionSettings(keep_recent_tokens=keep, reserve_tokens=16384)
    result, entry_id = asyncio.run(compact_session(session, settings=settings))
    want = _pi_context_after(name, keep)
    assert result.first_kept_entry_id == want["firstKeptEntryId"]

    got = _driver_json("context", str(path))  # read back from the file we appended to
    assert got["leafId"] == entry_id
    assert got["roles"] == want["roles"]
    kept_tokens = got["perMessageTokens"][len(got["roles"]) - len(want["keptTokens"]) :]
    assert kept_tokens == want["keptTokens"]
    assert got["currentSystemMessageTokens"] == want["currentSystemMessageTokens"]
    assert not got["firstKeptEntryMissing"]
    # usage recorded before our compaction no longer counts
    assert got["projectedContextTokens"]["lastUsageIndex"] is None
    # and the compaction after ours starts where Pi would: at our first kept entry
    again = _driver_json("prepare", str(path), "--keep-recent", "100", "--reserve", "16384")
    if again is not None:
        assert again["prevCompactionIndex"] == got["branchLength"] - 1


def test_our_compaction_carries_the_current_system_prompt(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    shutil.copyfile(SESSIONS / "pi16-system-messages.jsonl", path)
    session = open_session(path)
    before = current_system_message(session.build_context().messages)
    settings = CompactionSettings(keep_recent_tokens=2000, reserve_tokens=16384)
    _, entry_id = asyncio.run(compact_session(session, settings=settings))
    entry = open_session(path).require_entry(entry_id)
    assert before is not None
    carried = entry["systemMessage"]
    assert {k: v for k, v in carried.items() if k != "timestamp"} == {
        k: v for k, v in before.items() if k != "timestamp"
    }
    from synopsis.session.context import iso_to_ms

    assert carried["timestamp"] == iso_to_ms(entry["timestamp"])


def test_pi_written_compactions_carry_what_our_replay_gives() -> None:
    """Every ``systemMessage`` Pi 1.6 wrote is the replay of the context before it."""
    checked = 0
    for path in sorted(SESSIONS.glob("*.jsonl")):
        session = open_session(path, duplicates="last-wins")
        for entry in session.entries:
            system = entry.get("systemMessage") if entry["type"] == "compaction" else None
            if system is None:
                continue
            context = session.build_context(entry["parentId"])
            replayed = current_system_message(context.messages)
            assert replayed is not None
            assert {k: v for k, v in replayed.items() if k != "timestamp"} == {
                k: v for k, v in system.items() if k != "timestamp"
            }, f"{path.name}: {entry['id']}"
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("path", sorted(SESSIONS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_pi16_files_round_trip_byte_for_byte(path: Path, tmp_path: Path) -> None:
    session = open_session(path, duplicates="last-wins")
    out = tmp_path / path.name
    session.save(out, durable=False)
    assert out.read_bytes() == path.read_bytes()


def test_a_file_we_write_round_trips_byte_for_byte(tmp_path: Path) -> None:
    """A session we wrote (system messages, edits, a compaction with its prompt) reloads
    and saves to the same bytes."""
    path = tmp_path / "ours.jsonl"
    shutil.copyfile(SESSIONS / "pi16-failed-attempts.jsonl", path)
    session = open_session(path)
    settings = CompactionSettings(keep_recent_tokens=2000, reserve_tokens=16384)
    asyncio.run(compact_session(session, settings=settings))
    written = path.read_bytes()
    again = open_session(path)
    copy = tmp_path / "copy.jsonl"
    again.save(copy, durable=False)
    assert copy.read_bytes() == written
    rendered = tmp_path / "rendered.jsonl"
    from synopsis.session import render_session

    rendered.write_bytes(render_session(again.header, again.entries))
    assert open_session(rendered).entries == again.entries
    assert render_session(open_session(rendered).header, open_session(rendered).entries) == (
        rendered.read_bytes()
    )
