"""In-memory migration of version 1 and 2 session files to version 3.

Version 1 files have no entry ids: every entry gets one, chained to the previous entry
(derived from the session id and the entry's position, so that loading the same file
twice gives the same ids and ``--leaf ID`` from one run works in the next),
and a compaction's ``firstKeptEntryIndex`` (a line position, the header being 0) becomes
``firstKeptEntryId``. Version 2 stored extension messages with the role ``hookMessage``,
now ``custom``. Migration changes the dicts it is given and nothing on disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from synopsis.session.entries import CURRENT_VERSION, Entry


def random_entry_id(taken: set[str] | dict[str, Any] | None = None) -> str:
    """A fresh 8-hex-character id, not in ``taken``.

    ``os.urandom(n).hex()`` is what ``secrets.token_hex(n)`` computes, without importing
    ``secrets`` (and ``random``, ``hmac``, ``base64``) into every process that loads a session.
    """
    for _ in range(100):
        candidate = os.urandom(4).hex()
        if taken is None or candidate not in taken:
            return candidate
    return os.urandom(16).hex()


def migrate_entries(
    header: dict[str, Any],
    entries: list[Entry],
    version: int,
    *,
    new_id: Callable[[], str] | None = None,
) -> None:
    """Bring ``header`` and ``entries`` from ``version`` to the current version in place."""
    if version < 2:
        _v1_to_v2(entries, new_id or _derived_ids(str(header.get("id", ""))))
    if version < 3:
        for entry in entries:
            if isinstance(entry, dict) and entry.get("type") == "message":
                message = entry.get("message")
                if isinstance(message, dict) and message.get("role") == "hookMessage":
                    message["role"] = "custom"
    header["version"] = CURRENT_VERSION


def _derived_ids(session_id: str) -> Callable[[], str]:
    """8-hex-character ids from the session id and a counter: the same file, the same ids."""
    import hashlib  # here: loading it costs a CLI start more than the rest of this module

    count = 0

    def next_id() -> str:
        nonlocal count
        count += 1
        digest = hashlib.blake2b(f"{session_id}\0{count}".encode(errors="replace"), digest_size=4)
        return digest.hexdigest()

    return next_id


def _v1_to_v2(entries: list[Entry], new_id: Callable[[], str]) -> None:
    taken: set[str] = set()
    previous: str | None = None
    objects = [entry for entry in entries if isinstance(entry, dict)]
    for entry in objects:
        entry_id = new_id()
        for _ in range(100):  # derived ids collided: the next ones are just as reproducible
            if entry_id not in taken:
                break
            entry_id = new_id()
        else:  # an id source that keeps repeating itself
            entry_id = random_entry_id(taken)
        taken.add(entry_id)
        entry["id"] = entry_id
        entry["parentId"] = previous
        previous = entry_id
    for entry in objects:
        if entry.get("type") != "compaction" or "firstKeptEntryIndex" not in entry:
            continue
        index = entry.pop("firstKeptEntryIndex")
        # v1 counted the header as position 0.
        if isinstance(index, int) and not isinstance(index, bool) and 1 <= index <= len(entries):
            target = entries[index - 1]
            if isinstance(target, dict):
                entry["firstKeptEntryId"] = target["id"]
