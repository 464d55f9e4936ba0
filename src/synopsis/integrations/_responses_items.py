"""OpenAI Responses input items (what the Agents SDK stores in a session) as chat dicts.

The cut rules read OpenAI chat messages, where one assistant message holds all the tool
calls of a model response and each result follows as a ``tool`` message. A session holds
one item per call and per result, so consecutive assistant-side items (a message, its
reasoning, its ``function_call``s) are read as one assistant message; every item with a
``call_id`` whose type ends in ``_output`` is a tool result. Each chat dict remembers the
item it starts at, so a cut maps back onto whole items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

USER_ROLES = ("user", "system", "developer")


@dataclass(frozen=True, slots=True)
class ReadItems:
    chat: list[dict[str, Any]]
    starts: list[int]
    """``starts[i]`` is the index of the first item of ``chat[i]``."""

    def item_index(self, chat_index: int, item_count: int) -> int:
        return self.starts[chat_index] if chat_index < len(self.starts) else item_count


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping):
                text = part.get("text") or part.get("refusal")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    return ""


def is_tool_result(item: Mapping[str, Any]) -> bool:
    kind = item.get("type")
    return "call_id" in item and isinstance(kind, str) and kind.endswith("_output")


def _tool_call(item: Mapping[str, Any]) -> dict[str, Any] | None:
    call_id = item.get("call_id")
    if call_id is None:
        return None
    name = item.get("name") or item.get("type") or "tool"
    arguments = item.get("arguments")
    if arguments is None:
        arguments = item.get("input") or item.get("action") or {}
    return {
        "id": str(call_id),
        "type": "function",
        "function": {"name": str(name), "arguments": arguments},
    }


def read_items(items: Sequence[Mapping[str, Any]]) -> ReadItems:
    chat: list[dict[str, Any]] = []
    starts: list[int] = []
    assistant: dict[str, Any] | None = None  # the assistant message being gathered
    for index, item in enumerate(items):
        role = item.get("role")
        if role in USER_ROLES and item.get("type", "message") == "message":
            assistant = None
            chat.append({"role": "user", "content": _text(item.get("content"))})
            starts.append(index)
        elif is_tool_result(item):
            assistant = None
            output = item.get("output")
            chat.append(
                {
                    "role": "tool",
                    "tool_call_id": str(item.get("call_id")),
                    "content": output if isinstance(output, str) else _text(output),
                }
            )
            starts.append(index)
        else:
            if assistant is None:
                assistant = {"role": "assistant", "content": "", "tool_calls": []}
                chat.append(assistant)
                starts.append(index)
            if item.get("type", "message") == "message":
                text = _text(item.get("content"))
                assistant["content"] = "\n".join(t for t in (assistant["content"], text) if t)
            else:
                call = _tool_call(item)
                if call is not None:
                    assistant["tool_calls"].append(call)
    return ReadItems(chat, starts)
