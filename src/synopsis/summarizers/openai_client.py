"""A summarizer that asks a model through the OpenAI chat-completions API.

It works with OpenAI itself and with every server that speaks the same protocol (vLLM,
llama.cpp, Ollama, LM Studio, OpenRouter…): set ``base_url``. It uses the official
``openai`` SDK (the optional extra ``synopsis[openai]``), imported only when a summarizer
is created, so the rest of synopsis runs without it.

A reply is only accepted as a summary when it is complete: one cut off by the output limit,
one that calls tools, a refusal or an empty reply raises :class:`SummarizerError` instead,
because storing half a checkpoint would silently lose the history it replaces.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, cast

from synopsis.errors import SettingsError
from synopsis.summarizers._retry import (
    Endpoint,
    RetryPolicy,
    Sleep,
    call_with_retries,
    load_sdk,
    missing_key_error,
    output_limit,
    rejected_parameter_message,
    reply_error,
    resolve_api_key,
)
from synopsis.summarizers.base import SummaryRequest, SummaryResult, SummaryUsage
from synopsis.summarizers.prompts import build_prompt

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

__all__ = ["OpenAISummarizer", "RetryPolicy"]

OPENAI_BASE_URL = "https://api.openai.com/v1"
KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"

MaxTokensParameter = Literal["max_tokens", "max_completion_tokens"]

# Reasoning models served through compatible servers (Qwen, DeepSeek R1 under Ollama or
# llama.cpp) often put their thinking inline before the answer.
_LEADING_THINK = re.compile(r"\A\s*<think>.*?</think>\s*", re.DOTALL)


def _default_parameter(base_url: str | None) -> MaxTokensParameter:
    # OpenAI's newer models reject ``max_tokens``; most compatible servers only know it.
    if base_url is None or "api.openai.com" in base_url:
        return "max_completion_tokens"
    return "max_tokens"


class OpenAISummarizer:
    """Summarizes through ``POST {base_url}/chat/completions`` with the ``openai`` SDK.

    ``api_key`` defaults to ``$OPENAI_API_KEY`` and ``base_url`` to ``$OPENAI_BASE_URL``
    or OpenAI's own API; with a custom base URL and no key, a placeholder key is sent
    because local servers ignore it. ``max_output_tokens`` is the model's own output limit,
    when known: the request's limit is lowered to it. ``temperature`` is 0 for
    reproducible summaries; pass None to omit it for models that only accept their
    default. ``max_tokens_parameter`` names the output-limit field
    (``max_completion_tokens`` for OpenAI's API, ``max_tokens`` elsewhere, by default).
    ``retry`` and ``sleep`` set the retry policy; the SDK's own retries are off.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_output_tokens: int | None = None,
        max_input_tokens: int | None = None,
        temperature: float | None = 0.0,
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        max_tokens_parameter: MaxTokensParameter | None = None,
    ) -> None:
        if not model:
            raise SettingsError("the OpenAI summarizer needs a model name")
        if max_output_tokens is not None and max_output_tokens < 1:
            raise SettingsError(f"max_output_tokens must be at least 1, got {max_output_tokens}")
        self._sdk = load_sdk("openai", "openai")
        resolved_base = base_url or os.environ.get(BASE_URL_ENV) or None
        key = resolve_api_key(api_key, KEY_ENV, resolved_base)
        if key is None:
            raise missing_key_error("OpenAI", model, KEY_ENV)
        self.model = model
        self.max_input_tokens = max_input_tokens
        """The most transcript tokens one call may carry; longer ones are summarized in
        chunks by :func:`synopsis.compaction.compact.compact` (``None``: no limit)."""
        self.base_url = resolved_base or OPENAI_BASE_URL
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature
        self.timeout = timeout
        self.max_tokens_parameter = max_tokens_parameter or _default_parameter(resolved_base)
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._endpoint = Endpoint("OpenAI-compatible", model, self.base_url, KEY_ENV)
        self._api_key = key
        self._switched_parameter = False

    def __repr__(self) -> str:
        return f"OpenAISummarizer(model={self.model!r}, base_url={self.base_url!r})"

    def _client(self) -> AsyncOpenAI:
        """A fresh SDK client with its retries off, for one call.

        One client per call costs a few milliseconds next to a call that takes seconds, and
        it cannot outlive the event loop it runs in (an ``asyncio.run`` per compaction is
        common), so no connection is ever left open.
        """
        client = self._sdk.AsyncOpenAI(
            api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
        )
        return cast("AsyncOpenAI", client)

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        limit = output_limit(request.max_tokens, self.max_output_tokens)
        system, user = build_prompt(replace(request, max_tokens=limit))
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]

        async def call() -> ChatCompletion:
            async with self._client() as client:
                while True:  # ends: each parameter is adapted at most once
                    try:
                        reply = await client.chat.completions.create(
                            **self._arguments(messages, limit)
                        )
                        return cast("ChatCompletion", reply)
                    except Exception as exc:
                        rejected = rejected_parameter_message(exc, self._sdk)
                        if rejected is None or not self._drop_rejected_parameter(rejected):
                            raise

        completion = await call_with_retries(
            call, sdk=self._sdk, endpoint=self._endpoint, policy=self._retry, sleep=self._sleep
        )
        return SummaryResult(self._summary_text(completion, limit), _usage(completion))

    def _arguments(self, messages: list[dict[str, str]], limit: int) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            self.max_tokens_parameter: limit,
        }
        if self.temperature is not None:
            arguments["temperature"] = self.temperature
        return arguments

    def _drop_rejected_parameter(self, message: str) -> bool:
        """Adapt to a model that rejected a parameter; True when there is something to retry.

        Each adaptation happens at most once and sticks for later calls: ``temperature`` is
        dropped (reasoning models accept only their default) and the output-limit field is
        switched between ``max_tokens`` and ``max_completion_tokens``.
        """
        if self.temperature is not None and "temperature" in message:
            self.temperature = None
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

    def _summary_text(self, completion: ChatCompletion, limit: int) -> str:
        """The summary in ``completion``, or the reason it is not one."""
        endpoint = self._endpoint
        choices = completion.choices or []
        if not choices:
            raise reply_error(
                endpoint,
                "the reply has no choices",
                "check that the server implements the chat-completions protocol",
            )
        choice = choices[0]
        message = choice.message
        finish = choice.finish_reason
        if finish == "length":
            raise reply_error(
                endpoint,
                f"the reply stopped at the output limit of {limit} tokens "
                "(finish_reason 'length'), so the summary is cut off and was not used",
                "give the summary more room (a larger reserve or max_output_tokens) "
                "or summarize fewer messages at once",
            )
        if message.tool_calls or finish in ("tool_calls", "function_call"):
            raise reply_error(
                endpoint,
                "the model replied with tool calls instead of a summary",
                "use a model that follows instructions without tools, or try again",
            )
        refusal = getattr(message, "refusal", None)
        if finish == "content_filter" or refusal:
            reason = f": {refusal}" if refusal else " (finish_reason 'content_filter')"
            raise reply_error(
                endpoint,
                f"the model refused to summarize{reason}",
                "try another model or remove the offending content",
            )
        text = _LEADING_THINK.sub("", message.content or "").strip()
        if not text:
            raise reply_error(
                endpoint,
                "the reply is empty",
                "try again, or use a model that follows the summarization prompt",
            )
        return text


def _usage(completion: ChatCompletion) -> SummaryUsage:
    usage = completion.usage
    if usage is None:
        return SummaryUsage()
    return SummaryUsage(
        input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0
    )
