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
