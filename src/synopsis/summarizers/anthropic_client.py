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
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, cast

from synopsis.summarizers._connection import (
    ANTHROPIC,
    anthropic_usage,
    check_output_limit,
    connect,
)
from synopsis.summarizers._retry import RetryPolicy, Sleep
from synopsis.summarizers._sdk_summarizer import ReplyFacts, SdkSummarizer

if TYPE_CHECKING:
    from anthropic.types import Message

__all__ = ["AnthropicSummarizer", "RetryPolicy"]

_INCOMPLETE_STOPS = ("max_tokens", "model_context_window_exceeded", "pause_turn")


class AnthropicSummarizer(SdkSummarizer["Message"]):
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
        check_output_limit(max_output_tokens)
        connection = connect(
            ANTHROPIC, "summarizer", model, base_url, api_key, timeout, retry, sleep
        )
        super().__init__(connection, max_input_tokens, max_output_tokens)
        self.temperature = (
            _default_temperature(connection.sdk) if temperature == "auto" else temperature
        )

    async def _send(self, client: Any, system: str, user: str, limit: int) -> Message:
        reply = await client.messages.create(**self._arguments(system, user, limit))
        return cast("Message", reply)

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

    def _facts(self, message: Message, limit: int) -> ReplyFacts:
        stop = message.stop_reason
        kinds = [str(getattr(block, "type", "")) for block in message.content]
        texts = [str(getattr(b, "text", "")) for b in message.content if b.type == "text"]
        cut_off = f"before it was complete (stop_reason {stop!r}, output limit {limit} tokens)"
        return ReplyFacts(
            text="\n".join(texts),
            usage=anthropic_usage(message),
            stopped_early=cut_off if stop in _INCOMPLETE_STOPS else None,
            tool_calls=stop == "tool_use" or any(kind.endswith("tool_use") for kind in kinds),
            refusal=" (stop_reason 'refusal')" if stop == "refusal" else None,
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
