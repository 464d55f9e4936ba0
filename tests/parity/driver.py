#!/usr/bin/env python3
"""Parity driver: the reference command line of ``../shared/fixtures/pi16/README.md``.

    driver.py context FILE
    driver.py prepare FILE --keep-recent N --reserve R
    driver.py cutpoints FILE --keep-recent N
    driver.py serialize FILE

It prints what Pi 1.6.0 produces (plus the deliberate differences X1, X2 of that README),
so that our engine can be compared with the reference outputs, including on sessions we
have not seen. It reads sessions the way Pi does (a file without a valid header, or with
a BOM, is an error; an empty file is a new session; a repeated id replaces the earlier
entry in the id index), with ids created by migration numbered 00000001, 00000002, … as
the reference did. This file is a contract: keep its commands and output as the README
describes.

``prepare`` skims the file (:mod:`synopsis.session.skim`: message bodies stay bytes until
the cut, the token count or the transcript reads them) when it is a current-version
session; any other file is opened as the other commands open it. Both read the same tree.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from synopsis._js import js_stringify, to_utf8, utf16_len
from synopsis.compaction import (
    CompactionSettings,
    CutPoint,
    prepare_compaction,
    serialize_conversation,
)
from synopsis.compaction.cut_points import find_projected_cut
from synopsis.compaction.prepare import plan_projected_cut, to_branch_cut
from synopsis.compaction.serialize import PART_SEPARATOR
from synopsis.compaction.skimmed_transcript import iter_transcript_parts
from synopsis.errors import SynopsisError
from synopsis.messages import SummaryWrapping, convert_to_llm, role_of
from synopsis.session import FileSession, Session, open_session
from synopsis.session.context import Projection, build_projection
from synopsis.session.skim import MessageList, skim_session_file
from synopsis.system_messages import current_system_message
from synopsis.tokens import (
    ContextTokens,
    current_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
)

EMPTY_FILE_SESSION_ID = "00000000-0000-7000-8000-000000000000"
"""The id Pi gives the session it creates for an empty file when its clock and random
source are zero, as the reference ran it."""

# How Pi words a checkpoint and a branch summary for the model. Only the parity driver
# uses this wording; synopsis itself uses its own (synopsis.messages.DEFAULT_WRAPPING).
PI_WRAPPING = SummaryWrapping(
    compaction_prefix=(
        "The conversation history before this point was compacted into the following "
        "summary:\n\n<summary>\n"
    ),
    compaction_suffix="\n</summary>",
    branch_prefix=(
        "The following is a summary of a branch that this conversation came back from:"
        "\n\n<summary>\n"
    ),
    branch_suffix="</summary>",
)


def _counter() -> Callable[[], str]:
    count = 0

    def next_id() -> str:
        nonlocal count
        count += 1
        return f"{count:08x}"

    return next_id


def _open(path: str) -> FileSession:
    session = open_session(path, create=True, duplicates="last-wins", new_id=_counter())
    if not session.header_valid:
        session.header["id"] = EMPTY_FILE_SESSION_ID
    return session


def _skimmed(path: str) -> Session | None:
    """The session with message bodies left unread (``prepare`` reads the few it needs and
    streams the history once), or ``None`` for a file the usual open must handle: missing
    (a new session), empty, refused, or to migrate (see :mod:`synopsis.session.skim`)."""
    if not Path(path).exists():
        return None
    skimmed = skim_session_file(path)
    if skimmed is None:
        return None
    return Session(
        skimmed.header,
        skimmed.entries,
        duplicates="last-wins",
        new_id=_counter(),
        entry_lines=skimmed.entry_lines,
        source_path=path,
    )


def _tokens_json(tokens: ContextTokens) -> dict[str, Any]:
    return {
        "tokens": tokens.tokens,
        "usageTokens": tokens.usage_tokens,
        "trailingTokens": tokens.trailing_tokens,
        "lastUsageIndex": tokens.last_usage_index,
    }


def _role_counts(messages: Sequence[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for message in messages.heads() if isinstance(messages, MessageList) else messages:
        role = role_of(message)
        counts[role] = counts.get(role, 0) + 1
    return counts


def context_command(session: FileSession) -> dict[str, Any]:
    path = session.path()
    context = session.build_context()
    messages = context.messages
    roles = [role_of(m) for m in messages]
    per_message = [estimate_tokens(m) for m in messages]
    tokens = estimate_context_tokens(messages, per_message)
    llm = convert_to_llm(messages, PI_WRAPPING)
    model = context.model
    system = current_system_message(messages)
    projection = context.projection
    assert projection is not None
    return {
        "sessionId": session.header["id"],
        "headerValid": session.header_valid,
        "headerVersionBefore": session.version_before,
        "headerVersionAfter": session.header.get("version"),
        "entryCount": len(session.entries),
        "leafId": session.leaf_id,
        "branchLength": len(path),
        "messageCount": len(messages),
        "roles": roles,
        "roleCounts": _role_counts(messages),
        "firstRoles": roles[:10],
        "lastRoles": roles[-10:],
        "model": None if model is None else {"provider": model.provider, "modelId": model.model_id},
        "thinkingLevel": context.thinking_level,
        "sessionName": session.name,
        "estimatedTokens": sum(per_message),
        "perMessageTokens": per_message,
        "contextTokens": _tokens_json(tokens),
        "llmMessageCount": len(llm),
        "llmRoles": _role_counts(llm),
        "projectedContextTokens": _tokens_json(
            current_context_tokens(messages, context.new_messages_start)
        ),
        "currentSystemMessageTokens": None if system is None else estimate_tokens(system),
        "contextEdits": {
            "onPath": projection.edits_on_path,
            "applied": projection.edited,
            "omitted": len(projection.omitted),
        },
        "firstKeptEntryMissing": context.first_kept_entry_missing,
    }


def _serialized(messages: Sequence[Any]) -> str:
    return serialize_conversation(convert_to_llm(messages, PI_WRAPPING))


def _to_llm(messages: Sequence[Any]) -> list[Any]:
    return convert_to_llm(messages, PI_WRAPPING)


_NOT_FOUR_BYTE_LEAD = bytes(b for b in range(256) if not 0xF0 <= b <= 0xF7)
_SEPARATOR_BYTES = to_utf8(PART_SEPARATOR)

_MEASURED_BYTES = 1 << 20
"""Encoded parts are hashed and counted in runs of about this many bytes (fewer calls)."""


def _measure_serialized(
    messages: Iterable[Any], run_bytes: int = _MEASURED_BYTES
) -> tuple[int, int, str]:
    """(UTF-16 length, UTF-8 bytes, sha256) of the transcript, one part at a time.

    Each part is encoded by itself (joining the parts first would widen every one to the
    widest character of the run, and then encode all that again); the encoded parts are
    joined in runs of about ``run_bytes``, separators between them, for the digest. The
    UTF-16 length is a unit per character (a lone surrogate, which became U+FFFD, is one
    either way) plus one per character beyond the BMP (a four-byte sequence)."""
    digest = hashlib.sha256()
    characters = size = astral = 0
    parts = flushed = 0
    run: list[bytes] = []
    held = 0

    def flush() -> None:
        nonlocal size, astral, flushed
        joined = _SEPARATOR_BYTES.join(run)
        if flushed:
            joined = _SEPARATOR_BYTES + joined  # the separator before this run's first part
        digest.update(joined)
        size += len(joined)
        astral += len(joined.translate(None, _NOT_FOUR_BYTE_LEAD))
        run.clear()
        flushed += 1

    # One message at a time: a streamed history (a MessageList) is never held whole, and
    # its heads are rendered from what the transcript reads of their lines.
    for part in iter_transcript_parts(messages, _to_llm):
        encoded = to_utf8(part)
        characters += len(part)
        parts += 1
        run.append(encoded)
        held += len(encoded)
        if held >= run_bytes:
            flush()
            held = 0
    if run:
        flush()
    separators = max(parts - 1, 0) * len(PART_SEPARATOR)
    return characters + separators + astral, size, digest.hexdigest()


def prepare_command(session: Session, keep_recent: int, reserve: int) -> dict[str, Any] | None:
    branch = session.path()
    settings = CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep_recent)
    preparation = prepare_compaction(branch, settings)
    if preparation is None:
        return None
    read_files, modified_files = preparation.file_ops.file_lists()
    history_length, history_bytes, history_sha = _measure_serialized(
        preparation.messages_to_summarize
    )
    prefix_length, _, prefix_sha = _measure_serialized(preparation.turn_prefix_messages)
    previous = preparation.previous_summary
    ops = preparation.file_ops
    return {
        "keepRecentTokens": keep_recent,
        "reserveTokens": reserve,
        "branchLength": len(branch),
        "prevCompactionIndex": preparation.previous_compaction_index,
        "boundaryStart": preparation.range_start,
        "firstKeptEntryId": preparation.first_kept_entry_id,
        "firstKeptEntryIndex": preparation.first_kept_index,
        "isSplitTurn": preparation.is_split_turn,
        "turnStartIndex": preparation.turn_start_index,
        "tokensBefore": preparation.tokens_before,
        "messagesToSummarizeCount": len(preparation.messages_to_summarize),
        "messagesToSummarizeRoles": _role_counts(preparation.messages_to_summarize),
        "turnPrefixMessagesCount": len(preparation.turn_prefix_messages),
        "turnPrefixRoles": _role_counts(preparation.turn_prefix_messages),
        "previousSummaryPresent": previous is not None,
        "previousSummaryLength": utf16_len(previous) if previous is not None else None,
        "readFiles": read_files,
        "modifiedFiles": modified_files,
        "fileOps": {
            "read": list(ops.read),
            "written": list(ops.written),
            "edited": list(ops.edited),
        },
        "serializedLength": history_length,
        "serializedUtf8Bytes": history_bytes,
        "serializedSha256": history_sha,
        "turnPrefixSerializedLength": prefix_length,
        "turnPrefixSerializedSha256": prefix_sha,
    }


def _cut_json(branch: Sequence[Any], start: int, end: int, cut: CutPoint) -> dict[str, Any]:
    kept = branch[cut.first_kept_index] if cut.first_kept_index < len(branch) else None
    turn = branch[cut.turn_start_index] if cut.turn_start_index >= 0 else None
    return {
        "startIndex": start,
        "endIndex": end,
        "firstKeptEntryIndex": cut.first_kept_index,
        "firstKeptEntryId": kept["id"] if kept is not None else None,
        "firstKeptEntryType": kept["type"] if kept is not None else None,
        "turnStartIndex": cut.turn_start_index,
        "turnStartEntryId": turn["id"] if turn is not None else None,
        "isSplitTurn": cut.is_split_turn,
    }


def _whole_cut(projection: Projection, keep_recent: int) -> CutPoint:
    """The cut over the whole projection, in branch indices."""
    cut = find_projected_cut(projection, 0, len(projection), keep_recent)
    return to_branch_cut(projection, cut)


def cutpoints_command(session: FileSession, keep_recent: int) -> dict[str, Any]:
    branch = session.path()
    length = len(branch)
    settings = CompactionSettings(keep_recent_tokens=keep_recent)
    projection = build_projection(branch)
    bounds, after = plan_projected_cut(projection, settings)
    stride = max(1, math.ceil(length / 500))
    ends = list(range(1, length + 1, stride))
    if ends and ends[-1] != length:
        ends.append(length)
    rows = []
    for end in ends:
        cut = _whole_cut(build_projection(branch[:end]), keep_recent)
        rows.append([end, cut.first_kept_index, cut.turn_start_index, cut.is_split_turn])
    return {
        "keepRecentTokens": keep_recent,
        "branchLength": length,
        "prevCompactionIndex": bounds.previous_compaction_index,
        "wholeBranch": _cut_json(
            branch, projection.path_index(0), length, _whole_cut(projection, keep_recent)
        ),
        "afterLastCompaction": _cut_json(
            branch, bounds.start, length, to_branch_cut(projection, after)
        ),
        "sweep": {
            "description": (
                "findProjectedCutPoint(buildSessionProjection(branch[0:endIndex]).entries, "
                "0, its length, keepRecentTokens) for sampled endIndex, in branch indices"
            ),
            "startIndex": 0,
            "stride": stride,
            "columns": ["endIndex", "firstKeptEntryIndex", "turnStartIndex", "isSplitTurn"],
            "rows": rows,
        },
    }


def serialize_command(session: FileSession) -> str:
    return _serialized(session.build_context().messages)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["context", "prepare", "cutpoints", "serialize"])
    parser.add_argument("file")
    parser.add_argument("--keep-recent", type=int, default=20000)
    parser.add_argument("--reserve", type=int, default=16384)
    args = parser.parse_args(argv)
    try:
        if args.command == "prepare":
            skimmed = _skimmed(args.file)
            branch_of = _open(args.file) if skimmed is None else skimmed
            gc.freeze()
            result: Any = prepare_command(branch_of, args.keep_recent, args.reserve)
        else:
            session = _open(args.file)
            # Everything loaded lives until the process ends: keep the collector off it.
            gc.freeze()
            if args.command == "serialize":
                sys.stdout.buffer.write(to_utf8(serialize_command(session)))
                return 0
            if args.command == "context":
                result = context_command(session)
            else:
                result = cutpoints_command(session, args.keep_recent)
    except SynopsisError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(to_utf8(js_stringify(result)) + b"\n")
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Freeing a large session object by object takes longer than the work itself; the
    # output is written, so leave without the interpreter's teardown.
    os._exit(status)
