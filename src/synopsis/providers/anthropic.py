"""The agent's model on the Anthropic messages API.

:class:`AnthropicChatModel` implements :class:`~synopsis.providers.base.ChatModel` with the
official ``anthropic`` SDK. The messages API is stricter than chat completions: tool
results are ``tool_result`` blocks inside a *user* message, all results of one assistant
turn must arrive in that one message, and roles alternate; :func:`to_anthropic_messages`
takes care of all three. Failures come back as error replies, as with the OpenAI model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from synopsis.messages import (
    AssistantMessage,
    LlmMessage,
    StopReason,
    block_text,
    blocks,
    role_of,
    tool_arguments,
)
from synopsis.providers._connection import ANTHROPIC, Role, anthropic_usage, connect
from synopsis.providers._retry import RetryPolicy, Sleep
from synopsis.providers._sdk import SdkChatModel, check_limits
from synopsis.providers.base import ChatRequest, ToolSpec

if TYPE_CHECKING:
    from anthropic.types import Message

__all__ = ["AnthropicChatModel", "to_anthropic_messages", "to_anthropic_tools"]

API = "anthropic-messages"
DEFAULT_MAX_OUTPUT_TOKENS = 4096
"""The API requires an output limit; 4096 is accepted by every Claude model."""

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
}


def _media_blocks(message: Any) -> list[dict[str, Any]]:
    """Text and image blocks of a user message or tool result, in order."""
    converted: list[dict[str, Any]] = []
    for block in blocks(message):
        kind = block.get("type")
        if kind == "text" and block_text(block):
            converted.append({"type": "text", "text": block_text(block)})
        elif kind == "image" and isinstance(block.get("data"), str) and block.get("data"):
            source = {
                "type": "base64",
                "media_type": str(block.get("mimeType")),
                "data": block["data"],
            }
            converted.append({"type": "image", "source": source})
    return converted


def _assistant_blocks(message: Any) -> list[dict[str, Any]]:
    # Thinking is not sent back: the loop does not enable extended thinking, and the API
    # drops earlier turns' thinking from the context anyway.
    converted: list[dict[str, Any]] = []
    for block in blocks(message):
        kind = block.get("type")
        if kind == "text" and block_text(block):
            converted.append({"type": "text", "text": block_text(block)})
        elif kind == "toolCall":
            converted.append(
                {
                    "type": "tool_use",
                    "id": str(block.get("id")),
                    "name": str(block.get("name")),
                    "input": tool_arguments(block),
                }
            )
    return converted


def _tool_result(message: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": str(message.get("toolCallId"))}
    content = _media_blocks(message)
    if content:
        result["content"] = content
    if message.get("isError"):
        result["is_error"] = True
    return result


def to_anthropic_messages(messages: Sequence[LlmMessage]) -> list[dict[str, Any]]:
    """Messages-API ``messages`` for synopsis LLM messages.

    Consecutive messages of the same role are merged into one (the results of one turn's
    tool calls, and a user message that follows them, become one user message with the
    ``tool_result`` blocks first); an assistant message with nothing to send is skipped.
    """
    converted: list[dict[str, Any]] = []
    for message in messages:
        role = role_of(message)
        if role == "assistant":
            target_role, content = "assistant", _assistant_blocks(message)
        elif role == "toolResult":
            target_role, content = "user", [_tool_result(message)]
        elif role == "user":
            target_role, content = "user", _media_blocks(message)
        else:
            continue
        if not content:
            continue
        if converted and converted[-1]["role"] == target_role:
            converted[-1]["content"].extend(content)
        else:
            converted.append({"role": target_role, "content": content})
    return converted


def to_anthropic_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
        for tool in tools
    ]


class AnthropicChatModel(SdkChatModel["Message"]):
    """A :class:`~synopsis.providers.base.ChatModel` over ``POST {base_url}/v1/messages``.

    ``context_window`` is the model's window in tokens (required). ``api_key`` defaults
    to ``$ANTHROPIC_API_KEY`` (``$ANTHROPIC_AUTH_TOKEN`` is left to the SDK); ``base_url``
    to ``$ANTHROPIC_BASE_URL`` or Anthropic's API. ``max_output_tokens`` caps the output
    limit every request must carry (None: the request's own, else 4096).
    ``retry``/``sleep`` set the retry policy for rate limits (429), overload (529) and
    server errors; the SDK's own retries are off.
    """

    api = API

    def __init__(
        self,
        model: str,
        *,
        context_window: int,
        base_url: str | None = None,
        api_key: str | None = None,
        provider: str = "anthropic",
        max_output_tokens: int | None = DEFAULT_MAX_OUTPUT_TOKENS,
        temperature: float | None = None,
        timeout: float = 600.0,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        role: Role = "chat model",
    ) -> None:
        check_limits(context_window, max_output_tokens)
        connection = connect(ANTHROPIC, role, model, base_url, api_key, timeout, retry, sleep)
        super().__init__(connection, provider, context_window, temperature)
        self.max_output_tokens = max_output_tokens

    def arguments(self, request: ChatRequest) -> dict[str, Any]:
        """The body of the messages call for ``request``."""
        limits = [n for n in (request.max_tokens, self.max_output_tokens) if n is not None]
        limit = min(limits) if limits else DEFAULT_MAX_OUTPUT_TOKENS
        arguments: dict[str, Any] = {
            "model": self.model_id,
            "messages": to_anthropic_messages(request.messages),
            "max_tokens": limit,
        }
        if request.system_prompt:
            arguments["system"] = request.system_prompt
        if request.tools:
            arguments["tools"] = to_anthropic_tools(request.tools)
        if self.temperature is not None:
            # In the body directly: recent SDK releases dropped the keyword.
            arguments["extra_body"] = {"temperature": self.temperature}
        return arguments

    async def _send(self, client: Any, arguments: dict[str, Any]) -> Message:
        return cast("Message", await client.messages.create(**arguments))

    def _read(self, message: Message) -> AssistantMessage:
        reply_usage = anthropic_usage(message)
        content: list[Any] = []
        for block in message.content:
            kind = getattr(block, "type", None)
            if kind == "text":
                content.append({"type": "text", "text": str(getattr(block, "text", ""))})
            elif kind == "thinking":
                thinking = {"type": "thinking", "thinking": str(getattr(block, "thinking", ""))}
                signature = getattr(block, "signature", None)
                if isinstance(signature, str) and signature:
                    thinking["thinkingSignature"] = signature
                content.append(thinking)
            elif kind == "redacted_thinking":
                data = str(getattr(block, "data", ""))
                content.append(
                    {
                        "type": "thinking",
                        "thinking": "",
                        "thinkingSignature": data,
                        "redacted": True,
                    }
                )
            elif kind == "tool_use":
                arguments = getattr(block, "input", None)
                content.append(
                    {
                        "type": "toolCall",
                        "id": str(getattr(block, "id", "")),
                        "name": str(getattr(block, "name", "")),
                        "arguments": arguments if isinstance(arguments, dict) else {},
                    }
                )
        stop = message.stop_reason
        if stop == "refusal":
            return self._reply(
                content,
                "error",
                reply_usage,
                error_message="the model refused (stop_reason refusal)",
            )
        reason = _STOP_REASONS.get(str(stop), "stop")
        if reason == "stop" and any(block["type"] == "toolCall" for block in content):
            reason = "toolUse"
        return self._reply(content, reason, reply_usage)
