"""Issue 12's size check on Pi's own recorded session: ``large-session.jsonl`` compacted
offline (the real CLI, embedded summarizer, no model) gives a checkpoint of at most 6k
characters that still has its sections. Reads ``../shared`` and skips where it is absent.

A change to what the working state keeps can push this over the limit without any unit
test noticing (a hasty English line read as another language once did: 5,931 → 6,004)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli._run import synopsis

LARGE_SESSION = (
    Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi" / "sessions"
    / "large-session.jsonl"
)  # fmt: skip
MAX_CHECKPOINT_CHARS = 6000


def test_large_session_checkpoint_fits_six_thousand_characters(tmp_path: Path) -> None:
    if not LARGE_SESSION.is_file():
        pytest.skip("large-session.jsonl is not present")
    copy = tmp_path / "large-session.jsonl"
    copy.write_bytes(LARGE_SESSION.read_bytes())
    report = json.loads(synopsis("compact", copy, "--dry-run", "--json").stdout)
    summary = report["summary"]
    assert len(summary) <= MAX_CHECKPOINT_CHARS
    for heading in ("## Goal", "## Constraints & Preferences", "## Progress", "## Next Steps"):
        assert heading in summary
    assert copy.read_bytes() == LARGE_SESSION.read_bytes()  # a dry run appends nothing
