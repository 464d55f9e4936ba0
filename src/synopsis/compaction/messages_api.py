"""Compaction for applications that keep a plain list of chat messages.

Not every application stores Pi session files. :func:`compact_messages` applies the same
cut rules to an OpenAI- or Anthropic-format message list and returns the list to send
next: the leading system messages, a checkpoint message, then the recent messages kept
untouched. Calling it again on its own output, with the summary it returned, is how a
long-lived application compacts again and again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from synopsis.compaction.chat_format import (
    ChatFormat,
    ChatFormatError,
    ReadMessage,
    checkpoint_message,
    read_chat_messages,
)
from synopsis.compaction.compact import compact
from synopsis.compaction.cut_points import find_cut_point
from synopsis.compaction.file_ops import FileOperations
from synopsis.compaction.prepare import CompactionPreparation
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import DEFAULT_WRAPPING, SummaryWrapping
from synopsis.summarizers.base import Summarizer, SummaryUsage
from synopsis.tokens import estimate_tokens


@dataclass(slots=True)
class CompactedMessages:
    summary: str | None
    """The checkpoint text (``None`` when nothing needed compacting and none was given)."""
    kept: list[Any]
    """The original messages kept verbatim, in order."""
    messages: list[Any]
    """Ready to send: leading system messages + checkpoint message + kept messages."""
    compacted: bool
    tokens_before: int
    tokens_after: int
    usage: SummaryUsage = field(default_factory=SummaryUsage)


def _split_system(messages: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    lead = 0
    while (
        lead < len(messages)
        and isinstance(messages[lead], dict)
        and messages[lead].get("role") in ("system", "developer")
    ):
        lead += 1
    return list(messages[:lead]), list(messages[lead:])


def _is_checkpoint(message: Any, text: str) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        content = content[0].get("text")
    return message.get("role") in ("user", "system") and content == text


def _safe_cut(read: list[ReadMessage], cut: int) -> int:
    """Move the cut past a chat message that also carries tool results.

    An Anthropic user turn can hold tool results and new text together; keeping it
    would keep results whose calls were summarized, so the cut moves to the next message.
    """
    with_results = {r.source_index for r in read if r.message.get("role") == "toolResult"}
    while cut < len(read) and read[cut].source_index in with_results:
        cut += 1
    return cut


async def compact_messages(
    messages: Sequence[Any],
    *,
    summarizer: Summarizer | None = None,
    keep_recent_tokens: int = 20000,
    summary_max_tokens: int | None = None,
    previous_summary: str | None = None,
    format: ChatFormat = "openai",
    custom_instructions: str | None = None,
    wrapping: SummaryWrapping = DEFAULT_WRAPPING,
    checkpoint_role: Literal["user", "system"] = "user",
) -> CompactedMessages:
    """Compact a chat message list (see the module docstring).

    ``checkpoint_role="system"`` sends the checkpoint as a system message after the
    leading ones (OpenAI format only: Anthropic's system prompt is not a message).
    """
    if checkpoint_role == "system" and format == "anthropic":
        raise ChatFormatError(
            "Anthropic messages have no system role: keep checkpoint_role='user', or put "
            "the returned summary into the system parameter yourself"
        )
    system, rest = _split_system(messages)
    if previous_summary:  # our own earlier checkpoint is not conversation to summarize
        old = wrapping.wrap_compaction(previous_summary)
        system = [message for message in system if not _is_checkpoint(message, old)]
        if rest and _is_checkpoint(rest[0], old):
            rest = rest[1:]
    read = read_chat_messages(rest, format)
    tokens_before = sum(estimate_tokens(r.message) for r in read)
    entries = [
        {"type": "message", "id": str(i), "parentId": None, "message": r.message}
        for i, r in enumerate(read)
    ]
    cut = find_cut_point(entries, 0, len(entries), keep_recent_tokens)
    first_kept = _safe_cut(read, cut.first_kept_index)
    turn_start, is_split = cut.turn_start_index, cut.is_split_turn
    if first_kept != cut.first_kept_index and not is_split:
        turn_start, is_split = cut.first_kept_index, True
    history_end = turn_start if is_split else first_kept
    to_summarize = [r.message for r in read[:history_end]]
    prefix = [r.message for r in read[turn_start:first_kept]] if is_split else []
    kept_source = read[first_kept].source_index if first_kept < len(read) else len(rest)
    kept = rest[kept_source:]
    if not to_summarize and not prefix:
        summary = previous_summary
        head = (
            [checkpoint_message(wrapping.wrap_compaction(summary), format, checkpoint_role)]
            if summary
            else []
        )
        return CompactedMessages(
            summary, kept, system + head + kept, False, tokens_before, tokens_before
        )
    file_ops = FileOperations()
    file_ops.add_from_messages(to_summarize)
    file_ops.add_from_messages(prefix)
    preparation = CompactionPreparation(
        first_kept_entry_id=str(first_kept),
        first_kept_index=first_kept,
        messages_to_summarize=to_summarize,
        turn_prefix_messages=prefix,
        is_split_turn=is_split,
        turn_start_index=turn_start if is_split else -1,
        tokens_before=tokens_before,
        previous_summary=previous_summary,
        previous_compaction_index=-1,
        range_start=0,
        file_ops=file_ops,
        settings=CompactionSettings(keep_recent_tokens=keep_recent_tokens),
        kept_messages=[r.message for r in read[first_kept:]],
    )
    if summarizer is None:
        from synopsis.compaction.run import default_summarizer

        summarizer = default_summarizer()
    result = await compact(
        preparation,
        summarizer,
        custom_instructions=custom_instructions,
        wrapping=wrapping,
        summary_max_tokens=summary_max_tokens,
    )
    head = [checkpoint_message(wrapping.wrap_compaction(result.summary), format, checkpoint_role)]
    return CompactedMessages(
        result.summary,
        kept,
        system + head + kept,
        True,
        tokens_before,
        result.estimated_tokens_after,
        result.usage,
    )


def compact_messages_sync(messages: Sequence[Any], **options: Any) -> CompactedMessages:
    """:func:`compact_messages` for code that is not async."""
    return asyncio.run(compact_messages(messages, **options))
