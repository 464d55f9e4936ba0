"""Reading and writing Pi's JSONL session files.

Loading is forgiving in the way Pi is (CRLF line ends, blank lines and lines that are not
JSON are accepted, the bad ones skipped) but never silent: every skipped line is reported
with its line number and the reason. Like Pi 1.6, it is strict about the first line: a
file that does not start with a session header, or starts with a UTF-8 byte order mark,
is not a session. Loading never writes to
the file it reads; migration of old formats happens in memory.

Writing keeps the user's bytes: a session that was loaded and not migrated is saved as
the exact bytes it was read from, followed by the lines appended since, so unknown
fields, unknown entry types and the spelling of every number survive. A large file
(16 MiB or more) is read piece by piece and its bytes are read again from the file to
save it (:class:`SourceOnDisk`), so that its bytes do not double the memory it takes.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Literal

import orjson

from synopsis._js import js_stringify
from synopsis.errors import SessionChangedError, SessionFormatError
from synopsis.session.entries import CURRENT_VERSION, Entry, SessionHeader, entry_problem
from synopsis.session.migration import migrate_entries

_BOM = b"\xef\xbb\xbf"
_BLANK = b" \t\r\n\x0b\x0c"

InvalidHeaderPolicy = Literal["error", "new-session"]


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """A line of a session file that was not loaded, and why."""

    line: int
    reason: str

    def describe(self, path: str | os.PathLike[str] | None = None) -> str:
        where = f"{os.fspath(path)}:{self.line}" if path is not None else f"line {self.line}"
        return f"{where}: skipped: {self.reason}"


@dataclass(frozen=True, slots=True)
class SourceOnDisk:
    """Where the bytes of a large session file are, when they were not kept in memory.

    A large file is read piece by piece (its bytes would cost as much memory again as its
    entries); saving it unchanged reads them back. They are the bytes loaded if the file
    is still the one loaded (same device and inode), not shorter, and starts the same —
    the checks an append makes (see :class:`synopsis.session.store.SessionWriter`):
    session files only grow.
    """

    path: str
    file_key: tuple[int, int]
    """``(st_dev, st_ino)`` of the file read."""
    size: int
    """Bytes read."""
    head: bytes
    """The bytes up to the end of the header line."""
    complete_end: int
    """The offset after the last newline read (the end of the last complete line)."""

    @property
    def ends_with_newline(self) -> bool:
        return self.complete_end == self.size

    def read(self) -> bytes:
        """The bytes loaded, read again (a :class:`SessionChangedError` if they are gone)."""
        try:
            with open(self.path, "rb") as handle:
                status = os.fstat(handle.fileno())
                data = handle.read(self.size) if status.st_size >= self.size else b""
        except OSError as error:
            raise SessionChangedError(
                f"cannot read the session file again: {error.strerror}", path=self.path
            ) from None
        if (
            (status.st_dev, status.st_ino) != self.file_key
            or len(data) != self.size
            or not data.startswith(self.head)
        ):
            raise SessionChangedError(
                "the session file was replaced, truncated or rewritten since it was opened, "
                "so the bytes loaded are gone; nothing was written. Open it again",
                path=self.path,
            )
        return data


@dataclass(slots=True)
class LoadedSession:
    """What a session file holds, after in-memory migration to the current version."""

    header: SessionHeader | None
    """``None`` when the file is empty or (with the lenient policy) has no valid header."""
    entries: list[Entry]
    skipped: list[SkippedLine] = field(default_factory=list)
    version_before: int | None = None
    """The header's version as found in the file (``None`` when absent, as in version 1)."""
    migrated: bool = False
    source: bytes = b""
    """The bytes read, kept so that saving an unchanged session reproduces them exactly
    (empty when they stayed on disk: see :attr:`on_disk`)."""
    entry_lines: list[int] = field(default_factory=list)
    """The 1-based line number of each entry, for error messages."""
    path: str | None = None
    on_disk: SourceOnDisk | None = None
    """For a large current-version file read piece by piece: where its bytes are."""

    @property
    def ends_with_newline(self) -> bool:
        if self.on_disk is not None:
            return self.on_disk.ends_with_newline
        return not self.source or self.source.endswith(b"\n")

    @property
    def head(self) -> bytes:
        """The bytes read up to the end of the header line at least."""
        return self.on_disk.head if self.on_disk is not None else self.source

    def source_bytes(self) -> bytes:
        """The bytes read (read again from the file when they were not kept)."""
        return self.on_disk.read() if self.on_disk is not None else self.source


MAX_NESTING = 254
"""The deepest nesting of arrays and objects a loaded line may have (the entry object is 1).

orjson writes at most this depth, and the JavaScript-compatible renderer and the token
estimator recurse once or twice per level: a deeper line would load and then crash
whoever touches it with ``RecursionError``, so it is skipped as hostile instead. Real
sessions nest a few dozen levels at most.
"""

# A JSON string (with escapes) or one bracket: measures the nesting of a line before
# Python's recursive ``json`` parser sees it (only lines orjson rejected, or huge ones).
_STRING_OR_BRACKET = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class NestingTooDeepError(ValueError):
    """A line is valid JSON but nested deeper than :data:`MAX_NESTING`."""

    def __init__(self) -> None:
        super().__init__(f"nested deeper than {MAX_NESTING} levels")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _brackets(data: bytes | bytearray, start: int, stop: int) -> int:
    """Opening brackets in ``data[start:stop]``: a free upper bound of the nesting depth."""
    return data.count(b"[", start, stop) + data.count(b"{", start, stop)


def _text_too_deep(data: bytes | bytearray, start: int, stop: int) -> bool:
    """Does the JSON text ``data[start:stop]`` open more than :data:`MAX_NESTING` levels?"""
    if _brackets(data, start, stop) <= MAX_NESTING:
        return False
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(data, start, stop):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def _value_too_deep(value: Any) -> bool:
    """Is ``value`` nested deeper than :data:`MAX_NESTING`? Iterative: hostile input is deep."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NESTING:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


_LARGE_LINE = 8 * 1024 * 1024
"""Lines longer than this go straight to the standard library's parser.

orjson briefly needs about twelve times the length of the text it parses; ``json`` needs
about the text (decoded) plus the result, so a huge tool output does not cost gigabytes.
"""


def _parse_like_javascript(data: bytes | bytearray, start: int, stop: int) -> Any:
    """``JSON.parse`` semantics with the standard library: see :func:`parse_line`."""
    # Python's json module recurses once per level: measure the depth first.
    if _text_too_deep(data, start, stop):
        raise NestingTooDeepError
    text = str(memoryview(data)[start:stop], "utf-8", "replace")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise NestingTooDeepError from None


def parse_line(data: bytes | bytearray, start: int = 0, stop: int | None = None) -> Any:
    """Parse ``data[start:stop]`` as JavaScript's ``JSON.parse`` would, or raise ``ValueError``.

    orjson handles almost every line. The standard library covers what JavaScript accepts
    and orjson does not: lone surrogate escapes, integers beyond 64 bits, and invalid
    UTF-8 (which Node decodes to U+FFFD before parsing); it also parses huge lines, with
    less memory. NaN and Infinity stay invalid, and so does a line nested deeper than
    :data:`MAX_NESTING` (:class:`NestingTooDeepError`).
    """
    stop = len(data) if stop is None else stop
    if stop - start > _LARGE_LINE:
        value = _parse_like_javascript(data, start, stop)
    else:
        try:
            value = orjson.loads(memoryview(data)[start:stop])
        except orjson.JSONDecodeError as first_error:
            try:
                value = _parse_like_javascript(data, start, stop)
            except NestingTooDeepError:
                raise
            except ValueError:
                raise ValueError(str(first_error)) from None
    # Only a line with many brackets can be too deep; orjson accepts up to 1024 levels.
    if (
        isinstance(value, dict | list)
        and _brackets(data, start, stop) > MAX_NESTING
        and _value_too_deep(value)
    ):
        raise NestingTooDeepError
    return value


def is_torn_line(data: bytes | bytearray, stop: int) -> bool:
    """Is the line ending at ``stop`` the last one of a file that does not end in a newline?

    Every writer ends its line with a newline in the same ``write``, so such a line is one
    whose write was cut short (a crash, a full disk) if it does not parse.
    """
    return stop >= len(data) - 1 and not data.endswith(b"\n")


def describe_parse_error(error: ValueError, *, torn: bool) -> str:
    """The reason reported for a line :func:`parse_line` rejected."""
    if torn:
        return f"torn final line: no newline at the end of the file and not valid JSON ({error})"
    if isinstance(error, NestingTooDeepError):
        return str(error)
    return f"not valid JSON ({error})"


def is_header(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("type") == "session"
        and isinstance(value.get("id"), str)
    )


_PROMOTE_BYTES = 16 * 1024 * 1024
"""Inputs at least this large leave their parsed objects in the oldest GC generation."""


@contextlib.contextmanager
def gc_paused(*, promote: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small objects.

    Parsing a large session creates millions of dicts and lists that hold no cycles;
    letting the collector scan them again and again triples the load time. Re-enabling
    it alone is not enough: everything built meanwhile sits in the youngest generation,
    and the next allocation would scan all of it (0.2 s of CPU for 100k entries). With
    ``promote`` the objects are moved to the oldest generation unscanned (``freeze``
    then ``unfreeze``), unless the program froze objects of its own, which must stay
    frozen (counting them walks them all, so this is only for large inputs).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if promote and not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def parse_session(
    data: bytes,
    *,
    path: str | None = None,
    strict: bool = False,
    invalid_header: InvalidHeaderPolicy = "error",
    new_id: Callable[[], str] | None = None,
) -> LoadedSession:
    """Parse the bytes of a session file.

    ``strict`` turns every skipped line into a :class:`SessionFormatError`. With
    ``invalid_header="new-session"`` a file whose first JSON line is not a session header
    loads as an empty session (Pi's behaviour, minus the overwrite); by default it is an
    error. ``new_id`` makes the ids created by v1 migration deterministic.
    """
    # Parsing builds millions of acyclic objects: nothing for the collector to find.
    with gc_paused(promote=len(data) >= _PROMOTE_BYTES):
        if data.startswith(_BOM):
            if invalid_header == "error":
                raise SessionFormatError(
                    "the file starts with a byte order mark (BOM) before its session "
                    "header; Pi does not read it as a session "
                    "(`synopsis doctor FILE --repair` removes it)",
                    path=path,
                    line=1,
                )
            return LoadedSession(None, [], [], None, False, data, [], path)
        reader = _LineReader(path, strict, invalid_header)
        reader.feed(data, final=True)
        return reader.finish(data, new_id)


class _LineReader:
    """Reads the lines of a session file, given in one piece or in consecutive pieces.

    One loop over the lines with the common case inline: a hundred thousand lines make
    every function call and attribute lookup here count (see benchmarks/bench_pi.py).
    Rare lines (not JSON for orjson, huge, with many brackets) go through
    :func:`parse_line`, odd entries through :func:`entry_problem`.
    """

    def __init__(self, path: str | None, strict: bool, invalid_header: InvalidHeaderPolicy):
        self.path = path
        self.strict = strict
        self.invalid_header = invalid_header
        self.skipped: list[SkippedLine] = []
        self.header: dict[str, Any] | None = None
        self.entries: list[Entry] = []
        self.entry_lines: list[int] = []
        self.number = 0
        """Lines read so far."""
        self.header_line = 0
        self.header_end = 0
        """Offset, in the data fed when the header was read, after its line."""
        self.checked = False
        """Are entries checked as they are read? Once the header says no migration is
        due (migration rewrites v1 and v2 entries before they can be checked)."""
        self.strict_problem: SkippedLine | None = None
        """In strict mode, the first line that is no entry: raised at the end, unless a
        line that is no JSON at all comes first."""

    def feed(self, data: bytes | bytearray, start: int = 0, *, final: bool) -> int:
        """Read the lines of ``data`` from ``start`` (all of them when ``final``, else those
        that end in a newline); the offset where the unread rest starts."""
        find, count, view, loads = data.find, data.count, memoryview(data), orjson.loads
        entries, entry_lines, skipped = self.entries, self.entry_lines, self.skipped
        size = len(data)
        number = self.number
        try:
            while start < size:
                end = find(b"\n", start)
                if end == -1:
                    if not final:
                        break
                    end = size
                number += 1
                line_start = start
                stop = end - 1 if end > start and data[end - 1] == 0x0D else end
                start = end + 1
                if line_start == stop or (
                    data[line_start] in _BLANK and not data[line_start:stop].strip()
                ):
                    continue
                value: Any = _UNPARSED
                if stop - line_start <= _LARGE_LINE:
                    with contextlib.suppress(orjson.JSONDecodeError):
                        value = loads(view[line_start:stop])
                    if (
                        value is not _UNPARSED
                        and (type(value) is dict or type(value) is list)
                        and count(b"{", line_start, stop) + count(b"[", line_start, stop)
                        > MAX_NESTING
                        and _value_too_deep(value)
                    ):
                        value = _UNPARSED  # parse_line says why
                if value is _UNPARSED:
                    try:
                        value = parse_line(data, line_start, stop)
                    except ValueError as error:
                        reason = describe_parse_error(
                            error, torn=final and is_torn_line(data, stop)
                        )
                        if self.strict:
                            raise SessionFormatError(reason, path=self.path, line=number) from None
                        skipped.append(SkippedLine(number, reason))
                        continue
                if self.checked:
                    if type(value) is dict:
                        kind = value.get("type")
                        parent = value.get("parentId")
                        message = value.get("message") if kind == "message" else value
                        if (
                            type(kind) is str
                            and type(value.get("id")) is str
                            and (parent is None or type(parent) is str)
                            and type(message) is dict
                            and (kind != "message" or type(message.get("role")) is str)
                        ):
                            _share_strings(value, message)
                            entries.append(value)
                            entry_lines.append(number)
                            continue
                    self._check(value, number)
                elif self.header is None and not self.header_line:
                    self._first(value, number)
                    self.header_end = start
                    if self.header is None:
                        break  # no session (invalid_header="new-session"): nothing to read
                else:
                    entries.append(value)
                    entry_lines.append(number)
        finally:
            self.number = number
        return min(start, size)

    def _check(self, value: Any, number: int) -> None:
        problem = entry_problem(value, needs_id=True)
        if problem is None:
            self.entries.append(value)
            self.entry_lines.append(number)
            return
        if self.strict:
            self.strict_problem = self.strict_problem or SkippedLine(number, problem)
        self.skipped.append(SkippedLine(number, problem))

    def _first(self, value: Any, number: int) -> None:
        """The first JSON line: the header, else the file is no session."""
        self.header_line = number
        if is_header(value):
            self.header = value
            self.checked = not _needs_migration(_version_of(value))
            return
        if self.invalid_header == "error":
            raise SessionFormatError(
                "the first line is not a session header "
                '(expected {"type":"session","id":...}); refusing to treat the file '
                "as a session",
                path=self.path,
                line=number,
            )

    def finish(self, source: bytes, new_id: Callable[[], str] | None) -> LoadedSession:
        """What was read; ``source``: the bytes kept for saving (see :class:`LoadedSession`)."""
        path = self.path
        if self.strict_problem is not None:
            problem = self.strict_problem
            raise SessionFormatError(problem.reason, path=path, line=problem.line)
        header = self.header
        if header is None:
            return LoadedSession(None, [], self.skipped, None, False, source, [], path)
        entries, entry_lines = self.entries, self.entry_lines
        version_before = _version_of(header)
        migrated = _needs_migration(version_before)
        if migrated:
            migrate_entries(header, entries, version_before or 1, new_id=new_id)
            entries, entry_lines = _checked(entries, entry_lines, self.skipped, self.strict, path)
        self.skipped.sort(key=lambda s: s.line)
        return LoadedSession(
            header,  # type: ignore[arg-type]
            entries,
            self.skipped,
            version_before,
            migrated,
            source,
            entry_lines,
            path,
        )


_ASSISTANT_WORDS = ("api", "provider", "model", "stopReason")


def _share_strings(entry: dict[str, Any], message: dict[str, Any]) -> None:
    """Make the values every entry repeats (its type; a message's role; an assistant's
    api, provider, model and stop reason; a tool result's tool name; block types and
    tool-call names) one shared string each.

    A parser makes a new string for every value it reads: on a large session these few
    words are a million strings, 7% of the memory its entries take. Keys are shared by
    orjson already. Values and key order stay as they were. ``message`` is the entry's
    message, or the entry itself when it is no message entry.
    """
    intern = sys.intern
    entry["type"] = intern(entry["type"])
    if message is entry:
        return
    role = message["role"] = intern(message["role"])
    if role == "assistant":
        for key in _ASSISTANT_WORDS:
            word = message.get(key)
            if type(word) is str:
                message[key] = intern(word)
    elif role == "toolResult":
        word = message.get("toolName")
        if type(word) is str:
            message["toolName"] = intern(word)
    content = message.get("content")
    if type(content) is list:
        for block in content:
            if type(block) is dict:
                kind = block.get("type")
                if type(kind) is str:
                    block["type"] = intern(kind)
                    if kind == "toolCall":
                        name = block.get("name")
                        if type(name) is str:
                            block["name"] = intern(name)


_UNPARSED: Any = object()
"""Marks a line the inline fast path of :func:`_parse_session` left to :func:`parse_line`."""


def _version_of(header: dict[str, Any]) -> int | None:
    """The header's version (``None`` when absent or not an integer, as in version 1)."""
    version = header.get("version")
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def _needs_migration(version: int | None) -> bool:
    return (version or 1) < CURRENT_VERSION


def _checked(
    entries: list[Entry],
    entry_lines: list[int],
    skipped: list[SkippedLine],
    strict: bool,
    path: str | None,
) -> tuple[list[Entry], list[int]]:
    """The entries (and their lines) that can be entries; the others go to ``skipped``."""
    kept: list[Entry] = []
    kept_lines: list[int] = []
    for entry, number in zip(entries, entry_lines, strict=True):
        problem = entry_problem(entry, needs_id=True)
        if problem is not None:
            if strict:
                raise SessionFormatError(problem, path=path, line=number)
            skipped.append(SkippedLine(number, problem))
            continue
        kept.append(entry)
        kept_lines.append(number)
    return kept, kept_lines


def read_session_file(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    invalid_header: InvalidHeaderPolicy = "error",
    new_id: Callable[[], str] | None = None,
) -> LoadedSession:
    """Read and parse a session file. The file is opened read-only and never modified.

    A current-version file of :data:`_STREAM_BYTES` or more is read and parsed piece by
    piece and its bytes are not kept (:class:`SourceOnDisk`): holding them would raise
    the peak memory by their size again.
    """
    name = os.fspath(path)
    with _opened_for_reading(name) as handle:
        status = os.fstat(handle.fileno())
        if status.st_size >= _STREAM_BYTES:
            loaded = _read_in_pieces(handle, status, name, strict, invalid_header, new_id)
            if loaded is not None:
                return loaded
            handle.seek(0)
        data = _read_all(handle, name)
    return parse_session(
        data, path=name, strict=strict, invalid_header=invalid_header, new_id=new_id
    )


_STREAM_BYTES = 16 * 1024 * 1024
"""Files at least this large are read piece by piece (see :func:`read_session_file`)."""

_PIECE_BYTES = 8 * 1024 * 1024


def _read_in_pieces(
    handle: BinaryIO,
    status: os.stat_result,
    name: str,
    strict: bool,
    invalid_header: InvalidHeaderPolicy,
    new_id: Callable[[], str] | None,
) -> LoadedSession | None:
    """A large file read piece by piece, or ``None`` when it must be read whole: its first
    JSON line is not a current-version header (a BOM, no header, a file to migrate all
    keep their bytes, as :func:`parse_session` does)."""
    reader = _LineReader(name, strict, invalid_header)
    # The unread rest, growing by pieces until it holds a newline: a long line is never
    # copied piece by piece, and the front of a bytearray is cut in place. Until the
    # header is read, nothing is cut (the header's bytes are kept, see SourceOnDisk).
    pending = bytearray()
    read = size = 0
    head: bytes | None = None
    with gc_paused(promote=True):
        while piece := _read_piece(handle, name):
            size += len(piece)
            pending += piece
            if b"\n" not in piece:
                continue
            del piece
            if head is not None:
                del pending[: reader.feed(pending, final=False)]
                continue
            if pending.startswith(_BOM):
                return None
            read = reader.feed(pending, read, final=False)
            if not reader.header_line:
                continue
            if reader.header is None or not reader.checked:
                return None
            head = bytes(pending[: reader.header_end])
            del pending[:read]
        if head is None:
            return None
        reader.feed(pending, final=True)
        on_disk = SourceOnDisk(
            name, (status.st_dev, status.st_ino), size, head, size - len(pending)
        )
        del pending
        loaded = reader.finish(b"", new_id)
    loaded.on_disk = on_disk
    return loaded


def _read_piece(handle: BinaryIO, name: str) -> bytes:
    try:
        return handle.read(_PIECE_BYTES)
    except OSError as error:
        raise SessionFormatError(f"cannot read: {error.strerror}", path=name) from None


def _read_all(handle: BinaryIO, name: str) -> bytes:
    try:
        return handle.read()
    except OSError as error:
        raise SessionFormatError(f"cannot read: {error.strerror}", path=name) from None


@contextlib.contextmanager
def _opened_for_reading(name: str) -> Iterator[BinaryIO]:
    """A regular file opened read-only; problems are a :class:`SessionFormatError`.

    Only regular files are read: a FIFO would block forever and a device such as
    ``/dev/zero`` never ends (``O_NONBLOCK`` keeps the open itself from blocking).
    """
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise SessionFormatError("no such session file", path=name) from None
    except OSError as error:
        raise SessionFormatError(f"cannot read: {error.strerror}", path=name) from None
    try:
        try:
            mode = os.fstat(fd).st_mode
        except OSError as error:
            raise SessionFormatError(f"cannot read: {error.strerror}", path=name) from None
        if stat.S_ISDIR(mode):
            raise SessionFormatError("is a directory, not a session file", path=name)
        if not stat.S_ISREG(mode):
            raise SessionFormatError("is not a regular file", path=name)
        with os.fdopen(os.dup(fd), "rb") as handle:
            yield handle
    finally:
        os.close(fd)


def read_file_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file, opened read-only; problems are a :class:`SessionFormatError`."""
    name = os.fspath(path)
    with _opened_for_reading(name) as handle:
        return _read_all(handle, name)


def dump_line(value: Any) -> bytes:
    """One JSON line (with its newline) as Pi would write it.

    orjson writes the common case; values it cannot represent exactly (lone surrogates,
    integers beyond 64 bits) go through the JavaScript-compatible renderer.
    """
    try:
        return orjson.dumps(value) + b"\n"
    except TypeError:
        return js_stringify(value).encode("utf-8") + b"\n"


def render_session(header: SessionHeader | dict[str, Any], entries: Iterable[Entry]) -> bytes:
    """The bytes of a whole session file: header line, then one line per entry."""
    parts = [dump_line(header)]
    parts.extend(dump_line(entry) for entry in entries)
    return b"".join(parts)


def write_atomically(path: str | os.PathLike[str], data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    The bytes go to a temporary file in the same directory, which is fsynced and then
    renamed over ``path``. The new file keeps the permissions of the one it replaces
    (``mkstemp`` would otherwise leave a rewritten session readable by its owner only).
    A symbolic link is followed: the file it points to is replaced and the link stays.
    """
    import tempfile  # here: with shutil it is most of the loader's import time, for writes only

    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise os_error_about(error, target) from None
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except OSError as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise os_error_about(error, target) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    if durable:
        fsync_directory(directory)


def os_error_about(error: OSError, path: str | os.PathLike[str]) -> OSError:
    """``error`` naming the session file being written: a failed ``write`` names no file,
    a failed temporary file names the temporary one; the user needs to read which of
    their files could not be written."""
    return OSError(error.errno, error.strerror, os.fspath(path))


def fsync_directory(directory: Path) -> None:
    """Make a new or renamed directory entry durable (best effort: not every OS allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
