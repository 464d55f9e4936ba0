"""Deterministic generator of long, realistic coding-agent sessions in Pi's v3 format.

Why it exists: compaction has to be tested and benchmarked on sessions far longer than any
we can record and share, and fidelity can only be measured when we know exactly which
facts a summary must keep. A seed names one session byte for byte, and the facts planted
in it (goal, user constraints, identifiers) come back as metadata with the id of the entry
that holds each one.

>>> s = generate_session(seed=7, entries=200)
>>> len(s.entries)
200
>>> all(f.text in str(next(e for e in s.entries if e["id"] == f.entry_id)) for f in s.facts)
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from synopsis.errors import SettingsError
from synopsis.session.jsonl import render_session, write_atomically
from tests.synthetic._session import Builder, PlantedFact

__all__ = ["LANGUAGES", "GeneratedSession", "PlantedFact", "generate_session", "write_session"]

LANGUAGES = ("en", "zh")
DEFAULT_START_TIME_MS = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z


@dataclass(frozen=True)
class GeneratedSession:
    """A generated session: the header line, the entries and the planted facts.

    Kept as plain dicts (exactly what goes on each line) rather than typed entries, so the
    generator stays independent of the session model it is used to test.
    """

    header: dict[str, Any]
    entries: list[dict[str, Any]]
    facts: list[PlantedFact]

    def to_jsonl(self) -> bytes:
        """The session file: header line plus one compact JSON line per entry, each ending in
        ``\\n``, as Pi writes it."""
        return render_session(self.header, self.entries)


def generate_session(
    seed: int,
    entries: int,
    *,
    language: str = "en",
    start_time_ms: int = DEFAULT_START_TIME_MS,
) -> GeneratedSession:
    """Generate a session with exactly ``entries`` entries after the header.

    The same arguments always give the same bytes: every choice comes from
    ``random.Random(seed)`` and time advances from ``start_time_ms``, never from the clock.
    ``language="zh"`` makes the user (and the assistant's prose) mostly Chinese; code and
    tool output stay English, as they would in a real project.
    """
    if language not in LANGUAGES:
        raise SettingsError(f"unknown language {language!r}; use one of: {', '.join(LANGUAGES)}")
    if entries < 0:
        raise SettingsError(f"entries must be >= 0, got {entries}")
    header, body, facts = Builder(seed, entries, language, start_time_ms).build()
    return GeneratedSession(header=header, entries=body, facts=facts)


def write_session(
    path: str | os.PathLike[str],
    seed: int,
    entries: int,
    *,
    language: str = "en",
) -> GeneratedSession:
    """Generate a session and write it to ``path`` atomically.

    The file appears complete or not at all (written to a temporary file in the same
    folder, then renamed), so an interrupted run never leaves a half-written session that a
    benchmark would then load by mistake.
    """
    session = generate_session(seed, entries, language=language)
    write_atomically(path, session.to_jsonl(), durable=False)
    return session
