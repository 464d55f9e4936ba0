"""Conversion between provider chat formats and synopsis messages.

Most applications keep their history as a list of OpenAI-style chat messages (``role`` /
``content`` / ``tool_calls`` / ``tool_call_id``) or Anthropic-style messages (content
blocks with ``tool_use`` and ``tool_result``). To compact such a list we read it as
synopsis messages, keeping for each one the index of the original message it came from,
so the kept part can be handed back untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from synopsis.errors import SynopsisError
from synopsis.messages import AgentMessage, parse_arguments

ChatFormat = Literal["openai", "anthropic"]


class ChatFormatError(SynopsisError, ValueError):
    """A chat message list is not in the announced format."""


@dataclass(frozen=True, slots=True)
class ReadMessage:
    message: AgentMessage
    source_index: int
    """Index of the chat message it came from."""


def _message(**fields: Any) -> AgentMessage:
    return cast(AgentMessage, fields)


def _text_parts(content: Any, *, text_types: Sequence[str]) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind in text_types and isinstance(part.get("text"), str):
                blocks.append({"type": "text", "text": part["text"]})
            elif kind in ("image", "image_url"):
                blocks.append({"type": "image", "data": "", "mimeType": "image/*"})
    return blocks


def _tool_call(call_id: Any, name: Any, arguments: Any) -> dict[str, Any]:
    return {
        "type": "toolCall",
        "id": str(call_id),
        "name": str(name),
        "arguments": parse_arguments(arguments),
    }


def _read_openai(index: int, message: dict[str, Any]) -> list[AgentMessage]:
    role = message.get("role")
    if role in ("user", "developer", "system"):
        content = _text_parts(message.get("content"), text_types=("text", "input_text"))
        return [_message(role="user", content=content)]
    if role == "assistant":
        blocks: list[dict[str, Any]] = _text_parts(message.get("content"), text_types=("text",))
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            blocks.append(
                _tool_call(call.get("id"), function.get("name"), function.get("arguments"))
            )
        return [_message(role="assistant", content=blocks, stopReason="stop")]
    if role == "tool":
        return [
            _message(
                role="toolResult",
                toolCallId=str(message.get("tool_call_id")),
                toolName=str(message.get("name") or ""),
                content=_text_parts(message.get("content"), text_types=("text",)),
                isError=False,
            )
        ]
    raise ChatFormatError(f"message {index}: unknown OpenAI chat role {role!r}")


def _read_anthropic(index: int, message: dict[str, Any]) -> list[AgentMessage]:
    role = message.get("role")
    content = message.get("content")
    blocks = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
    if role == "assistant":
        converted: list[dict[str, Any]] = []
        for block in blocks:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                converted.append({"type": "text", "text": str(block.get("text", ""))})
            elif kind == "thinking":
                converted.append({"type": "thinking", "thinking": str(block.get("thinking", ""))})
            elif kind == "tool_use":
                converted.append(_tool_call(block.get("id"), block.get("name"), block.get("input")))
        return [_message(role="assistant", content=converted, stopReason="stop")]
    if role == "user":
        read: list[AgentMessage] = []
        texts: list[dict[str, Any]] = []
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                read.append(
                    _message(
                        role="toolResult",
                        toolCallId=str(block.get("tool_use_id")),
                        toolName="",
                        content=_text_parts(block.get("content"), text_types=("text",)),
                        isError=bool(block.get("is_error")),
                    )
                )
            else:
                texts.extend(_text_parts([block], text_types=("text",)))
        if texts:
            read.append(_message(role="user", content=texts))
        return read
    raise ChatFormatError(f"message {index}: unknown Anthropic role {role!r}")


def read_chat_messages(messages: Sequence[Any], chat_format: ChatFormat) -> list[ReadMessage]:
    """Read a provider message list as synopsis messages.

    A system message inside the list (not a leading one, which callers set aside) is read
    as user text.
    """
    if chat_format not in ("openai", "anthropic"):
        raise ChatFormatError(f"unknown chat format {chat_format!r}: use 'openai' or 'anthropic'")
    reader = _read_openai if chat_format == "openai" else _read_anthropic
    read: list[ReadMessage] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            raise ChatFormatError(f"message {index} is not an object")
        read.extend(ReadMessage(m, index) for m in reader(index, message))
    return read


def checkpoint_message(
    text: str, chat_format: ChatFormat, role: Literal["user", "system"] = "user"
) -> dict[str, Any]:
    """The checkpoint as a message of the given format and role."""
    if chat_format == "anthropic":
        return {"role": role, "content": [{"type": "text", "text": text}]}
    return {"role": role, "content": text}
