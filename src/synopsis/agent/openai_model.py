"""The agent's model on the OpenAI chat-completions API (and every compatible server).

:class:`OpenAIChatModel` implements :class:`~synopsis.agent.model.ChatModel` with the
official ``openai`` SDK: synopsis messages become chat messages with ``tool_calls`` and
``tool`` results, the reply becomes an assistant message with usage and stop reason. A
failure is returned as an error reply carrying the server's own words, so the loop can
recognise "maximum context length" and compact instead of crashing.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

from synopsis.agent._convert import (
    Failed,
    assistant_reply,
    call_provider,
    count,
    dump_arguments,
    image_blocks,
    parse_arguments,
    text_blocks,
    unreadable_reply,
    usage,
)
from synopsis.agent.model import ChatRequest, ToolSpec
from synopsis.errors import SettingsError
from synopsis.messages import (
    AssistantMessage,
    LlmMessage,
    StopReason,
    Usage,
    block_text,
    blocks,
    role_of,
    tool_arguments,
    tool_calls,
)
from synopsis.summarizers._retry import (
    Endpoint,
    RetryPolicy,
    Sleep,
    load_sdk,
    missing_key_error,
    resolve_api_key,
)

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

__all__ = ["OpenAIChatModel", "to_openai_messages", "to_openai_tools"]

API = "openai-completions"
OPENAI_BASE_URL = "https://api.openai.com/v1"
KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"

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


MaxTokensParameter = Literal["max_tokens", "max_completion_tokens"]


class OpenAIChatModel:
    """A :class:`~synopsis.agent.model.ChatModel` over ``POST {base_url}/chat/completions``.

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
    ) -> None:
        if not model:
            raise SettingsError("the OpenAI chat model needs a model name")
        if isinstance(context_window, bool) or not isinstance(context_window, int):
            raise SettingsError(f"context_window must be a whole number, got {context_window!r}")
        if context_window < 1:
            raise SettingsError(f"context_window must be at least 1, got {context_window}")
        if max_output_tokens is not None and max_output_tokens < 1:
            raise SettingsError(f"max_output_tokens must be at least 1, got {max_output_tokens}")
        self._sdk = load_sdk("openai", "openai")
        resolved_base = base_url or os.environ.get(BASE_URL_ENV) or None
        key = resolve_api_key(api_key, KEY_ENV, resolved_base)
        if key is None:
            raise missing_key_error("OpenAI", model, KEY_ENV)
        self.provider = provider
        self.model_id = model
        self.context_window = context_window
        self.base_url = resolved_base or OPENAI_BASE_URL
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature
        self.timeout = timeout
        self.max_tokens_parameter: MaxTokensParameter = max_tokens_parameter or (
            "max_completion_tokens" if "api.openai.com" in self.base_url else "max_tokens"
        )
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._endpoint = Endpoint("OpenAI-compatible", model, self.base_url, KEY_ENV)
        self._api_key = key

    def __repr__(self) -> str:
        return (
            f"OpenAIChatModel(model={self.model_id!r}, base_url={self.base_url!r}, "
            f"context_window={self.context_window})"
        )

    def _client(self) -> AsyncOpenAI:
        """A fresh SDK client for one call, as the summarizers do: a client cannot be used
        from another event loop (``asyncio.run`` per prompt is common), and one that is
        closed after its call leaves no connection open. The cost, a new connection per
        call, is small next to the call itself."""
        client = self._sdk.AsyncOpenAI(
            api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
        )
        return cast("AsyncOpenAI", client)

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

    async def complete(self, request: ChatRequest) -> AssistantMessage:
        arguments = self.arguments(request)

        async def call() -> ChatCompletion:
            async with self._client() as client:
                reply = await client.chat.completions.create(**arguments)
                return cast("ChatCompletion", reply)

        outcome = await call_provider(
            call, sdk=self._sdk, endpoint=self._endpoint, policy=self._retry, sleep=self._sleep
        )
        if isinstance(outcome, Failed):
            return self._reply([], "error", error_message=outcome.message)
        try:
            return self._from_completion(outcome.value)
        except (AttributeError, TypeError, ValueError, KeyError) as error:
            # A 200 whose body is not a reply of this protocol (a misconfigured proxy).
            return self._reply([], "error", error_message=unreadable_reply(error))

    def _reply(
        self,
        content: list[Any],
        stop_reason: StopReason,
        *,
        reply_usage: Usage | None = None,
        error_message: str | None = None,
    ) -> AssistantMessage:
        return assistant_reply(
            content,
            stop_reason,
            api=self.api,
            provider=self.provider,
            model=self.model_id,
            reply_usage=reply_usage,
            error_message=error_message,
        )

    def _from_completion(self, completion: ChatCompletion) -> AssistantMessage:
        reply_usage = _usage(completion)
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


def _usage(completion: ChatCompletion) -> Usage:
    reported = completion.usage
    if reported is None:
        return usage(0, 0)
    details = getattr(reported, "prompt_tokens_details", None)
    cached = count(getattr(details, "cached_tokens", None)) if details is not None else 0
    prompt = count(reported.prompt_tokens)
    return usage(max(prompt - cached, 0), count(reported.completion_tokens), cached)
