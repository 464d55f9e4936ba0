"""Keeping what is sent inside the window when compaction alone cannot.

Compaction never cuts between a tool call and its result, so one huge result (a 50 KB
file read into a 16k window) stays in the kept part however small the keep window is, and
the next request would overflow: the provider rejects it, the loop compacts again with
the same outcome, and the run ends on an error. As a last resort the *request* (never the
session file) shortens the largest tool results, head and tail kept with a note of what
was left out, just enough for the estimated request to fit the budget.

Pure functions: messages in, messages out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from synopsis._js import utf16_len
from synopsis.messages import LlmMessage, block_text, blocks, role_of
from synopsis.providers.base import ToolSpec
from synopsis.tokens import estimate_tokens

MIN_KEPT_TOKENS = 64
"""A shortened tool result keeps at least this much of its text."""

OMISSION_NOTE = (
    "\n\n[… {omitted} characters of this tool result are left out here to fit the model's "
    "context window; the full output is in the session file …]\n\n"
)


def fixed_request_tokens(system_prompt: str | None, tools: Sequence[ToolSpec]) -> int:
    """Estimated tokens of a request's system prompt and tool definitions."""
    chars = len(system_prompt or "") + sum(
        len(tool.name) + len(tool.description) + len(str(tool.parameters)) for tool in tools
    )
    return -(-chars // 4)


def _text_tokens(message: Any) -> int:
    chars = sum(utf16_len(block_text(b)) for b in blocks(message) if b.get("type") == "text")
    return -(-chars // 4)


def _cap(sizes: Sequence[int], excess: int) -> int:
    """The largest per-result size (≥ the minimum) that removes at least ``excess`` tokens.

    The minimum when even that is not enough: the request is then as small as this can
    make it, and the provider's overflow error takes over.
    """
    low, high = MIN_KEPT_TOKENS, max(sizes, default=MIN_KEPT_TOKENS)
    if sum(max(0, size - low) for size in sizes) < excess:
        return low
    while low < high:  # invariant: cutting to `low` removes enough
        middle = (low + high + 1) // 2
        if sum(max(0, size - middle) for size in sizes) >= excess:
            low = middle
        else:
            high = middle - 1
    return low


def _shorten(message: Any, keep_tokens: int) -> LlmMessage:
    text = "\n".join(block_text(b) for b in blocks(message) if b.get("type") == "text")
    others = [b for b in blocks(message) if b.get("type") != "text"]
    keep_chars = max(keep_tokens * 4 - len(OMISSION_NOTE) - 12, 0)
    head = keep_chars // 2
    tail = keep_chars - head
    omitted = len(text) - head - tail
    note = OMISSION_NOTE.format(omitted=omitted)
    shortened = text[:head] + note + (text[len(text) - tail :] if tail else "")
    return cast(LlmMessage, {**message, "content": [{"type": "text", "text": shortened}, *others]})


def fit_tool_results(messages: Sequence[LlmMessage], budget: int) -> list[LlmMessage]:
    """``messages`` with the largest tool results shortened so their estimate fits ``budget``.

    Unchanged when they already fit. Otherwise every tool result longer than a common
    cap is cut to that cap (the largest cap that frees enough tokens), so the result the
    model needs most keeps as much as the others.
    """
    total = sum(estimate_tokens(m) for m in messages)
    if total <= budget:
        return list(messages)
    results = [i for i, m in enumerate(messages) if role_of(m) == "toolResult"]
    sizes = {i: _text_tokens(messages[i]) for i in results}
    cap = _cap(list(sizes.values()), total - budget)
    fitted = list(messages)
    for index in results:
        if sizes[index] > cap:
            fitted[index] = _shorten(messages[index], cap)
    return fitted
