"""What the model sees: the context built from the path root → leaf.

Pure functions over a path of entries (see :meth:`synopsis.session.Session.path`). With a
compaction on the path, the latest one stands for everything before its first kept entry:
the context is its summary, then the entries it kept, then everything after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from synopsis.messages import AgentMessage
from synopsis.session.entries import Entry


@dataclass(frozen=True, slots=True)
class ModelRef:
    provider: str | None
    model_id: str | None


@dataclass(slots=True)
class SessionContext:
    """Messages for the model plus the settings in force at the leaf."""

    messages: list[AgentMessage] = field(default_factory=list)
    thinking_level: str = "off"
    model: ModelRef | None = None
    entry_ids: list[str] = field(default_factory=list)
    """The id of the entry each message came from (the compaction's id for its summary)."""
    compaction_index: int = -1
    """Position on the path of the compaction in force, or -1."""
    first_kept_entry_missing: bool = False
    """The compaction's first kept entry is not on the path before it (its kept part is lost)."""
    new_messages_start: int = 0
    """Index of the first message that came after the compaction in force (0 without one).

    Usage reported by replies before that point describes a context that no longer exists.
    """


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def iso_to_ms(timestamp: Any) -> int | None:
    """Milliseconds since the epoch of an ISO 8601 timestamp, or ``None`` if unreadable."""
    if not isinstance(timestamp, str):
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
        if moment.tzinfo is None:
            moment = moment.astimezone()  # no offset: local time, as JavaScript reads it
        # integer arithmetic: timestamp() * 1000 is a float and can land 1 ms short
        return (moment - _EPOCH) // _ONE_MS
    except (ValueError, OverflowError):
        return None


def entry_message(entry: Entry) -> AgentMessage | None:
    """The context message an entry contributes, or ``None`` for entries that add none.

    Compaction entries contribute nothing here: only the latest one on a path speaks,
    through its summary, and :func:`build_session_context` places it.
    """
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None  # type: ignore[return-value]
    if kind == "custom_message":
        custom: dict[str, Any] = {
            "role": "custom",
            "customType": entry.get("customType"),
            "content": entry.get("content"),
            "display": entry.get("display"),
            "details": entry.get("details"),
            "timestamp": iso_to_ms(entry.get("timestamp")),
        }
        return cast(AgentMessage, custom)
    if kind == "branch_summary":
        summary = entry.get("summary")
        if not summary or not isinstance(summary, str):
            return None
        branch: dict[str, Any] = {
            "role": "branchSummary",
            "summary": summary,
            "fromId": entry.get("fromId"),
            "timestamp": iso_to_ms(entry.get("timestamp")),
        }
        return cast(AgentMessage, branch)
    return None


def compaction_summary_message(entry: Entry) -> AgentMessage:
    summary = entry.get("summary")
    tokens_before = entry.get("tokensBefore")
    return {
        "role": "compactionSummary",
        "summary": summary if isinstance(summary, str) else "",
        "tokensBefore": tokens_before if isinstance(tokens_before, int) else 0,
        "timestamp": iso_to_ms(entry.get("timestamp")),  # type: ignore[typeddict-item]
    }


def latest_compaction_index(path: Sequence[Entry]) -> int:
    for index in range(len(path) - 1, -1, -1):
        if path[index].get("type") == "compaction":
            return index
    return -1


def find_first_kept_index(path: Sequence[Entry], compaction_index: int) -> int:
    """Where the kept part of the compaction at ``compaction_index`` starts, or -1.

    The first kept entry counts only when it lies on the path before the compaction.
    """
    first_kept_id = path[compaction_index].get("firstKeptEntryId")
    for index in range(compaction_index):
        if path[index].get("id") == first_kept_id:
            return index
    return -1


def build_session_context(path: Sequence[Entry]) -> SessionContext:
    """The context for the model at the end of ``path`` (entries root → leaf)."""
    context = SessionContext()
    for entry in path:
        kind = entry.get("type")
        if kind == "thinking_level_change":
            level = entry.get("thinkingLevel")
            if isinstance(level, str):
                context.thinking_level = level
        elif kind == "model_change":
            context.model = ModelRef(entry.get("provider"), entry.get("modelId"))
        elif kind == "message":
            message = entry.get("message")
            if isinstance(message, dict) and message.get("role") == "assistant":
                context.model = ModelRef(message.get("provider"), message.get("model"))

    compaction_index = latest_compaction_index(path)
    context.compaction_index = compaction_index
    messages = context.messages
    ids = context.entry_ids

    def emit(start: int, stop: int) -> None:
        for index in range(start, stop):
            entry = path[index]
            message = entry_message(entry)
            if message is not None:
                messages.append(message)
                ids.append(entry["id"])

    if compaction_index < 0:
        emit(0, len(path))
        return context

    compaction = path[compaction_index]
    messages.append(compaction_summary_message(compaction))
    ids.append(compaction["id"])
    first_kept = find_first_kept_index(path, compaction_index)
    if first_kept < 0:
        context.first_kept_entry_missing = True
    else:
        emit(first_kept, compaction_index)
    context.new_messages_start = len(messages)
    emit(compaction_index + 1, len(path))
    return context


def branch_context_tokens(path: Sequence[Entry]) -> int:
    """The context estimate of ``path`` without building its context.

    Equal to ``estimate_context_tokens(build_session_context(path).messages).tokens`` (a
    property test holds it to that), but walks back only to the newest valid usage, which
    is what keeps preparing a compaction of a long session cheap.
    """
    from synopsis.tokens import calculate_context_tokens, estimate_tokens, valid_usage

    compaction_index = latest_compaction_index(path)
    segments = [range(compaction_index + 1, len(path))]
    if compaction_index >= 0:
        first_kept = find_first_kept_index(path, compaction_index)
        if first_kept >= 0:
            segments.append(range(first_kept, compaction_index))
    trailing = 0
    for segment in segments:
        for index in reversed(segment):
            message = entry_message(path[index])
            if message is None:
                continue
            usage = valid_usage(message)
            if usage is not None:
                return calculate_context_tokens(usage) + trailing
            trailing += estimate_tokens(message)
    if compaction_index >= 0:
        trailing += estimate_tokens(compaction_summary_message(path[compaction_index]))
    return trailing
