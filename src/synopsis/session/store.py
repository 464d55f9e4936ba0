"""File-backed sessions: open a JSONL session file as a :class:`Session`, append to it.

An append is one ``write`` of a complete line under an exclusive ``flock``, followed by
a flush (and ``fsync`` when ``durable``): a crash leaves at most one torn final line, and
two processes appending to the same file never interleave. A file that was migrated from
an old format is rewritten as version 3 (to a temporary file renamed into place) only
when the first new entry is appended; opening a file never writes to it.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from synopsis.errors import SessionFormatError
from synopsis.session.entries import Entry, SessionHeader
from synopsis.session.jsonl import (
    InvalidHeaderPolicy,
    LoadedSession,
    SkippedLine,
    dump_line,
    read_session_file,
    render_session,
    write_atomically,
)
from synopsis.session.tree import DuplicatePolicy, Session, new_header


class SessionWriter:
    """Appends entries to one session file (see the module docstring for the guarantees)."""

    def __init__(self, path: str | os.PathLike[str], *, durable: bool = False) -> None:
        self.path = Path(path)
        self.durable = durable

    @contextmanager
    def _locked(self) -> Iterator[int]:
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            os.close(fd)  # closing releases the lock

    def append(self, header: SessionHeader, entry: Entry) -> None:
        line = dump_line(entry)
        with self._locked() as fd:
            size = os.fstat(fd).st_size
            if size == 0:
                line = dump_line(header) + line
            elif os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # never glue a new entry onto a torn line
            self._write_all(fd, line)

    def _write_all(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if self.durable:
            os.fsync(fd)

    def rewrite(self, header: SessionHeader, entries: Sequence[Entry]) -> None:
        """Replace the whole file atomically with ``header`` and ``entries``."""
        write_atomically(self.path, render_session(header, entries), durable=self.durable)


class _FileSink:
    """Connects a :class:`Session` to its file, rewriting a migrated file on first append."""

    def __init__(self, writer: SessionWriter, session_entries: list[Entry], rewrite: bool):
        self._writer = writer
        self._entries = session_entries
        self._rewrite_pending = rewrite

    def write_entry(self, header: SessionHeader, entry: Entry) -> None:
        if self._rewrite_pending:
            self._writer.rewrite(header, [*self._entries, entry])
            self._rewrite_pending = False
            return
        self._writer.append(header, entry)


class FileSession(Session):
    """A :class:`Session` whose appends go to its JSONL file as they happen."""

    def __init__(
        self,
        path: Path,
        header: SessionHeader,
        loaded: LoadedSession | None,
        *,
        durable: bool,
        duplicates: DuplicatePolicy,
        new_id: Callable[[], str] | None,
    ) -> None:
        super().__init__(
            header,
            loaded.entries if loaded is not None else (),
            new_id=new_id,
            duplicates=duplicates,
            entry_lines=loaded.entry_lines if loaded is not None else None,
            source_path=str(path),
        )
        self.file_path = path
        self.skipped: list[SkippedLine] = loaded.skipped if loaded is not None else []
        self.migrated = loaded is not None and loaded.migrated
        self.header_valid = loaded is not None and loaded.header is not None
        self.version_before = loaded.version_before if loaded is not None else None
        self._loaded = loaded
        self._loaded_count = len(self.entries)
        writer = SessionWriter(path, durable=durable)
        self._sink = _FileSink(writer, self.entries, rewrite=self.migrated)

    def to_bytes(self) -> bytes:
        """The whole session as file bytes.

        A session loaded from a current-version file gives the bytes it was read from plus
        the entries appended since: byte-identical when nothing was appended.
        """
        loaded = self._loaded
        if loaded is None or loaded.migrated or loaded.header is None:
            return render_session(self.header, self.entries)
        appended = b"".join(dump_line(e) for e in self.entries[self._loaded_count :])
        if not appended:
            return loaded.source
        separator = b"" if loaded.ends_with_newline else b"\n"
        return loaded.source + separator + appended

    def save(self, path: str | os.PathLike[str], *, durable: bool = True) -> None:
        """Write the whole session to ``path`` atomically (see :meth:`to_bytes`)."""
        write_atomically(path, self.to_bytes(), durable=durable)


def open_session(
    path: str | os.PathLike[str],
    *,
    create: bool = False,
    cwd: str | None = None,
    durable: bool = False,
    strict: bool = False,
    duplicates: DuplicatePolicy = "error",
    invalid_header: InvalidHeaderPolicy = "error",
    new_id: Callable[[], str] | None = None,
) -> FileSession:
    """Open a session file; appends to the returned session are written to it.

    Opening never writes. With ``create=True`` a missing (or empty) file gives a new
    session whose header is written with the first appended entry. Lines that could not
    be loaded are listed in ``session.skipped``; ``strict=True`` makes them an error.
    """
    file_path = Path(path)
    loaded: LoadedSession | None
    if not file_path.exists():
        if not create:
            raise SessionFormatError("no such session file", path=str(file_path))
        loaded = None
    else:
        loaded = read_session_file(
            file_path, strict=strict, invalid_header=invalid_header, new_id=new_id
        )
        if loaded.header is None and loaded.source.strip() and invalid_header == "error":
            raise SessionFormatError("no session header", path=str(file_path))
    header = loaded.header if loaded is not None else None
    if header is None:
        session_id = f"{new_id()}-0000-4000-8000-000000000000" if new_id is not None else None
        header = new_header(session_id=session_id, cwd=cwd or os.getcwd())
    return FileSession(
        file_path, header, loaded, durable=durable, duplicates=duplicates, new_id=new_id
    )
