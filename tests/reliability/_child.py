"""A writer process for the kill and concurrency tests (run as a script, not imported).

Every id is printed on its own line only after the append that wrote it has returned:
a printed id is an acknowledged entry.

    _child.py loop PATH SEED BIG      append (and compact) forever
    _child.py migrate PATH            open an old-format file, append one entry
    _child.py concurrent PATH TAG N IDS
                                      wait for a line on stdin, append N entries, print
                                      "done", wait for stdin to close
"""

from __future__ import annotations

import itertools
import random
import sys
import time

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.session import FileSession, open_session


def _ack(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _compact(session: FileSession, settings: CompactionSettings) -> str:
    """Append a compaction the way an agent does: prepare, then record the checkpoint."""
    preparation = prepare_compaction(session.path(), settings)
    if preparation is None:
        first_kept = session.path()[-1]["id"]
        tokens_before = 0
    else:
        first_kept = preparation.first_kept_entry_id
        tokens_before = preparation.tokens_before
    return session.append_compaction(
        f"checkpoint after {len(session.entries)} entries", first_kept, tokens_before
    )


def _message(number: int, size: int, tag: str) -> dict[str, object]:
    text = f"{tag} #{number} " + "x" * size
    if number % 2:
        return {"role": "user", "content": text}
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def loop(path: str, seed: int, big_every: int) -> None:
    """Append forever; with ``big_every`` > 0, every so many entries an 8 MB one.

    Before a big append the child prints ``writing``, so the parent can aim its kill at
    the middle of the write: a SIGKILL there leaves a torn line, which is the hard case.
    """
    rng = random.Random(seed)
    session = open_session(path, create=True, cwd="/kill-test")
    settings = CompactionSettings(keep_recent_tokens=200)
    _ack("ready")
    number = len(session.entries)
    while True:
        number += 1
        size = rng.choice([10, 100, 1000, 5000])
        if big_every and number % big_every == 0:
            size = 8_000_000
            _ack("writing")
        _ack(session.append_message(_message(number, size, f"seed {seed}")))
        if number % 5 == 0:
            _ack(_compact(session, settings))


def migrate(path: str) -> None:
    session = open_session(path)
    _ack("ready")
    _ack(session.append_message({"role": "user", "content": "after migration"}))
    time.sleep(60)  # wait for the kill


def concurrent(path: str, tag: str, count: int, ids: str) -> None:
    """``ids="colliding"``: every writer proposes the same ids (c0001, c0002, ...)."""
    counter = itertools.count(1)
    new_id = (lambda: f"c{next(counter):04d}") if ids == "colliding" else None
    # Each writer holds its own branch of the shared file (see FileSession's on_stale).
    session = open_session(
        path, create=True, cwd="/concurrency-test", new_id=new_id, on_stale="fork"
    )
    settings = CompactionSettings(keep_recent_tokens=50)
    _ack("ready")
    sys.stdin.readline()
    for number in range(count):
        _ack(session.append_message(_message(number, number % 7, tag)))
        if number % 10 == 9:
            _ack(_compact(session, settings))
    _ack("done")
    sys.stdin.read()


def main(argv: list[str]) -> None:
    command, path, *rest = argv
    if command == "loop":
        loop(path, int(rest[0]), int(rest[1]))
    elif command == "migrate":
        migrate(path)
    elif command == "concurrent":
        concurrent(path, rest[0], int(rest[1]), rest[2])
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
