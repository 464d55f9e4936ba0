"""Pi's own session files (``../shared/fixtures/pi``): load, save byte for byte, never write.

Skipped when the shared fixtures are absent; nothing here is copied into the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from synopsis.errors import SynopsisError
from synopsis.session import open_session, read_session_file

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi"
FILES = sorted([*FIXTURES.glob("sessions/*.jsonl"), *FIXTURES.glob("edge/*.jsonl")])
IDS = [str(path.relative_to(FIXTURES)) for path in FILES]

pytestmark = pytest.mark.skipif(not FILES, reason="shared fixtures are not present")


def _current_version(path: Path) -> bool:
    """Does ``path`` load as a version-3 session without migration?"""
    try:
        loaded = read_session_file(path)
        open_session(path)
    except SynopsisError:
        return False
    return loaded.header is not None and not loaded.migrated


V3 = [path for path in FILES if _current_version(path)]


def _migrated(path: Path) -> bool:
    try:
        return read_session_file(path).migrated
    except SynopsisError:
        return False


MIGRATED = [path for path in FILES if _migrated(path)]


def test_the_selection_covers_what_matters() -> None:
    names = {path.name for path in V3}
    assert "edge-orphan-parent.jsonl" in names
    assert "synth-s05-n132.jsonl" in names
    assert {path.name for path in MIGRATED} >= {"large-session.jsonl", "synth-v2-s21-n300.jsonl"}


@pytest.mark.parametrize("path", V3, ids=[str(p.relative_to(FIXTURES)) for p in V3])
def test_saving_a_v3_file_gives_the_same_bytes(path: Path, tmp_path: Path) -> None:
    session = open_session(path)
    out = tmp_path / path.name
    session.save(out, durable=False)
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", MIGRATED, ids=[str(p.relative_to(FIXTURES)) for p in MIGRATED])
def test_migrated_file_saved_then_loaded_is_equal(path: Path, tmp_path: Path) -> None:
    session = open_session(path)
    out = tmp_path / path.name
    session.save(out, durable=False)
    again = open_session(out)
    assert not again.migrated
    assert again.header == session.header
    assert again.entries == session.entries
    assert again.leaf_id == session.leaf_id
    assert again.build_context().messages == session.build_context().messages


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_opening_never_writes_the_file(path: Path) -> None:
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    try:
        session = open_session(path, invalid_header="new-session", duplicates="last-wins")
    except SynopsisError:
        pass  # cycles are an error; the point is the file stays as it was
    else:
        session.build_context()
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before


def test_large_recorded_session_loads_into_a_long_context() -> None:
    path = FIXTURES / "sessions" / "large-session.jsonl"
    if not path.exists():
        pytest.skip("large-session fixture absent")
    session = open_session(path)
    messages = [e for e in session.entries if e["type"] == "message"]
    assert len(session.entries) > 100
    assert len(messages) > 100
    context = session.build_context()
    assert len(context.messages) == len(messages)  # linear, no compaction
    assert context.model is not None
