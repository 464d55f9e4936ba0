"""A model summarizer: a chat model plus our prompt.

:class:`ModelSummarizer` sends the summarization prompt (:mod:`synopsis.summarizers.prompts`)
to any :class:`~synopsis.providers.ChatModel` — the same models the agent loop uses, so
connections, retries and provider quirks are handled once, in :mod:`synopsis.providers` —
and turns the reply into a :class:`~synopsis.summarizers.base.SummaryResult` or refuses it.

A reply is only accepted as a summary when it is complete: one cut off by the output
limit, one that calls tools, a refusal or an empty reply raises
:class:`~synopsis.errors.SummarizerError` instead, because storing half a checkpoint would
silently lose the history it replaces.

:class:`OpenAISummarizer` and :class:`AnthropicSummarizer` are this summarizer over the
OpenAI and Anthropic chat models, with settings suited to summaries (temperature 0, a
shorter timeout, no output cap of their own).
"""

from __future__ import annotations

import asyncio
import inspect
import re
from dataclasses import replace
from types import ModuleType
from typing import Literal

from synopsis.errors import SummarizerError
from synopsis.messages import AssistantMessage, Usage, block_text, blocks, tool_calls
from synopsis.providers._connection import MaxTokensParameter, check_output_limit
from synopsis.providers._retry import Endpoint, RetryPolicy, Sleep, output_limit, reply_error
from synopsis.providers.anthropic import AnthropicChatModel
from synopsis.providers.base import ChatModel, ChatRequest
from synopsis.providers.openai import OpenAIChatModel
from synopsis.summarizers.base import SummaryRequest, SummaryResult, SummaryUsage
from synopsis.summarizers.prompts import build_prompt

__all__ = ["AnthropicSummarizer", "ModelSummarizer", "OpenAISummarizer", "RetryPolicy"]

SUMMARIZER_CONTEXT_WINDOW = 1_000_000
"""What a summarizer's chat model reports as its window; the summarizer never compacts."""

# Reasoning models served through compatible servers (Qwen, DeepSeek R1 under Ollama or
# llama.cpp) often put their thinking inline before the answer.
_LEADING_THINK = re.compile(r"\A\s*<think>.*?</think>\s*", re.DOTALL)

_MORE_ROOM = (
    "give the summary more room (a larger reserve or max_output_tokens) "
    "or summarize fewer messages at once"
)


class ModelSummarizer:
    """Summarizes with ``model``; see the module docstring.

    ``max_output_tokens`` is the model's own output limit, when known: a request's limit is
    lowered to it. ``max_input_tokens`` bounds the transcript one call may carry; longer
    ones are summarized in chunks by :func:`synopsis.compaction.compact.compact`.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        max_input_tokens: int | None = None,
        max_output_tokens: int | None = None,
    ) -> None:
        check_output_limit(max_output_tokens)
        self.chat_model = model
        self.model = model.model_id
        self.max_input_tokens = max_input_tokens
        self.max_output_tokens = max_output_tokens

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.chat_model!r})"

    @property
    def base_url(self) -> str | None:
        return getattr(self.chat_model, "base_url", None)

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        limit = output_limit(request.max_tokens, self.max_output_tokens)
        system, user = build_prompt(replace(request, max_tokens=limit))
        reply = await self.chat_model.complete(
            ChatRequest(
                system,
                [{"role": "user", "content": user, "timestamp": 0}],
                max_tokens=limit,
                raise_on_failure=True,
            )
        )
        return SummaryResult(self._summary_text(reply, limit), _summary_usage(reply))

    def _summary_text(self, reply: AssistantMessage, limit: int) -> str:
        """The summary in a reply, or the reason it is not one."""
        stop = reply.get("stopReason")
        if stop == "length":
            raise self._unusable(
                f"the reply stopped at the output limit of {limit} tokens, so the summary is "
                "cut off and was not used",
                _MORE_ROOM,
            )
        if stop == "toolUse" or next(tool_calls(reply), None) is not None:
            raise self._unusable(
                "the model replied with tool calls instead of a summary",
                "use a model that follows instructions without tools, or try again",
            )
        if stop in ("error", "aborted"):
            raise self._unusable(
                f"the model refused or failed to summarize: {reply.get('errorMessage') or stop}",
                "try another model or remove the offending content",
            )
        text = "\n".join(
            block_text(block) for block in blocks(reply) if block.get("type") == "text"
        )
        text = _LEADING_THINK.sub("", text).strip()
        if not text:
            raise self._unusable(
                "the reply is empty",
                "try again, or use a model that follows the summarization prompt",
            )
        return text

    def _unusable(self, problem: str, advice: str) -> SummarizerError:
        """The error for a reply that arrived but cannot be used as a summary."""
        endpoint = getattr(self.chat_model, "endpoint", None)
        if not isinstance(endpoint, Endpoint):
            endpoint = Endpoint(self.chat_model.provider, self.model, self.base_url or "", "")
        return reply_error(endpoint, problem, advice)


def _summary_usage(reply: AssistantMessage) -> SummaryUsage:
    """A summary counts every prompt token the model read, cached or not."""
    reported: Usage | None = reply.get("usage")
    if not reported:
        return SummaryUsage()
    prompt = reported["input"] + reported["cacheRead"] + reported["cacheWrite"]
    return SummaryUsage(input_tokens=prompt, output_tokens=reported["output"])


class OpenAISummarizer(ModelSummarizer):
    """Summarizes through ``POST {base_url}/chat/completions`` with the ``openai`` SDK.

    It works with OpenAI itself and every server that speaks the same protocol (vLLM,
    llama.cpp, Ollama, LM Studio, OpenRouter…): set ``base_url``. ``api_key`` defaults to
    ``$OPENAI_API_KEY`` and ``base_url`` to ``$OPENAI_BASE_URL`` or OpenAI's own API; with
    a custom base URL and no key, a placeholder key is sent. ``temperature`` is 0 for
    reproducible summaries (None omits it; a model that rejects it is asked again
    without). ``max_tokens_parameter`` names the output-limit field. ``retry`` and
    ``sleep`` set the retry policy; the SDK's own retries are off.
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
        check_output_limit(max_output_tokens)
        chat = OpenAIChatModel(
            model,
            context_window=SUMMARIZER_CONTEXT_WINDOW,
            base_url=base_url,
            api_key=api_key,
            temperature=temperature,
            timeout=timeout,
            retry=retry,
            sleep=sleep,
            max_tokens_parameter=max_tokens_parameter,
            role="summarizer",
        )
        super().__init__(
            chat, max_input_tokens=max_input_tokens, max_output_tokens=max_output_tokens
        )


class AnthropicSummarizer(ModelSummarizer):
    """Summarizes through ``POST {base_url}/v1/messages`` with the ``anthropic`` SDK.

    ``api_key`` defaults to ``$ANTHROPIC_API_KEY`` (``$ANTHROPIC_AUTH_TOKEN`` is left to the
    SDK); ``base_url`` to ``$ANTHROPIC_BASE_URL`` or Anthropic's API. ``temperature`` is 0
    by default when the installed SDK still offers the parameter; releases that removed it
    target an API version that rejects every sampling parameter, and then it is omitted.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_output_tokens: int | None = None,
        max_input_tokens: int | None = None,
        temperature: float | Literal["auto"] | None = "auto",
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        check_output_limit(max_output_tokens)
        chat = AnthropicChatModel(
            model,
            context_window=SUMMARIZER_CONTEXT_WINDOW,
            base_url=base_url,
            api_key=api_key,
            max_output_tokens=None,
            timeout=timeout,
            retry=retry,
            sleep=sleep,
            role="summarizer",
        )
        chat.temperature = _default_temperature(chat.sdk) if temperature == "auto" else temperature
        super().__init__(
            chat, max_input_tokens=max_input_tokens, max_output_tokens=max_output_tokens
        )


def _default_temperature(sdk: ModuleType) -> float | None:
    """0 when the installed SDK still has a ``temperature`` keyword, else None (omitted).

    SDK releases that removed the keyword speak an API version in which every sampling
    parameter is an error, so sending 0 there would only cost a rejected request.
    """
    try:
        create = sdk.resources.messages.AsyncMessages.create
        accepts = "temperature" in inspect.signature(create).parameters
    except (AttributeError, TypeError, ValueError):
        accepts = True
    return 0.0 if accepts else None
