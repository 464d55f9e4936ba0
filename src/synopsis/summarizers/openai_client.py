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
import re
from typing import TYPE_CHECKING, Any, cast

from synopsis.summarizers._connection import (
    OPENAI,
    MaxTokensParameter,
    check_output_limit,
    connect,
    default_max_tokens_parameter,
    openai_usage,
)
from synopsis.summarizers._retry import RetryPolicy, Sleep
from synopsis.summarizers._sdk_summarizer import ReplyFacts, SdkSummarizer

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion

__all__ = ["OpenAISummarizer", "RetryPolicy"]

# Reasoning models served through compatible servers (Qwen, DeepSeek R1 under Ollama or
# llama.cpp) often put their thinking inline before the answer.
_LEADING_THINK = re.compile(r"\A\s*<think>.*?</think>\s*", re.DOTALL)


class OpenAISummarizer(SdkSummarizer["ChatCompletion"]):
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
        check_output_limit(max_output_tokens)
        connection = connect(OPENAI, "summarizer", model, base_url, api_key, timeout, retry, sleep)
        super().__init__(connection, max_input_tokens, max_output_tokens)
        self.temperature = temperature
        self.max_tokens_parameter = max_tokens_parameter or default_max_tokens_parameter(
            self.base_url
        )
        self._switched_parameter = False

    async def _send(self, client: Any, system: str, user: str, limit: int) -> ChatCompletion:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        reply = await client.chat.completions.create(**self._arguments(messages, limit))
        return cast("ChatCompletion", reply)

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
        if super()._drop_rejected_parameter(message):
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

    def _facts(self, completion: ChatCompletion, limit: int) -> ReplyFacts:
        if not completion.choices:
            raise self._unusable(
                "the reply has no choices",
                "check that the server implements the chat-completions protocol",
            )
        choice = completion.choices[0]
        message, finish = choice.message, choice.finish_reason
        refusal = getattr(message, "refusal", None)
        refused = f": {refusal}" if refusal else None
        if finish == "content_filter" and not refusal:
            refused = " (finish_reason 'content_filter')"
        cut_off = f"at the output limit of {limit} tokens (finish_reason 'length')"
        return ReplyFacts(
            text=_LEADING_THINK.sub("", message.content or ""),
            usage=openai_usage(completion),
            stopped_early=cut_off if finish == "length" else None,
            tool_calls=bool(message.tool_calls) or finish in ("tool_calls", "function_call"),
            refusal=refused,
        )
