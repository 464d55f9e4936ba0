"""Small builders for hand-written conversations (Pi's message shapes)."""

from __future__ import annotations

import asyncio
from typing import Any

from synopsis.state.sections import parse_sections
from synopsis.summarizers.base import SummaryKind, SummaryRequest
from synopsis.summarizers.embedded import EmbeddedSummarizer


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def say(text: str) -> dict[str, Any]:
    """An assistant message with text only."""
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"}


def call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def act(*calls: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    """An assistant message making tool calls (optionally with text first)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    return {"role": "assistant", "content": [*content, *calls], "stopReason": "toolUse"}


def result(call_id: str, name: str, text: str, *, error: bool = False) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": name,
        "content": [{"type": "text", "text": text}],
        "isError": error,
    }


def ids(messages: list[dict[str, Any]]) -> list[str]:
    """Entry ids e0, e1, … for ``messages``."""
    return [f"e{index}" for index in range(len(messages))]


def bash(call_id: str, command: str, output: str, *, error: bool = False) -> list[Any]:
    """A bash call and its result."""
    calling = act(call(call_id, "bash", command=command))
    return [calling, result(call_id, "bash", output, error=error)]


def by_section(text: str) -> dict[str, str]:
    """A checkpoint's items per section kind, one line each."""
    found: dict[str, str] = {}
    for kind, _, items in parse_sections(text):
        if kind:
            found[kind] = found.get(kind, "") + "\n".join(items) + "\n"
    return found


def summarize(messages: list[dict[str, Any]], kind: SummaryKind = SummaryKind.HISTORY) -> str:
    """The embedded checkpoint of ``messages`` (a roomy cap: the size target binds)."""
    request = SummaryRequest(kind, "", messages, max_tokens=4000)
    return asyncio.run(EmbeddedSummarizer().summarize(request)).text
