"""Errors a user can cause, each saying what happened and what to do.

Every exception synopsis raises on purpose derives from :class:`SynopsisError`, so an
application can catch one type; the CLI prints its message on one line and exits non-zero.
"""

from __future__ import annotations


class SynopsisError(Exception):
    """Base class of every error synopsis raises on purpose."""


class SessionFormatError(SynopsisError):
    """A session file cannot be read as a session (bad header, bad line in strict mode)."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)
        self.path = path
        self.line = line


class SessionChangedError(SessionFormatError):
    """The file under an open session changed in a way the session cannot follow.

    It was replaced by another file, deleted, truncated, or its header was rewritten:
    appending would put the entry into some other session, or into a file holding nothing
    else. Nothing was written; open the file again.
    """


class StaleSessionError(SessionChangedError):
    """Another writer appended to the session file since this session last looked.

    Appending on the leaf this session knew would fork the tree behind the other writer's
    back (its acknowledged entries would fall off the path). Nothing was written; the other
    writer's entries have been read into the session and its leaf moved to the file's last
    entry, so the caller can prepare again (a compaction) or append again.
    """


class SessionTreeError(SynopsisError):
    """The entries do not form a tree (duplicate ids, parent cycles)."""


class DuplicateEntryIdError(SessionTreeError):
    def __init__(self, entry_id: str, *, path: str | None = None, line: int | None = None):
        where = f"{path}:{line}: " if path is not None and line is not None else ""
        super().__init__(
            f"{where}entry id {entry_id!r} is used by more than one entry; "
            "run `synopsis doctor` to see the damage"
        )
        self.entry_id = entry_id


class ParentCycleError(SessionTreeError):
    def __init__(self, start_id: str, repeated_id: str):
        super().__init__(
            "parent cycle in session tree: walking parentId links from entry "
            f'"{start_id}" reaches entry "{repeated_id}" a second time'
        )
        self.start_id = start_id
        self.repeated_id = repeated_id


class EntryNotFoundError(SynopsisError, KeyError):
    def __init__(self, entry_id: str):
        super().__init__(f"Entry {entry_id} not found")
        self.entry_id = entry_id

    def __str__(self) -> str:
        return str(self.args[0])


class SettingsError(SynopsisError, ValueError):
    """A setting is out of range or inconsistent with another."""


class CompactionError(SynopsisError):
    """Compaction could not run (nothing to compact, already compacted, cancelled)."""


class SummarizerError(SynopsisError):
    """A summarizer failed: the model was unreachable, refused, or replied unusably."""
