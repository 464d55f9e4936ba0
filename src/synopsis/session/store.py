"""File-backed sessions: open a JSONL session file as a :class:`Session`, append to it.

An append is one ``write`` of a complete line under an exclusive ``flock``, followed by
a flush (and ``fsync`` when ``durable``): a crash leaves at most one torn final line, and
two processes appending to the same file never interleave. The lock is held only while
writing. A file that was migrated from an old format is rewritten as version 3 (to a
temporary file renamed into place) only when the first new entry is appended; opening a
file never writes to it.

Several processes may append to one session. Each keeps its own tree, so each one's
entries chain among themselves; what the writer guarantees is that no line is lost or
interleaved, and that ids stay unique in the file: before writing, it reads the lines
others appended since its last look and renames its new entry if the id is taken.
"""

from __future__ import annotations

import contextlib
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
    fsync_directory,
    parse_line,
    read_session_file,
    render_session,
    write_atomically,
)
from synopsis.session.migration import random_entry_id
from synopsis.session.tree import DuplicatePolicy, Session, new_header

_REOPEN_ATTEMPTS = 100
"""How often an append follows a file that another process replaced while it waited."""


def _file_key(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino


def _read_range(fd: int, start: int, stop: int) -> bytes:
    parts: list[bytes] = []
    while start < stop:
        chunk = os.pread(fd, stop - start, start)
        if not chunk:
            break
        parts.append(chunk)
        start += len(chunk)
    return b"".join(parts)


def _ids_in(data: bytes) -> Iterator[str]:
    """The entry ids in complete JSON lines of ``data`` (anything unreadable is passed over)."""
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end == -1:
            return
        try:
            value = parse_line(data, start, end)
        except ValueError:
            value = None
        if isinstance(value, dict) and value.get("type") != "session":
            entry_id = value.get("id")
            if isinstance(entry_id, str):
                yield entry_id
        start = end + 1


class SessionWriter:
    """Appends entries to one session file (see the module docstring for the guarantees).

    ``known_end`` is the offset up to which the caller already knows every entry (the end
    of the last complete line it loaded) and ``known_file`` the ``(st_dev, st_ino)`` of
    the file it loaded; with them, the writer keeps ids unique among processes, asking
    ``is_local`` whether an id is already used in the caller's memory. Without
    ``known_end`` (a bare writer) entries are written as given. ``may_lack_header`` says
    the caller found no header: the header goes first if the file is still empty or blank.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        durable: bool = False,
        known_end: int | None = None,
        known_file: tuple[int, int] | None = None,
        is_local: Callable[[str], bool] | None = None,
        may_lack_header: bool = False,
    ) -> None:
        self.path = Path(path)
        self.durable = durable
        self._may_lack_header = may_lack_header
        """The file was missing or blank when loaded: the first append may owe the header."""
        self._seen_end = known_end
        self._seen_file = known_file
        """``(st_dev, st_ino)`` of the file ``_seen_end`` refers to, when known."""
        self._is_local = is_local
        self._foreign_ids: set[str] = set()

    @contextmanager
    def _locked(self) -> Iterator[int]:
        fd = self._open_locked()
        try:
            yield fd
        finally:
            os.close(fd)  # closing releases the lock

    def _open_locked(self) -> int:
        """Open the file and lock it, making sure the lock is on the file ``path`` names.

        Another process may rename a new file over ``path`` (a migration rewrite) while
        this one waits for the lock on the old file; appending to the old, unlinked file
        would lose the entry, so the file is opened again until the two agree.
        """
        for _ in range(_REOPEN_ATTEMPTS):
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                locked = _file_key(os.fstat(fd))
                try:
                    current: tuple[int, int] | None = _file_key(os.stat(self.path))
                except FileNotFoundError:
                    current = None
            except BaseException:
                os.close(fd)
                raise
            if current == locked:
                return fd
            os.close(fd)
        raise SessionFormatError(
            "the session file keeps being replaced by another process; cannot append",
            path=str(self.path),
        )

    def append(self, header: SessionHeader, entry: Entry) -> None:
        """Append ``entry``; when this returns, its complete line is in the file.

        If another process already wrote an entry with the same id, ``entry["id"]`` is
        changed (in place) to a fresh one before it is written.
        """
        line = dump_line(entry)
        with self._locked() as fd:
            status = os.fstat(fd)
            size = status.st_size
            if self._learn_foreign_ids(fd, status) and entry.get("id") in self._foreign_ids:
                entry["id"] = self._fresh_id()
                line = dump_line(entry)
            if size == 0 or (self._may_lack_header and not _read_range(fd, 0, size).strip()):
                line = dump_line(header) + line
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # never glue a new entry onto a torn line
            self._write_all(fd, line, size)
            if size == 0 and self.durable:
                fsync_directory(self.path.parent)
            self._may_lack_header = False
            self._seen_end = size + len(line)
            self._seen_file = _file_key(status)

    def _learn_foreign_ids(self, fd: int, status: os.stat_result) -> bool:
        """Read the ids other processes appended since this writer last looked.

        Returns ``False`` when the writer does not track ids (no ``known_end``).
        """
        if self._seen_end is None:
            return False
        start = self._seen_end
        if self._seen_file not in (None, _file_key(status)) or start > status.st_size:
            start = 0  # replaced or truncated behind our back: everything is news
        if start < status.st_size:
            self._foreign_ids.update(_ids_in(_read_range(fd, start, status.st_size)))
        return True

    def _fresh_id(self) -> str:
        while True:
            candidate = random_entry_id(self._foreign_ids)
            if self._is_local is None or not self._is_local(candidate):
                return candidate

    def _write_all(self, fd: int, data: bytes, size: int) -> None:
        """Write ``data`` at the end of a file of ``size`` bytes, all of it or none of it.

        A write that fails half way (a full disk) is cut back off, so the file does not
        keep a torn line from a process that is still running; only a crash can leave one.
        """
        view = memoryview(data)
        try:
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if self.durable:
                os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
            raise

    def rewrite(
        self,
        header: SessionHeader,
        entries: Sequence[Entry],
        *,
        expected: bytes | None = None,
    ) -> None:
        """Replace the whole file atomically with ``header`` and ``entries``.

        With ``expected``, the file must still hold exactly those bytes (what the caller
        loaded); if another process changed it meanwhile, nothing is written and
        :class:`SessionFormatError` says so. The lock is held across the rename, so an
        appender waiting for it follows the new file.
        """
        with self._locked() as fd:
            if expected is not None:
                current = _read_range(fd, 0, os.fstat(fd).st_size)
                if current != expected:
                    raise SessionFormatError(
                        "the session file was changed by another process since it was "
                        "opened, and it must be rewritten in the current format before "
                        "appending; open it again",
                        path=str(self.path),
                    )
            data = render_session(header, entries)
            write_atomically(self.path, data, durable=self.durable)
            self._seen_end = len(data)
            self._seen_file = _file_key(os.stat(self.path))


class _FileSink:
    """Connects a :class:`Session` to its file, rewriting a migrated file on first append."""

    def __init__(
        self,
        writer: SessionWriter,
        session_entries: list[Entry],
        rewrite_from: bytes | None,
        *,
        refusal: str | None = None,
    ):
        self._writer = writer
        self._entries = session_entries
        self._rewrite_from = rewrite_from
        """The bytes of an old-format file, until it has been rewritten as version 3."""
        self._refusal = refusal
        """Why this file must not be appended to, if it must not."""

    def write_entry(self, header: SessionHeader, entry: Entry) -> None:
        if self._refusal is not None:
            raise SessionFormatError(self._refusal, path=str(self._writer.path))
        if self._rewrite_from is not None:
            self._writer.rewrite(header, [*self._entries, entry], expected=self._rewrite_from)
            self._rewrite_from = None
            return
        self._writer.append(header, entry)


def _end_of_complete_lines(data: bytes) -> int:
    return len(data) if data.endswith(b"\n") else data.rfind(b"\n") + 1


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
        file_key: tuple[int, int] | None = None,
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
        source = loaded.source if loaded is not None else b""
        writer = SessionWriter(
            path,
            durable=durable,
            known_end=_end_of_complete_lines(source),
            known_file=file_key,
            is_local=self.__contains__,
            may_lack_header=not self.header_valid,
        )
        # A file with content but no valid header (opened with invalid_header="new-session")
        # is not appended to: entries after a damaged first line would be unreadable, and
        # replacing the file would destroy what it holds.
        refusal = (
            "the file has no valid session header, so new entries cannot be added to it; "
            "`synopsis doctor FILE --repair -o OUT` writes a loadable copy"
            if not self.header_valid and source.strip()
            else None
        )
        self._sink = _FileSink(
            writer, self.entries, source if self.migrated else None, refusal=refusal
        )

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
    file_key: tuple[int, int] | None = None
    if not file_path.exists():
        if not create:
            raise SessionFormatError("no such session file", path=str(file_path))
        loaded = None
    else:
        # Taken before reading: if the file is replaced after this, the writer notices.
        with contextlib.suppress(OSError):
            file_key = _file_key(os.stat(file_path))
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
        file_path,
        header,
        loaded,
        durable=durable,
        duplicates=duplicates,
        new_id=new_id,
        file_key=file_key,
    )
