"""The edges of an import: reading transcript rows, writing the Pi session file.

JSONL is read one line at a time and the session is written one entry at a time, so an
import holds one line and one assistant turn in memory, not the transcript. A whole JSON
document (an OpenAI message array, Claude Code's ``{"loglines": [...]}`` export) has to be
parsed at once. The output goes to a temporary file beside the target that is renamed
into place when complete: a failed import leaves no half-written session.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from synopsis.importers._build import ImportFormatError, Row, UnreadableLine
from synopsis.session.entries import Entry, SessionHeader
from synopsis.session.jsonl import dump_line, fsync_directory, parse_line


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="backslashreplace")


def _document_rows(value: Any) -> list[Row]:
    if isinstance(value, dict):
        for key in ("loglines", "messages"):
            if isinstance(value.get(key), list):
                return [Row(0, item) for item in value[key]]
        return [Row(1, value)]
    if isinstance(value, list):
        return [Row(0, item) for item in value]
    return [Row(1, value)]


def _first_line(handle: IO[bytes]) -> bytes:
    position = handle.tell()
    line = b""
    while not line.strip():
        line = handle.readline()
        if not line:
            break
    handle.seek(position)
    return line


def read_rows(handle: IO[bytes]) -> Iterator[Row]:
    """The records of a JSONL stream or of one JSON document, in order.

    Lines are parsed as JavaScript's ``JSON.parse`` would (lone surrogates, big integers
    and invalid UTF-8 are read, not refused); a JSONL line that is not JSON is given as
    :class:`UnreadableLine`, never skipped.
    """
    first = _first_line(handle)
    stripped = first.lstrip()
    is_document = stripped.startswith(b"[")
    if not is_document and stripped.startswith(b"{"):
        try:
            parse_line(first)
        except ValueError:
            is_document = True  # a pretty-printed document spans lines
    if is_document:
        data = handle.read()
        try:
            value = parse_line(data)
        except ValueError as error:
            raise ImportFormatError(f"not JSON or JSON lines ({error})") from None
        yield from _document_rows(value)
        return
    for number, raw in enumerate(handle, start=1):
        if not raw.strip():
            continue
        try:
            value = parse_line(raw)
        except ValueError:
            value = UnreadableLine(_decode(raw.rstrip(b"\r\n")))
        yield Row(number, value)


def write_session(target: Path, header: SessionHeader, entries: Iterable[Entry]) -> None:
    """Write ``header`` and ``entries`` to ``target`` through a temporary file."""
    directory = target.parent if str(target.parent) else Path(".")
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(dump_line(header))
            for entry in entries:
                handle.write(dump_line(entry))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, 0o644 & ~_umask())
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    fsync_directory(directory)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
