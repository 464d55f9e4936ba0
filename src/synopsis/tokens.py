"""Token accounting: per-message estimates and usage-based context size.

Pure functions, no I/O. The estimate is deliberately the same crude, fast rule Pi uses
(characters / 4, rounded up, characters counted as UTF-16 code units) so that compaction
decisions agree with Pi's on the same session; the provider's reported usage, when there
is a valid one, always takes precedence over the estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from synopsis._js import js_stringify, utf16_len
from synopsis.messages import block_text, blocks, role_of, tool_arguments

IMAGE_CHARS = 4800
"""An image counts as 4,800 characters (1,200 tokens), wherever it appears."""


def _content_chars(message: Any) -> int:
    content = message.get("content")
    if isinstance(content, str):
        return utf16_len(content)
    chars = 0
    for block in blocks(message):
        kind = block.get("type")
        if kind == "text":
            chars += utf16_len(block_text(block))
        elif kind == "image":
            chars += IMAGE_CHARS
    return chars


def _assistant_chars(message: Any) -> int:
    chars = 0
    for block in blocks(message):
        kind = block.get("type")
        if kind == "text":
            chars += utf16_len(block_text(block))
        elif kind == "thinking":
            chars += utf16_len(block_text(block, "thinking"))
        elif kind == "toolCall":
            name = block.get("name")
            chars += utf16_len(name) if isinstance(name, str) else 0
            chars += utf16_len(js_stringify(tool_arguments(block)))
    return chars


def _str_chars(message: Any, *fields: str) -> int:
    chars = 0
    for field in fields:
        value = message.get(field)
        if isinstance(value, str):
            chars += utf16_len(value)
    return chars


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one message: ceil(characters / 4)."""
    role = role_of(message)
    if role in ("user", "custom", "toolResult"):
        chars = _content_chars(message)
    elif role == "assistant":
        chars = _assistant_chars(message)
    elif role == "bashExecution":
        chars = _str_chars(message, "command", "output")
    elif role in ("branchSummary", "compactionSummary"):
        chars = _str_chars(message, "summary")
    else:
        return 0
    return -(-chars // 4)


_USAGE_FIELDS = ("input", "output", "cacheRead", "cacheWrite")


def _count(usage: dict[str, Any], field: str) -> int:
    value = usage.get(field)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0  # JSON such as 1e400 loads as infinity, which is no count
    return int(value)


def calculate_context_tokens(usage: dict[str, Any]) -> int:
    """Tokens a reply's usage says the context held: ``totalTokens``, else the sum of parts."""
    total = _count(usage, "totalTokens")
    if total:
        return total
    return sum(_count(usage, field) for field in _USAGE_FIELDS)


def valid_usage(message: Any) -> dict[str, Any] | None:
    """The usage of an assistant reply that can be trusted for context accounting.

    Replies that were aborted or failed carry partial or meaningless usage, and some
    providers report usage with every field 0: neither says how big the context was.
    """
    if role_of(message) != "assistant":
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    if not any(_count(usage, field) for field in (*_USAGE_FIELDS, "totalTokens")):
        return None
    return usage


@dataclass(frozen=True, slots=True)
class ContextTokens:
    """The context size of a list of messages, and where the number comes from."""

    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def estimate_context_tokens(
    messages: Sequence[Any], per_message: Sequence[int] | None = None
) -> ContextTokens:
    """Context size: the last valid usage plus estimates of the messages after it.

    ``per_message`` may pass estimates already computed for ``messages``.
    """
    for index in range(len(messages) - 1, -1, -1):
        usage = valid_usage(messages[index])
        if usage is None:
            continue
        usage_tokens = calculate_context_tokens(usage)
        later = messages[index + 1 :]
        trailing = (
            sum(per_message[index + 1 :])
            if per_message is not None
            else sum(estimate_tokens(m) for m in later)
        )
        return ContextTokens(usage_tokens + trailing, usage_tokens, trailing, index)
    trailing = sum(per_message) if per_message is not None else sum(map(estimate_tokens, messages))
    return ContextTokens(trailing, 0, trailing, None)


def should_compact(
    context_tokens: int, context_window: int, reserve_tokens: int, *, enabled: bool = True
) -> bool:
    """Compaction triggers when the context leaves less than ``reserve_tokens`` free."""
    return enabled and context_tokens > context_window - reserve_tokens


def current_context_tokens(messages: Sequence[Any], new_messages_start: int = 0) -> ContextTokens:
    """Context size for the compaction trigger, ignoring usage older than the checkpoint.

    Replies before ``new_messages_start`` were answered from a context that compaction
    has since replaced, so their usage says nothing about the current size: only a valid
    usage after that point counts, else every message is estimated. Runs before every
    model call, so it estimates only what it needs to.
    """
    recent = estimate_context_tokens(messages[new_messages_start:])
    if recent.last_usage_index is None:
        total = recent.trailing_tokens + sum(map(estimate_tokens, messages[:new_messages_start]))
        return ContextTokens(total, 0, total, None)
    return ContextTokens(
        recent.tokens,  # that reply's input already covered everything before it
        recent.usage_tokens,
        recent.trailing_tokens,
        recent.last_usage_index + new_messages_start,
    )
