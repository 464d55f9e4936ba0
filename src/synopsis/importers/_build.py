"""What every importer shares: the report it fills, and the drafts it yields.

A converter reads the rows of one transcript and yields :class:`Draft` entries: Pi
entries without ``id`` and ``parentId``. :func:`chain` numbers them and links each to the
one before, so an imported session is one branch in the order of the transcript. The
converter notes in the :class:`ImportReport` what it mapped and what it could only keep
as a ``custom`` entry; nothing here reads or writes files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import orjson

from synopsis._js import js_stringify
from synopsis.errors import SynopsisError
from synopsis.session.entries import Entry

SourceFormat = Literal["claude-code", "codex", "openai"]
FORMATS: tuple[SourceFormat, ...] = ("claude-code", "codex", "openai")


class ImportFormatError(SynopsisError, ValueError):
    """A file cannot be imported: unreadable, empty, or not in any known transcript format."""


class UnreadableLine:
    """A line that is not JSON; it is kept as text in a ``custom`` entry."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_LISTED_LINES = 20
"""How many unreadable lines the warnings name one by one."""


@dataclass(slots=True)
class Row:
    """One parsed record of a transcript, with the line it starts on (1-based)."""

    line: int
    value: Any


@dataclass(slots=True)
class ImportReport:
    """What an import produced, counted as the converter emitted it."""

    source_format: SourceFormat
    user_messages: int = 0
    assistant_messages: int = 0
    tool_calls: int = 0
    tool_results: int = 0
    instruction_messages: int = 0
    """Harness instructions (Codex ``developer``, OpenAI ``system``) kept in the context."""
    custom_entries: Counter[str] = field(default_factory=Counter)
    """Rows kept verbatim as ``custom`` entries, by what they were."""
    unanswered_calls: int = 0
    several_file_patches: int = 0
    warnings: list[str] = field(default_factory=list)
    entries: int = 0

    unreadable_lines: int = 0
    blocks_as_text: int = 0
    """Content blocks Pi has no type for inside user content or tool results, kept as JSON."""

    def kept(self, kind: str) -> None:
        self.custom_entries[kind] += 1

    def unreadable(self, row: Row) -> Draft | None:
        """The custom entry keeping a line that is not JSON, or None for a JSON row."""
        if not isinstance(row.value, UnreadableLine):
            return None
        self.unreadable_lines += 1
        if self.unreadable_lines <= _LISTED_LINES:
            self.warnings.append(f"line {row.line} is not JSON; kept as text in a custom entry")
        self.kept("line that is not JSON")
        return custom_draft("import/unreadable-line", {"line": row.line, "text": row.value.text})

    def summary_warnings(self) -> list[str]:
        """Every warning, with one line counting the rows kept as ``custom`` entries."""
        lines = list(self.warnings)
        if self.blocks_as_text:
            lines.append(
                f"{self.blocks_as_text} content block(s) Pi has no type for were kept as their "
                "JSON text in the message"
            )
        if self.unreadable_lines > _LISTED_LINES:
            lines.append(
                f"… and {self.unreadable_lines - _LISTED_LINES} more lines that are not JSON"
            )
        if self.custom_entries:
            kinds = ", ".join(f"{kind} ×{n}" for kind, n in self.custom_entries.most_common())
            total = sum(self.custom_entries.values())
            lines.append(
                f"{total} row(s) have no Pi equivalent and were kept as custom entries "
                f"(outside the model's context): {kinds}"
            )
        if self.unanswered_calls:
            lines.append(
                f"{self.unanswered_calls} tool call(s) have no result in the transcript "
                "(interrupted or still running when it was saved)"
            )
        if self.several_file_patches:
            lines.append(
                f"{self.several_file_patches} patch(es) changed several files: Pi's file "
                "tracking sees the first file of each (all are listed in the call's `paths`)"
            )
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.source_format,
            "entries": self.entries,
            "userMessages": self.user_messages,
            "assistantMessages": self.assistant_messages,
            "toolCalls": self.tool_calls,
            "toolResults": self.tool_results,
            "instructionMessages": self.instruction_messages,
            "customEntries": dict(self.custom_entries),
            "unansweredCalls": self.unanswered_calls,
            "warnings": self.summary_warnings(),
        }


Draft = dict[str, Any]
"""An entry without ``id`` and ``parentId``; ``timestamp`` is optional."""


def message_draft(message: dict[str, Any], timestamp: str | None) -> Draft:
    draft: Draft = {"type": "message", "message": message}
    if timestamp:
        draft["timestamp"] = timestamp
    return draft


def custom_draft(custom_type: str, data: Any, timestamp: str | None = None) -> Draft:
    draft: Draft = {"type": "custom", "customType": custom_type, "data": data}
    if timestamp:
        draft["timestamp"] = timestamp
    return draft


def instruction_draft(custom_type: str, text: str, timestamp: str | None) -> Draft:
    """Harness instructions: a ``custom_message`` the model sees (as user content), hidden."""
    draft: Draft = {
        "type": "custom_message",
        "customType": custom_type,
        "content": text,
        "display": False,
    }
    if timestamp:
        draft["timestamp"] = timestamp
    return draft


def chain(drafts: Iterable[Draft], *, default_timestamp: str) -> Iterator[Entry]:
    """Give each draft an id and make it the child of the previous one."""
    parent: str | None = None
    for number, draft in enumerate(drafts, start=1):
        entry_id = format(number, "08x")
        entry: Entry = {
            "type": draft.pop("type"),
            "id": entry_id,
            "parentId": parent,
            "timestamp": draft.pop("timestamp", None) or default_timestamp,
            **draft,
        }
        parent = entry_id
        yield entry


def timestamp_ms(value: Any) -> int | None:
    """Milliseconds since the epoch of an ISO-8601 time (or a number of seconds/ms)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value if value > 10**11 else value * 1000)
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return int(moment.timestamp() * 1000)


def iso_timestamp(value: Any) -> str | None:
    """The row's time as an ISO string for the entry, when it is one."""
    return value if isinstance(value, str) and timestamp_ms(value) is not None else None


def with_timestamp(message: dict[str, Any], source_time: Any) -> dict[str, Any]:
    ms = timestamp_ms(source_time)
    if ms is not None:
        message["timestamp"] = ms
    return message


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def json_text(value: Any) -> str:
    """``value`` as JSON text; values orjson refuses (huge integers…) as JavaScript writes them."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return js_stringify(value)


def joined_text(content: Any) -> str:
    """The text of a string or of a list of parts with ``text`` (OpenAI-style content)."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "\n".join(
        part["text"]
        for part in parts
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    )


def parse_arguments(raw: Any) -> dict[str, Any]:
    """Tool-call arguments from a JSON string; text that is not a JSON object is kept whole."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str) and raw.strip():
        try:
            parsed = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return {"input": raw}
        return parsed if isinstance(parsed, dict) else {"input": parsed}
    return {}


class PendingCalls:
    """Tool calls waiting for their result: the name each result is filed under.

    Only calls still open are held, so memory follows the number of calls in flight, not
    the length of the transcript.
    """

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def open(self, call_id: str, name: str) -> None:
        self._names[call_id] = name

    def close(self, call_id: str) -> str | None:
        return self._names.pop(call_id, None)

    def __len__(self) -> int:
        return len(self._names)
