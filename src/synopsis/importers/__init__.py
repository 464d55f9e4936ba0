"""Import agent transcripts from other tools as Pi session files.

``import_transcript("rollout-….jsonl", "session.jsonl")`` reads a Claude Code transcript,
a Codex CLI rollout or an OpenAI chat message list and writes a Pi v3 session holding the
same conversation: every user and assistant message, every tool call with its result
(paired by id), file tools named so Pi's file tracking sees them. What has no Pi
equivalent is kept as ``custom`` entries and counted in the returned
:class:`ImportReport`; nothing is dropped silently. The converters
(:mod:`~synopsis.importers.claude_code`, :mod:`~synopsis.importers.codex`,
:mod:`~synopsis.importers.openai`) are pure: rows in, entry drafts out.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from synopsis.importers import claude_code, codex, openai
from synopsis.importers._build import (
    FORMATS,
    Draft,
    ImportFormatError,
    ImportReport,
    Row,
    SourceFormat,
    chain,
)
from synopsis.importers._io import read_rows, write_session
from synopsis.session.tree import new_header

__all__ = [
    "FORMATS",
    "ImportFormatError",
    "ImportReport",
    "SourceFormat",
    "convert_rows",
    "detect_format",
    "import_transcript",
]

_PEEK_ROWS = 50
"""Rows read ahead to recognise the format and find the session id and cwd."""

_Converter = Callable[[Iterable[Row], ImportReport], Iterator[Draft]]
_CONVERTERS: dict[SourceFormat, tuple[Callable[[object], bool], _Converter]] = {
    "codex": (codex.looks_like, codex.convert),
    "claude-code": (claude_code.looks_like, claude_code.convert),
    "openai": (openai.looks_like, openai.convert),
}
_HEADER_FIELDS = {
    "codex": codex.header_fields,
    "claude-code": claude_code.header_fields,
    "openai": openai.header_fields,
}


def detect_format(rows: Iterable[Row]) -> SourceFormat | None:
    """The format most of the first rows look like (Codex, then Claude Code, then OpenAI)."""
    votes = dict.fromkeys(_CONVERTERS, 0)
    for row in rows:
        for name, (looks_like, _) in _CONVERTERS.items():
            if looks_like(row.value):
                votes[name] += 1
                break
    best = max(votes, key=lambda name: votes[name])
    return best if votes[best] else None


def convert_rows(
    rows: Iterable[Row], source_format: SourceFormat, report: ImportReport
) -> Iterator[Draft]:
    """Entry drafts for ``rows`` read as ``source_format``; counts go to ``report``."""
    return _CONVERTERS[source_format][1](rows, report)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def import_transcript(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    source_format: SourceFormat | None = None,
    overwrite: bool = False,
) -> ImportReport:
    """Convert the transcript at ``source`` into a Pi session file at ``target``.

    The format is recognised from the first rows unless ``source_format`` is given. An
    existing ``target`` is replaced only with ``overwrite=True``, and never when it is the
    source itself. Raises :class:`ImportFormatError` for input that cannot be imported.
    """
    source_path, target_path = Path(source), Path(target)
    if source_format is not None and source_format not in FORMATS:
        raise ImportFormatError(
            f"unknown format {source_format!r}: use one of {', '.join(FORMATS)}"
        )
    if not source_path.is_file():
        problem = "is not a regular file" if source_path.exists() else "no such file"
        raise ImportFormatError(f"{source_path}: {problem}")
    if _same_file(source_path, target_path):
        raise ImportFormatError(f"{target_path}: the output would overwrite the transcript")
    if target_path.exists() and not overwrite:
        raise ImportFormatError(f"{target_path} exists; remove it or pass --force")
    if target_path.is_dir():
        raise ImportFormatError(f"{target_path} is a directory")
    try:
        handle = source_path.open("rb")
    except OSError as error:
        raise ImportFormatError(f"{source_path}: cannot read: {error.strerror}") from None
    with handle:
        rows = read_rows(handle)
        peeked = list(itertools.islice(rows, _PEEK_ROWS))
        if not peeked:
            raise ImportFormatError(f"{source_path}: the file holds no records")
        detected = detect_format(peeked)
        chosen = source_format or detected
        if chosen is None:
            raise ImportFormatError(
                f"{source_path}: not a Claude Code, Codex or OpenAI transcript "
                "(pass --format if it is one)"
            )
        if source_format is not None and not any(
            _CONVERTERS[source_format][0](row.value) for row in peeked
        ):
            raise ImportFormatError(f"{source_path}: does not look like a {source_format} file")
        fields = _HEADER_FIELDS[chosen](peeked)
        header = new_header(session_id=fields.get("id"), cwd=fields.get("cwd", ""))
        if "timestamp" in fields:
            header["timestamp"] = fields["timestamp"]
        report = ImportReport(chosen)
        drafts = convert_rows(itertools.chain(peeked, rows), chosen, report)
        entries = _counted(chain(drafts, default_timestamp=header["timestamp"]), report)
        try:
            write_session(target_path, header, entries)
        except OSError as error:
            reason = error.strerror or str(error)
            raise ImportFormatError(f"cannot write {target_path}: {reason}") from None
    return report


def _counted(
    entries: Iterable[dict[str, object]], report: ImportReport
) -> Iterator[dict[str, object]]:
    for entry in entries:
        report.entries += 1
        yield entry
