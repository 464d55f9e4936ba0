"""A summarizer that asks a Claude model through the Anthropic messages API.

Uses the official ``anthropic`` SDK (the optional extra ``synopsis[anthropic]``), imported
only when a summarizer is created. Behaves like the OpenAI client: temperature 0 where the
API version allows it, one retry policy for rate limits (429), overload (529) and server
errors, and a reply is rejected rather than stored when it was cut off (``max_tokens``),
calls tools, refuses or is empty.
"""

from __future__ import annotations

import asyncio
import inspect
import os
from dataclasses import replace
from types import ModuleType
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
    from anthropic import AsyncAnthropic
    from anthropic.types import Message

__all__ = ["AnthropicSummarizer", "RetryPolicy"]

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
KEY_ENV = "ANTHROPIC_API_KEY"
TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"

_INCOMPLETE_STOPS = ("max_tokens", "model_context_window_exceeded", "pause_turn")


class AnthropicSummarizer:
    """Summarizes through ``POST {base_url}/v1/messages`` with the ``anthropic`` SDK.

    ``api_key`` defaults to ``$ANTHROPIC_API_KEY`` (``$ANTHROPIC_AUTH_TOKEN`` is left to
    the SDK); ``base_url`` to ``$ANTHROPIC_BASE_URL`` or Anthropic's API, and with a custom
    base URL and no key a placeholder key is sent. ``max_output_tokens`` is the model's own
    output limit, when known. The system prompt goes in the ``system`` field.

    ``temperature`` is 0 by default when the installed SDK still offers the parameter;
    releases that removed it target an API version that rejects every sampling parameter,
    and then it is omitted. A number is always sent; None never. A model that rejects it
    anyway (HTTP 400 naming ``temperature``) is asked again without it.
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
        if not model:
            raise SettingsError("the Anthropic summarizer needs a model name")
        if max_output_tokens is not None and max_output_tokens < 1:
            raise SettingsError(f"max_output_tokens must be at least 1, got {max_output_tokens}")
        self._sdk = load_sdk("anthropic", "anthropic")
        resolved_base = base_url or os.environ.get(BASE_URL_ENV) or None
        key = resolve_api_key(api_key, KEY_ENV, resolved_base)
        if key is None and not os.environ.get(TOKEN_ENV):
            raise missing_key_error("Anthropic", model, KEY_ENV)
        self.model = model
        self.max_input_tokens = max_input_tokens
        """The most transcript tokens one call may carry; longer ones are summarized in
        chunks by :func:`synopsis.compaction.compact.compact` (``None``: no limit)."""
        self.base_url = resolved_base or ANTHROPIC_BASE_URL
        self.max_output_tokens = max_output_tokens
        self.temperature: float | None = (
            _default_temperature(self._sdk) if temperature == "auto" else temperature
        )
        self.timeout = timeout
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._endpoint = Endpoint("Anthropic", model, self.base_url, KEY_ENV)
        self._api_key = key

    def __repr__(self) -> str:
        return f"AnthropicSummarizer(model={self.model!r}, base_url={self.base_url!r})"

    def _client(self) -> AsyncAnthropic:
        """A fresh SDK client with its retries off, for one call.

        One client per call costs a few milliseconds next to a call that takes seconds, and
        it cannot outlive the event loop it runs in (an ``asyncio.run`` per compaction is
        common), so no connection is ever left open.
        """
        client = self._sdk.AsyncAnthropic(
            api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
        )
        return cast("AsyncAnthropic", client)

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        limit = output_limit(request.max_tokens, self.max_output_tokens)
        system, user = build_prompt(replace(request, max_tokens=limit))

        async def call() -> Message:
            async with self._client() as client:
                while True:  # ends: temperature is dropped at most once
                    try:
                        reply = await client.messages.create(**self._arguments(system, user, limit))
                        return cast("Message", reply)
                    except Exception as exc:
                        rejected = rejected_parameter_message(exc, self._sdk)
                        if rejected is None or not self._drop_rejected_parameter(rejected):
                            raise

        message = await call_with_retries(
            call, sdk=self._sdk, endpoint=self._endpoint, policy=self._retry, sleep=self._sleep
        )
        return SummaryResult(self._summary_text(message, limit), _usage(message))

    def _arguments(self, system: str, user: str, limit: int) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "max_tokens": limit,
        }
        if self.temperature is not None:
            # In the JSON body directly: SDKs that dropped the keyword still send it when
            # the caller asked for it explicitly (a compatible server may honour it).
            arguments["extra_body"] = {"temperature": self.temperature}
        return arguments

    def _drop_rejected_parameter(self, message: str) -> bool:
        """Stop sending ``temperature`` once a model rejected it; True to retry without."""
        if self.temperature is not None and "temperature" in message:
            self.temperature = None
            return True
        return False

    def _summary_text(self, message: Message, limit: int) -> str:
        """The summary in ``message``, or the reason it is not one."""
        endpoint = self._endpoint
        stop = message.stop_reason
        if stop in _INCOMPLETE_STOPS:
            raise reply_error(
                endpoint,
                f"the reply stopped before it was complete (stop_reason {stop!r}, output "
                f"limit {limit} tokens), so the summary is cut off and was not used",
                "give the summary more room (a larger reserve or max_output_tokens) "
                "or summarize fewer messages at once",
            )
        kinds = [str(getattr(block, "type", "")) for block in message.content]
        if stop == "tool_use" or any(kind.endswith("tool_use") for kind in kinds):
            raise reply_error(
                endpoint,
                "the model replied with tool calls instead of a summary",
                "use a model that follows instructions without tools, or try again",
            )
        if stop == "refusal":
            raise reply_error(
                endpoint,
                "the model refused to summarize (stop_reason 'refusal')",
                "try another model or remove the offending content",
            )
        texts = [
            str(getattr(block, "text", "")) for block in message.content if block.type == "text"
        ]
        text = "\n".join(texts).strip()
        if not text:
            raise reply_error(
                endpoint,
                "the reply is empty",
                "try again, or use a model that follows the summarization prompt",
            )
        return text


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


def _usage(message: Message) -> SummaryUsage:
    usage = message.usage
    # Cached prompt tokens are still input the model read; count them.
    cached = (getattr(usage, "cache_creation_input_tokens", None) or 0) + (
        getattr(usage, "cache_read_input_tokens", None) or 0
    )
    return SummaryUsage(
        input_tokens=(usage.input_tokens or 0) + cached, output_tokens=usage.output_tokens or 0
    )
