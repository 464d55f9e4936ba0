"""The agent's model on the OpenAI chat-completions API (and every compatible server).

:class:`OpenAIChatModel` implements :class:`~synopsis.providers.base.ChatModel` with the
official ``openai`` SDK: synopsis messages become chat messages with ``tool_calls`` and
``tool`` results, the reply becomes an assistant message with usage and stop reason. A
failure is returned as an error reply carrying the server's own words, so the loop can
recognise "maximum context length" and compact instead of crashing.
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
    parse_arguments,
    role_of,
    tool_arguments,
    tool_calls,
)
from synopsis.providers._connection import (
    OPENAI,
    MaxTokensParameter,
    Role,
    connect,
    default_max_tokens_parameter,
    openai_usage,
)
from synopsis.providers._retry import RetryPolicy, Sleep
from synopsis.providers._sdk import (
    SdkChatModel,
    check_limits,
    dump_arguments,
    image_blocks,
    text_blocks,
)
from synopsis.providers.base import ChatRequest, ToolSpec

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion

__all__ = ["OpenAIChatModel", "to_openai_messages", "to_openai_tools"]

API = "openai-completions"

_STOP_REASONS: dict[str, StopReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
}


def _image_part(mime: str, data: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{data}"}}


def _user_content(message: Any) -> str | list[dict[str, Any]]:
    """Plain text when there are no images: many compatible servers know only strings."""
    if not image_blocks(message):
        return "\n".join(text_blocks(message))
    parts: list[dict[str, Any]] = []
    for block in blocks(message):
        if block.get("type") == "text" and block_text(block):
            parts.append({"type": "text", "text": block_text(block)})
        elif block.get("type") == "image" and isinstance(block.get("data"), str):
            parts.append(_image_part(str(block.get("mimeType")), str(block["data"])))
    return parts


def _assistant(message: Any) -> dict[str, Any]:
    # Thinking blocks are the model's private scratchpad; the protocol has no field for them.
    text = "".join(text_blocks(message))
    converted: dict[str, Any] = {"role": "assistant", "content": text or None}
    calls = [
        {
            "id": str(call.get("id")),
            "type": "function",
            "function": {
                "name": str(call.get("name")),
                "arguments": dump_arguments(tool_arguments(call)),
            },
        }
        for call in tool_calls(message)
    ]
    if calls:
        converted["tool_calls"] = calls
    elif converted["content"] is None:
        converted["content"] = ""
    return converted


def to_openai_messages(
    system_prompt: str | None, messages: Sequence[LlmMessage]
) -> list[dict[str, Any]]:
    """Chat-completions ``messages`` for a system prompt and synopsis LLM messages.

    Tool results become ``tool`` messages right after their call. That role carries text
    only, so images a tool returned follow the run of results as one user message.
    """
    converted: list[dict[str, Any]] = []
    if system_prompt:
        converted.append({"role": "system", "content": system_prompt})
    pending_images: list[dict[str, Any]] = []

    def flush_images() -> None:
        if pending_images:
            parts = [{"type": "text", "text": "Images returned by the tool calls above:"}]
            converted.append({"role": "user", "content": parts + pending_images})
            pending_images.clear()

    for message in messages:
        role = role_of(message)
        if role == "toolResult":
            converted.append(
                {
                    "role": "tool",
                    "tool_call_id": str(message.get("toolCallId")),
                    "content": "\n".join(text_blocks(message)),
                }
            )
            pending_images.extend(_image_part(m, d) for m, d in image_blocks(message))
            continue
        flush_images()
        if role == "user":
            converted.append({"role": "user", "content": _user_content(message)})
        elif role == "assistant":
            converted.append(_assistant(message))
    flush_images()
    return converted


def to_openai_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters,
            },
        }
        for tool in tools
    ]


class OpenAIChatModel(SdkChatModel["ChatCompletion"]):
    """A :class:`~synopsis.providers.base.ChatModel` over ``POST {base_url}/chat/completions``.

    ``context_window`` is the model's window in tokens (required: the loop compacts
    against it). ``api_key`` defaults to ``$OPENAI_API_KEY`` and ``base_url`` to
    ``$OPENAI_BASE_URL`` or OpenAI's API; a custom base URL with no key sends a
    placeholder. ``max_output_tokens`` caps each reply (omitted when None, the server's
    default); ``max_tokens_parameter`` names that field (``max_completion_tokens`` for
    OpenAI's API, ``max_tokens`` elsewhere, by default). ``retry``/``sleep`` set the retry
    policy for rate limits and server errors; the SDK's own retries are off.
    """

    api = API

    def __init__(
        self,
        model: str,
        *,
        context_window: int,
        base_url: str | None = None,
        api_key: str | None = None,
        provider: str = "openai",
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float = 600.0,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        max_tokens_parameter: MaxTokensParameter | None = None,
        role: Role = "chat model",
    ) -> None:
        check_limits(context_window, max_output_tokens)
        connection = connect(OPENAI, role, model, base_url, api_key, timeout, retry, sleep)
        super().__init__(connection, provider, context_window, temperature)
        self.max_output_tokens = max_output_tokens
        self.max_tokens_parameter: MaxTokensParameter = (
            max_tokens_parameter or default_max_tokens_parameter(self.base_url)
        )
        self._switched_parameter = False

    def arguments(self, request: ChatRequest) -> dict[str, Any]:
        """The body of the chat-completions call for ``request``."""
        arguments: dict[str, Any] = {
            "model": self.model_id,
            "messages": to_openai_messages(request.system_prompt, request.messages),
        }
        if request.tools:
            arguments["tools"] = to_openai_tools(request.tools)
        limits = [n for n in (request.max_tokens, self.max_output_tokens) if n is not None]
        if limits:
            arguments[self.max_tokens_parameter] = min(limits)
        if self.temperature is not None:
            arguments["temperature"] = self.temperature
        return arguments

    def _adapt(self, message: str) -> bool:
        """Adapt to a model that rejected a parameter; True when there is something to retry.

        Each adaptation happens at most once and sticks for later calls: ``temperature`` is
        dropped and the output-limit field is switched between ``max_tokens`` and
        ``max_completion_tokens``.
        """
        if super()._adapt(message):
            return True
        if not self._switched_parameter and self.max_tokens_parameter in message:
            self._switched_parameter = True
            self.max_tokens_parameter = (
                "max_completion_tokens"
                if self.max_tokens_parameter == "max_tokens"
                else "max_tokens"
            )
            return True
        return False

    async def _send(self, client: Any, arguments: dict[str, Any]) -> ChatCompletion:
        return cast("ChatCompletion", await client.chat.completions.create(**arguments))

    def _read(self, completion: ChatCompletion) -> AssistantMessage:
        reply_usage = openai_usage(completion)
        if not completion.choices:
            return self._reply(
                [], "error", reply_usage=reply_usage, error_message="the reply has no choices"
            )
        choice = completion.choices[0]
        message = choice.message
        content: list[Any] = []
        # Reasoning models behind compatible servers (DeepSeek, Qwen…) send their thinking here.
        reasoning = getattr(message, "reasoning_content", None)
        if isinstance(reasoning, str) and reasoning:
            content.append({"type": "thinking", "thinking": reasoning})
        if message.content:
            content.append({"type": "text", "text": message.content})
        for call in message.tool_calls or []:
            function = getattr(call, "function", None)
            if function is None:
                continue
            content.append(
                {
                    "type": "toolCall",
                    "id": call.id,
                    "name": function.name,
                    "arguments": parse_arguments(function.arguments),
                }
            )
        finish = choice.finish_reason
        refusal = getattr(message, "refusal", None)
        if finish == "content_filter" or (refusal and not content):
            reason = refusal or "the reply was blocked by the content filter (content_filter)"
            return self._reply(content, "error", reply_usage=reply_usage, error_message=reason)
        stop = _STOP_REASONS.get(str(finish), "stop")
        if stop == "stop" and any(block["type"] == "toolCall" for block in content):
            stop = "toolUse"  # some servers say "stop" for a reply that calls tools
        return self._reply(content, stop, reply_usage=reply_usage)
