"""File-backed sessions: open a JSONL session file as a :class:`Session`, append to it.

An append is one ``write`` of a complete line under an exclusive ``flock``, followed by
``fsync`` (unless ``durable=False``): a crash leaves at most one torn final line, and
two processes appending to the same file never interleave. The line is rendered before
the lock is taken, and a write that fails (a full disk) is cut back off, so a failed
append leaves the file as it was. The lock is held only while writing. A file that was
migrated from an old format is rewritten as version 3 (to a temporary file renamed into
place, then the directory fsynced) only when the first new entry is appended; opening a
file never writes to it.

Under the lock, before writing, the writer checks that the file is still the one it
loaded (same inode, same header, not shorter: a replaced, deleted or truncated file is
refused with :class:`~synopsis.errors.SessionChangedError`, never appended to or created
again) and reads the entries other processes appended since its last look. A
:class:`FileSession` takes them into its tree and, by default, refuses the append with
:class:`~synopsis.errors.StaleSessionError` (see :class:`FileSession` for ``on_stale``):
an entry is never written on a parent the session's view of the file has outgrown. Ids
stay unique in the file: a new entry whose id another writer took is renamed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from synopsis.errors import SessionChangedError, SessionFormatError, StaleSessionError
from synopsis.session.entries import Entry, SessionHeader, entry_problem
from synopsis.session.jsonl import (
    InvalidHeaderPolicy,
    LoadedSession,
    SkippedLine,
    dump_line,
    fsync_directory,
    os_error_about,
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


def _entries_in(data: bytes) -> Iterator[Entry]:
    """The entries in complete JSON lines of ``data`` (anything unreadable is passed over)."""
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end == -1:
            return
        try:
            value = parse_line(data, start, end)
        except ValueError:
            value = None
        if (
            isinstance(value, dict)
            and value.get("type") != "session"
            and entry_problem(value, needs_id=True) is None
        ):
            yield value
        start = end + 1


ForeignCheck = Callable[[list[Entry]], None]
"""Told the entries other writers appended since the last look, before an append; it may
raise (a :class:`~synopsis.errors.StaleSessionError`) to stop the append."""


class SessionWriter:
    """Appends entries to one session file (see the module docstring for the guarantees).

    ``known_end`` is the offset up to which the caller already knows every entry (the end
    of the last complete line it loaded), ``known_file`` the ``(st_dev, st_ino)`` of the
    file it loaded and ``known_header`` that file's first line: with them the writer
    refuses a file that was replaced, deleted, truncated or given another header, and
    reads the entries other processes appended meanwhile, keeping ids unique (``is_local``
    says whether an id is already used in the caller's memory). Without ``known_end`` (a
    bare writer) entries are written as given. ``may_lack_header`` says the caller found
    no header: the header goes first if the file is still empty or blank.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        durable: bool = True,
        known_end: int | None = None,
        known_file: tuple[int, int] | None = None,
        known_header: bytes | None = None,
        is_local: Callable[[str], bool] | None = None,
        may_lack_header: bool = False,
        adopt_new_file: bool = True,
    ) -> None:
        self.path = Path(path)
        self._adopt_new_file = adopt_new_file
        """May the first append go into a file another process created meanwhile?"""
        self.durable = durable
        self._may_lack_header = may_lack_header
        """The file was missing or blank when loaded: the first append may owe the header."""
        self._seen_end = known_end
        self._seen_file = known_file
        """``(st_dev, st_ino)`` of the file ``_seen_end`` refers to, when known."""
        self._seen_header = known_header
        self._is_local = is_local
        self._foreign_ids: set[str] = set()

    @contextmanager
    def _locked(self) -> Iterator[int]:
        fd = self._open_locked()
        try:
            yield fd
        finally:
            os.close(fd)  # closing releases the lock

    def _changed(self, what: str) -> SessionChangedError:
        return SessionChangedError(
            f"the session file {what} since it was opened; nothing was written. "
            "Open it again to see what it holds now",
            path=str(self.path),
        )

    def _open_locked(self) -> int:
        """Open the file and lock it, making sure the lock is on the file ``path`` names.

        Another process may rename a new file over ``path`` while this one waits for the
        lock on the old file; appending to the old, unlinked file would lose the entry, so
        the file is opened again until the two agree, and then it must be the file this
        writer knows (a file it loaded is never created again once deleted).
        """
        flags = os.O_RDWR | os.O_APPEND | (0 if self._seen_file is not None else os.O_CREAT)
        for _ in range(_REOPEN_ATTEMPTS):
            try:
                fd = os.open(self.path, flags, 0o644)
            except FileNotFoundError:
                if self._seen_file is not None:
                    raise self._changed("was deleted") from None
                raise
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
                if self._seen_file is not None and locked != self._seen_file:
                    os.close(fd)
                    raise self._changed("was replaced by another file")
                return fd
            os.close(fd)
        raise SessionChangedError(
            "the session file keeps being replaced by another process; cannot append",
            path=str(self.path),
        )

    def append(
        self, header: SessionHeader, entry: Entry, *, check: ForeignCheck | None = None
    ) -> None:
        """Append ``entry``; when this returns, its complete line is in the file.

        Before writing, the entries other processes appended since the last look are read
        and given to ``check``, which may raise to refuse the append (nothing is written).
        If another process already wrote an entry with the same id, ``entry["id"]`` is
        changed (in place) to a fresh one before it is written.
        """
        line = dump_line(entry)  # rendered (encoding included) before the lock is taken
        try:
            self._append_locked(header, entry, line, check)
        except OSError as error:
            raise os_error_about(error, self.path) from None

    def _append_locked(
        self, header: SessionHeader, entry: Entry, line: bytes, check: ForeignCheck | None
    ) -> None:
        with self._locked() as fd:
            status = os.fstat(fd)
            size = status.st_size
            foreign = self._read_foreign(fd, size)
            if foreign is not None:
                self._foreign_ids.update(e["id"] for e in foreign)
                self._seen_end = size
                if check is not None:
                    check(foreign)
                if entry.get("id") in self._foreign_ids:
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
            if self._seen_header is None:
                self._seen_header = _header_prefix(
                    _read_range(fd, 0, min(size + len(line), 1 << 20))
                )

    def _read_foreign(self, fd: int, size: int) -> list[Entry] | None:
        """The entries other processes appended since this writer last looked.

        ``None`` when the writer does not track the file (no ``known_end``). A file that
        shrank or whose first line changed is refused: it is not the session we know.
        """
        if self._seen_end is None:
            return None
        start = self._seen_end
        if start > size:
            raise self._changed("was truncated")
        known = self._seen_header
        if known is not None and _read_range(fd, 0, len(known)) != known:
            raise self._changed("was rewritten (its header is not the one loaded)")
        if self._seen_file is None and size and not self._adopt_new_file:
            raise self._changed("was created by another process")
        if start == size:
            return []
        return list(_entries_in(_read_range(fd, start, size)))

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
        :class:`SessionChangedError` says so. The lock is held across the rename, so an
        appender waiting for it follows the new file. A symbolic link is followed: its
        target is replaced, keeping its permissions.
        """
        data = render_session(header, entries)  # everything rendered before the lock
        with self._locked() as fd:
            if expected is not None:
                current = _read_range(fd, 0, os.fstat(fd).st_size)
                if current != expected:
                    raise SessionChangedError(
                        "the session file was changed by another process since it was "
                        "opened, and it must be rewritten in the current format before "
                        "appending; nothing was written. Open it again",
                        path=str(self.path),
                    )
            write_atomically(self.path, data, durable=self.durable)
            self._seen_end = len(data)
            self._seen_file = _file_key(os.stat(self.path))
            self._seen_header = _header_prefix(data)


def _header_prefix(data: bytes) -> bytes | None:
    """The bytes of ``data`` up to the end of its first non-blank line (the header line).

    An append checks that the file still starts with them: a file rewritten in place with
    another session's header is not the session that was loaded.
    """
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n\x0b\x0c")
    if not stripped:
        return None
    end = data.find(b"\n", len(data) - len(stripped))
    return data[: end + 1] if end != -1 else None


StalePolicy = Literal["refuse", "fork"]
"""What an append does after another writer appended to the same file (see :class:`FileSession`)."""


class _FileSink:
    """Connects a :class:`Session` to its file, rewriting a migrated file on first append."""

    def __init__(
        self,
        writer: SessionWriter,
        session_entries: list[Entry],
        rewrite_from: bytes | None,
        check: Callable[[Entry, list[Entry]], None],
        *,
        refusal: str | None = None,
    ):
        self._writer = writer
        self._entries = session_entries
        self._rewrite_from = rewrite_from
        """The bytes of an old-format file, until it has been rewritten as version 3."""
        self._check = check
        self._refusal = refusal
        """Why this file must not be appended to, if it must not."""

    def write_entry(self, header: SessionHeader, entry: Entry) -> None:
        if self._refusal is not None:
            raise SessionFormatError(self._refusal, path=str(self._writer.path))
        if self._rewrite_from is not None:
            self._writer.rewrite(header, [*self._entries, entry], expected=self._rewrite_from)
            self._rewrite_from = None
            return
        self._writer.append(header, entry, check=lambda foreign: self._check(entry, foreign))


def _end_of_complete_lines(data: bytes) -> int:
    return len(data) if data.endswith(b"\n") else data.rfind(b"\n") + 1


class FileSession(Session):
    """A :class:`Session` whose appends go to its JSONL file as they happen.

    Other processes may append to the same file. Before each append the entries they
    wrote since this session last looked are read into the tree. Then, with
    ``on_stale="refuse"`` (the default), the append is refused with
    :class:`~synopsis.errors.StaleSessionError` and the leaf moves to the file's last
    entry: appending on the old leaf would fork the conversation behind the other writer's
    back, and its acknowledged entries would fall off the path. With ``on_stale="fork"``
    each writer keeps its own leaf (writers that each hold their own branch), but a
    compaction whose parent gained a child from another writer is still refused: a
    checkpoint must summarize the branch it ends, not a stale copy of it.
    """

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
        on_stale: StalePolicy = "refuse",
        skimmed: bool = False,
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
        self.on_stale: StalePolicy = on_stale
        self.skipped: list[SkippedLine] = loaded.skipped if loaded is not None else []
        self.migrated = loaded is not None and loaded.migrated
        self.header_valid = loaded is not None and loaded.header is not None
        self.version_before = loaded.version_before if loaded is not None else None
        self.skimmed = skimmed
        """Opened with ``skim=True`` and skimmed: message bodies may be unread heads."""
        self._loaded = loaded
        self._loaded_count = len(self.entries)
        source = loaded.source if loaded is not None else b""
        on_disk = loaded.on_disk if loaded is not None else None
        known_end = _end_of_complete_lines(source) if on_disk is None else on_disk.complete_end
        head = loaded.head if loaded is not None else b""
        writer = SessionWriter(
            path,
            durable=durable,
            known_end=known_end,
            known_file=file_key,
            known_header=_header_prefix(head) if self.header_valid else None,
            is_local=self.__contains__,
            may_lack_header=not self.header_valid,
            adopt_new_file=on_stale == "fork",
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
        if skimmed:  # the context of unread heads is for code that knows them, not an agent's
            refusal = "the session was opened with skim=True, for reading; open it again to append"
        self._sink = _FileSink(
            writer,
            self.entries,
            source if self.migrated else None,
            self._take_foreign,
            refusal=refusal,
        )

    def _take_foreign(self, entry: Entry, foreign: list[Entry]) -> None:
        """Read other writers' new entries into the tree; refuse ``entry`` if it is stale."""
        adopted = self._adopt(foreign)
        if not adopted:
            return
        parent = entry.get("parentId")
        stale = self.on_stale == "refuse" or (
            entry.get("type") == "compaction" and any(e.get("parentId") == parent for e in adopted)
        )
        if not stale:
            return
        newest = adopted[-1]["id"]
        self.leaf_id = newest
        raise StaleSessionError(
            f"another writer appended {len(adopted)} "
            f"{'entry' if len(adopted) == 1 else 'entries'} since this session last looked "
            f"(the newest is {newest}); nothing was written. They have been read in and the "
            "leaf moved to the newest: prepare again (or append again) on it",
            path=str(self.file_path),
        )

    def _adopt(self, foreign: list[Entry]) -> list[Entry]:
        """Add entries another writer appended (ids already known and cycles are left out)."""
        adopted: list[Entry] = []
        for entry in foreign:
            entry_id = entry["id"]
            if entry_id in self._by_id or self._would_close_cycle(entry):
                continue
            self.entries.append(entry)
            self._by_id[entry_id] = entry
            adopted.append(entry)
        if adopted:
            self._children = None
        return adopted

    def _would_close_cycle(self, entry: Entry) -> bool:
        seen: set[str] = set()
        current = entry.get("parentId")
        while isinstance(current, str) and current not in seen:
            if current == entry["id"]:
                return True
            seen.add(current)
            parent = self._by_id.get(current)
            current = parent.get("parentId") if parent is not None else None
        return False

    @property
    def source_bytes(self) -> bytes:
        """The bytes the session was loaded from (empty for a new file)."""
        return self._loaded.source_bytes() if self._loaded is not None else b""

    def to_bytes(self) -> bytes:
        """The whole session as file bytes.

        A session loaded from a current-version file gives the bytes it was read from plus
        the entries appended since: byte-identical when nothing was appended.
        """
        loaded = self._loaded
        if loaded is None or loaded.migrated or loaded.header is None:
            return render_session(self.header, self.entries)
        appended = b"".join(dump_line(e) for e in self.entries[self._loaded_count :])
        source = loaded.source_bytes()
        if not appended:
            return source
        separator = b"" if loaded.ends_with_newline else b"\n"
        return source + separator + appended

    def save(self, path: str | os.PathLike[str], *, durable: bool = True) -> None:
        """Write the whole session to ``path`` atomically (see :meth:`to_bytes`)."""
        write_atomically(path, self.to_bytes(), durable=durable)


def open_session(
    path: str | os.PathLike[str],
    *,
    create: bool = False,
    cwd: str | None = None,
    durable: bool = True,
    strict: bool = False,
    duplicates: DuplicatePolicy = "error",
    invalid_header: InvalidHeaderPolicy = "error",
    new_id: Callable[[], str] | None = None,
    on_stale: StalePolicy = "refuse",
    skim: bool = False,
) -> FileSession:
    """Open a session file; appends to the returned session are written to it.

    Opening never writes. With ``create=True`` a missing (or empty) file gives a new
    session whose header is written with the first appended entry. Lines that could not
    be loaded are listed in ``session.skipped``; ``strict=True`` makes them an error.
    ``durable`` (the default) fsyncs every append (and the directory after a rewrite or
    a new file), so an acknowledged entry survives a power cut; ``on_stale`` says what
    an append does after another process appended to the file (see :class:`FileSession`).

    ``skim=True`` is for a look that reads few message bodies (a tree, one context): a
    current-version file is read with :func:`synopsis.session.skim.skim_session_file`,
    the same entries, skipped lines and tree, but each message entry's ``message`` may
    be an unread head (read it with :func:`~synopsis.session.skim.full_message`); about
    half the time and memory of a full read. Such a session refuses appends. A file the
    skim does not take (to migrate, no header first, ``strict``) is read in full
    (``session.skimmed`` is then ``False``).
    """
    file_path = Path(path)
    loaded: LoadedSession | None
    file_key: tuple[int, int] | None = None
    skimmed = False
    if not file_path.exists():
        if not create:
            raise SessionFormatError("no such session file", path=str(file_path))
        loaded = None
    else:
        # Taken before reading: if the file is replaced after this, the writer notices.
        with contextlib.suppress(OSError):
            file_key = _file_key(os.stat(file_path))
        loaded = _skimmed(file_path) if skim and not strict else None
        skimmed = loaded is not None
        if loaded is None:
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
        on_stale=on_stale,
        skimmed=skimmed,
    )


def _skimmed(path: Path) -> LoadedSession | None:
    """The file skimmed (see :func:`open_session`), or ``None`` when it must be read in full."""
    from synopsis.session.skim import skim_session_file

    skimmed = skim_session_file(path)
    if skimmed is None:
        return None
    return LoadedSession(
        skimmed.header,
        skimmed.entries,
        skimmed.skipped,
        version_before=skimmed.version_before,
        source=skimmed.data,
        entry_lines=skimmed.entry_lines,
        path=str(path),
    )
