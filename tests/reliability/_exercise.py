"""Everything a program does with a session it loaded, to prove damaged input cannot crash it.

Loading may refuse a file with a :class:`SynopsisError`; anything else that escapes (a
``TypeError`` from a malformed block, a ``RecursionError``, a ``KeyError``) is a bug. The
input file must be byte-for-byte the same afterwards, with the same modification time.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.compaction.serialize import serialize_conversation
from synopsis.errors import SynopsisError
from synopsis.messages import convert_to_llm
from synopsis.session import FileSession, open_session, parse_session, read_session_file
from synopsis.session.doctor import diagnose, repair_bytes
from synopsis.session.tree import Session
from synopsis.tokens import estimate_context_tokens

_SETTINGS = (
    CompactionSettings(keep_recent_tokens=0),
    CompactionSettings(keep_recent_tokens=40),
    CompactionSettings(keep_recent_tokens=20000),
    CompactionSettings(keep_recent_messages=2),
)
_MAX_LEAVES = 40


class CaseTookTooLong(Exception):
    """One fuzz case used more CPU time than any sane input needs: a hang."""


@contextmanager
def cpu_time_limit(seconds: float) -> Iterator[None]:
    """Fail the current case after ``seconds`` of CPU time.

    CPU time (``ITIMER_VIRTUAL``) rather than wall time, so a loaded machine does not
    make it flaky, and SIGVTALRM so it does not collide with pytest-timeout's SIGALRM.
    A case blocked without using CPU is left to pytest-timeout.
    """

    def expire(signum: int, frame: FrameType | None) -> None:
        raise CaseTookTooLong(f"more than {seconds} s of CPU time")

    previous = signal.signal(signal.SIGVTALRM, expire)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def use_session(session: Session, max_leaves: int = _MAX_LEAVES) -> None:
    """Build the context and prepare a compaction at several leaves, with several settings."""
    session.tree()
    session.labels()
    _ = session.name
    recent = session.entries[max(0, len(session.entries) - max_leaves) :]
    leaves = [None, *(entry["id"] for entry in recent)]
    for leaf in leaves:
        context = session.build_context(leaf)
        llm = convert_to_llm(context.messages)
        serialize_conversation(llm)
        estimate_context_tokens(context.messages)
        branch = session.path(leaf)
        for settings in _SETTINGS:
            try:
                preparation = prepare_compaction(branch, settings)
            except SynopsisError:
                continue
            if preparation is not None:
                serialize_conversation(convert_to_llm(preparation.messages_to_summarize))
                serialize_conversation(convert_to_llm(preparation.turn_prefix_messages))
                preparation.file_ops.file_lists()


def exercise_file(path: Path, max_leaves: int = _MAX_LEAVES) -> list[FileSession]:
    """Load ``path`` every way there is and use what loads; returns the sessions opened.

    Raises only what a bug would raise; asserts the file was not touched.
    """
    before = path.read_bytes()
    mtime = os.stat(path).st_mtime_ns
    opened: list[FileSession] = []
    for options in (
        {},
        {"duplicates": "last-wins", "invalid_header": "new-session"},
        {"strict": True},
    ):
        try:
            session = open_session(path, **options)
        except SynopsisError:
            continue
        use_session(session, max_leaves)
        session.to_bytes()
        opened.append(session)
    with suppress(SynopsisError):
        read_session_file(path, strict=True)
    diagnose(path)
    repaired, _ = repair_bytes(before)
    loaded = parse_session(repaired, strict=True)  # a repaired copy always loads strictly
    use_session(Session(loaded.header, loaded.entries), max_leaves)
    assert path.read_bytes() == before, "loading or checking wrote to the input file"
    assert os.stat(path).st_mtime_ns == mtime
    return opened
