"""Reading a session file for one look: message bodies stay bytes until they are asked for.

Opening a session the usual way (:func:`synopsis.session.store.open_session`) turns every
line into dicts: on a 100,000-entry file that is most of the time and memory of a
``prepare`` that then reads a few thousand messages in full and streams the others once
(to summarize them). :func:`skim_session_file` reads the same file into the same tree, but
each message entry's ``message`` is an :class:`Unread` head holding only its ``role`` and
where its line is in the file's bytes (which stay in memory: they are the store). The
bodies are read when a step needs them: :func:`full_message` reads one for good (the
tail a cut or a token count walks), :class:`MessageList` reads them afresh on each pass
and keeps none (the history to summarize).

The tree is the loader's: the same lines are entries, skipped (with the same reasons),
their ids indexed the same way. A line is skimmed (decoded with ``msgspec`` down to its
type, id, parent and message role) only when it is an ordinary entry; any other line
(not JSON for that decoder, an odd shape, nested deeply, a message without content) goes
through the loader's own code, read in full. A file the loader would migrate, refuse or
read as a new session is not skimmed at all (``None``: open it the usual way).

Heads are for code that knows them: compaction preparation
(:func:`synopsis.compaction.prepare.prepare_compaction`) and the token and cut functions
it calls read bodies through :func:`full_message`, the file lists read a history's calls
through :meth:`MessageList.file_calls`, and its transcript is rendered from the lines by
:mod:`synopsis.compaction.skimmed_transcript`. Anything else must be given full messages.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import orjson

from synopsis.messages import AgentMessage
from synopsis.session.entries import Entry, SessionHeader, entry_problem
from synopsis.session.jsonl import (
    _BLANK,
    _BOM,
    _LARGE_LINE,
    _PROMOTE_BYTES,
    MAX_NESTING,
    SkippedLine,
    _needs_migration,
    _opened_for_reading,
    _read_all,
    _version_of,
    describe_parse_error,
    gc_paused,
    is_header,
    is_torn_line,
    parse_line,
)

UNREAD_CONTENT: Any = type("UnreadContent", (), {"__repr__": lambda self: "<unread>"})()
"""The ``content`` of a head whose body was not read (never ``None``, which would mean an
empty message)."""


class Unread(dict[str, Any]):
    """A message not read yet: ``{"role": ..., "content": UNREAD_CONTENT}`` and where its
    entry's line is. :meth:`read` gives the full message; :meth:`read_in_place` makes
    this dict the full message (same keys, same order), for good."""

    __slots__ = ("_data", "_nested", "_start", "_stop")
    _data: bytes | None
    """The file's bytes (``None`` once read in place)."""
    _start: int
    _stop: int
    _nested: bool
    """Has the message ``nestedCalls`` (other than ``null``)?"""

    @property
    def unread(self) -> bool:
        return self._data is not None

    def line(self) -> memoryview:
        """The bytes of the entry's line (only while unread)."""
        assert self._data is not None
        return memoryview(self._data)[self._start : self._stop]

    def read(self) -> dict[str, Any]:
        """The full message, decoded from its line (a new dict each time)."""
        data = self._data
        if data is None:
            return self
        start, stop = self._start, self._stop
        # The skim parsed the line and measured its nesting: orjson reads almost all.
        if stop - start <= _LARGE_LINE:
            with contextlib.suppress(orjson.JSONDecodeError):
                return orjson.loads(memoryview(data)[start:stop])["message"]  # type: ignore[no-any-return]
        return parse_line(data, start, stop)["message"]  # type: ignore[no-any-return]

    def read_in_place(self) -> Unread:
        if self._data is not None:
            message = self.read()
            self.clear()
            self.update(message)
            self._data = None
        return self


def full_message(message: Any) -> Any:
    """``message`` with its body read (for good) if it is an :class:`Unread` head."""
    return message.read_in_place() if type(message) is Unread else message


class MessageList(Sequence[AgentMessage]):
    """Messages some of which may be heads, read afresh on each pass and never kept.

    Iterating yields full messages (a head's body decoded for that pass only), so a
    summarizer can stream a history far larger than it could hold as dicts.
    """

    __slots__ = ("_messages",)

    def __init__(self, messages: list[AgentMessage]) -> None:
        self._messages = messages

    def __len__(self) -> int:
        return len(self._messages)

    @overload
    def __getitem__(self, index: int) -> AgentMessage: ...
    @overload
    def __getitem__(self, index: slice) -> MessageList: ...
    def __getitem__(self, index: int | slice) -> AgentMessage | MessageList:
        if isinstance(index, slice):
            return MessageList(self._messages[index])
        message = self._messages[index]
        return message.read() if type(message) is Unread else message  # type: ignore[return-value]

    def __iter__(self) -> Iterator[AgentMessage]:
        for message in self._messages:
            yield message.read() if type(message) is Unread else message  # type: ignore[misc]

    def heads(self) -> list[AgentMessage]:
        """The messages as held (heads unread): for what needs only their roles."""
        return self._messages

    def file_calls(
        self, calls_of: Callable[[AgentMessage], Iterable[tuple[object, object]]]
    ) -> Iterator[tuple[object, object]]:
        """``(name, path)`` of each call of the messages, in order (what
        :class:`~synopsis.compaction.FileOperations` reads): an assistant head's tool-call
        blocks decoded straight from its line; heads that hold no calls (other roles, a
        tool result without ``nestedCalls``) passed over; any other message, or a body of
        another shape, read in full and given to ``calls_of``."""
        from synopsis.session._skeleton import REJECTED, decode_calls_line

        for message in self._messages:
            if type(message) is Unread and message._data is not None:
                role = message["role"]
                if role == "assistant":
                    try:
                        content = decode_calls_line(message.line()).message.content
                    except REJECTED:
                        pass
                    else:
                        if type(content) is list:
                            for block in content:
                                if block.type == "toolCall":
                                    arguments = block.arguments
                                    yield block.name, None if arguments is None else arguments.path
                        continue
                elif role != "toolResult" or not message._nested:
                    continue
                message = message.read()  # type: ignore[assignment]
            yield from calls_of(message)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MessageList({len(self)} messages)"


def with_lines(messages: Iterable[AgentMessage]) -> Iterator[tuple[Any, memoryview | None]]:
    """Each message as held, with its entry's line when it is an unread :class:`Unread`
    head (else ``None``): for a pass that decodes the lines itself, without a view made
    per head."""
    held = messages.heads() if isinstance(messages, MessageList) else messages
    data: bytes | None = None
    view = memoryview(b"")
    for message in held:
        if type(message) is Unread and message._data is not None:
            if message._data is not data:
                data = message._data
                view = memoryview(data)
            yield message, view[message._start : message._stop]
        else:
            yield message, None


def messages_of(messages: list[AgentMessage]) -> list[AgentMessage] | MessageList:
    """``messages`` as they are if none is a head, else a :class:`MessageList`."""
    if any(type(message) is Unread for message in messages):
        return MessageList(messages)
    return messages


# --- reading -------------------------------------------------------------------------------


_NOT_BRACKET = bytes(b for b in range(256) if b not in b"{[\n")


@dataclass(slots=True)
class SkimmedFile:
    """What :func:`skim_session_file` read: the header and the entries (heads for messages)."""

    header: SessionHeader
    entries: list[Entry]
    skipped: list[SkippedLine] = field(default_factory=list)
    entry_lines: list[int] = field(default_factory=list)
    version_before: int | None = None
    data: bytes = b""
    """The file's bytes (the heads' store)."""


_MANY_BRACKETS = re.compile(rb"\n[{\[]{%d}" % (MAX_NESTING + 1))
"""A line start followed by more opening brackets than :data:`MAX_NESTING` (the newline
first: the search then only tries where lines start)."""


def _bracketed_lines(data: bytes) -> set[int]:
    """The numbers (from 1) of the lines of ``data`` with more than :data:`MAX_NESTING`
    opening brackets (a free bound of a line's nesting depth: the others cannot be too
    deep), found in one pass over the bytes: with all else but newlines deleted, such a
    line is a run of brackets that long."""
    kept = b"\n" + data.translate(None, _NOT_BRACKET)
    lines: set[int] = set()
    counted = newlines = 0
    for run in _MANY_BRACKETS.finditer(kept):
        newlines += kept.count(b"\n", counted, run.start())
        counted = run.start()
        lines.add(newlines + 1)
    return lines


def skim_session_file(path: str | os.PathLike[str]) -> SkimmedFile | None:
    """The session in ``path`` with message bodies left unread (see the module docstring).

    ``None`` when the file is not a current-version session the loader reads as it is:
    empty, a BOM, no header first, or a version to migrate. Read problems are a
    :class:`~synopsis.errors.SessionFormatError`, as when opening.
    """
    name = os.fspath(path)
    with _opened_for_reading(name) as handle:
        data = _read_all(handle, name)
    if not data or data.startswith(_BOM):
        return None
    with gc_paused(promote=len(data) >= _PROMOTE_BYTES):  # as the loader, for the same reason
        return _Skimmer(data).run()


class _Skimmer:
    """One pass over the lines, as :class:`synopsis.session.jsonl._LineReader` reads a
    current-version file with the lenient defaults (never strict)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.entries: list[Entry] = []
        self.entry_lines: list[int] = []
        self.skipped: list[SkippedLine] = []

    def run(self) -> SkimmedFile | None:
        data = self.data
        size = len(data)
        bracketed = _bracketed_lines(data)
        view = memoryview(data)
        find = data.find
        from synopsis.session import _skeleton

        decode, null, rejected = _skeleton.decode_line, _skeleton.NULL, _skeleton.REJECTED
        entries, entry_lines = self.entries, self.entry_lines
        header: dict[str, Any] | None = None
        start = 0
        number = 0
        while start < size:
            end = find(b"\n", start)
            if end == -1:
                end = size
            number += 1
            line_start = start
            stop = end - 1 if end > start and data[end - 1] == 0x0D else end
            start = end + 1
            if line_start == stop or (
                data[line_start] in _BLANK and not data[line_start:stop].strip()
            ):
                continue
            if header is None:
                value = self._parse(line_start, stop, number)
                if value is _SKIPPED:
                    continue
                if not is_header(value) or _needs_migration(_version_of(value)):
                    return None  # the loader refuses, or migrates: not for skimming
                header = value
                continue
            if number not in bracketed:
                try:
                    line = decode(view[line_start:stop])
                except rejected:
                    line = None
                if line is not None:
                    head = line.message
                    if line.type == "message":
                        if head is not None and head.content != null:
                            unread = Unread(role=head.role, content=UNREAD_CONTENT)
                            unread._data = data
                            unread._start = line_start
                            unread._stop = stop
                            unread._nested = head.nestedCalls != null
                            entry: Entry = {
                                "type": "message",
                                "id": line.id,
                                "parentId": line.parentId,
                                "message": unread,
                            }
                            entries.append(entry)
                            entry_lines.append(number)
                            continue
                    elif head is None:
                        with contextlib.suppress(orjson.JSONDecodeError):
                            value = orjson.loads(view[line_start:stop])
                            if type(value) is dict:  # an ordinary entry, read in full
                                entries.append(value)
                                entry_lines.append(number)
                                continue
            self._exact(line_start, stop, number)
        if header is None:
            return None
        return SkimmedFile(
            header,  # type: ignore[arg-type]
            entries,
            self.skipped,
            entry_lines,
            _version_of(header),
            data,
        )

    def _parse(self, start: int, stop: int, number: int) -> Any:
        """The line parsed as the loader parses it, or :data:`_SKIPPED` (reported)."""
        try:
            return parse_line(self.data, start, stop)
        except ValueError as error:
            reason = describe_parse_error(error, torn=is_torn_line(self.data, stop))
            self.skipped.append(SkippedLine(number, reason))
            return _SKIPPED

    def _exact(self, start: int, stop: int, number: int) -> None:
        """A line that is no ordinary entry, read in full as the loader reads it."""
        value = self._parse(start, stop, number)
        if value is _SKIPPED:
            return
        problem = entry_problem(value, needs_id=True)
        if problem is not None:
            self.skipped.append(SkippedLine(number, problem))
            return
        self.entries.append(value)
        self.entry_lines.append(number)


_SKIPPED: Any = object()
