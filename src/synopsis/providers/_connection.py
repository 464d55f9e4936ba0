"""How the four model clients reach their provider, and what every reply reports back.

``OpenAISummarizer``, ``AnthropicSummarizer``, ``OpenAIChatModel`` and
``AnthropicChatModel`` connect the same way: check the model name and output limit, import
the optional SDK, take the base URL and API key from the arguments or the environment,
and open a fresh SDK client with its own retries off for every call, run under
:func:`~synopsis.providers._retry.call_with_retries`. :func:`connect` does that once for
all four; a :class:`Provider` holds what differs between the two protocols. The token
usage readers live here too, so summaries and agent replies count tokens alike.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, TypeVar

from synopsis.errors import SettingsError
from synopsis.messages import Usage
from synopsis.providers._retry import (
    Endpoint,
    RetryPolicy,
    Sleep,
    call_with_retries,
    load_sdk,
    missing_key_error,
    rejected_parameter_message,
    resolve_api_key,
)

T = TypeVar("T")

Create = Callable[[Any], Awaitable[T]]
"""Sends one request with the SDK client it is given and returns the reply."""

Adapt = Callable[[str], bool]
"""Told the message of an HTTP 400, drops the parameter it rejects; True to send again."""

MaxTokensParameter = Literal["max_tokens", "max_completion_tokens"]

Role = Literal["summarizer", "chat model"]


@dataclass(frozen=True, slots=True)
class Provider:
    """What differs between the two protocols when connecting."""

    name: str
    """Human name in messages: "OpenAI" or "Anthropic"."""
    protocol: str
    """The protocol as errors name it (see :class:`~synopsis.providers._retry.Endpoint`)."""
    sdk_module: str
    """The SDK package, which is also the name of the extra that installs it."""
    client_class: str
    default_base_url: str
    key_env: str
    base_url_env: str
    token_env: str | None = None
    """A credential the SDK reads by itself; when set, a missing API key is no error."""


OPENAI = Provider(
    name="OpenAI",
    protocol="OpenAI-compatible",
    sdk_module="openai",
    client_class="AsyncOpenAI",
    default_base_url="https://api.openai.com/v1",
    key_env="OPENAI_API_KEY",
    base_url_env="OPENAI_BASE_URL",
)
ANTHROPIC = Provider(
    name="Anthropic",
    protocol="Anthropic",
    sdk_module="anthropic",
    client_class="AsyncAnthropic",
    default_base_url="https://api.anthropic.com",
    key_env="ANTHROPIC_API_KEY",
    base_url_env="ANTHROPIC_BASE_URL",
    token_env="ANTHROPIC_AUTH_TOKEN",
)


def _never_adapt(message: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class ProviderConnection:
    """A resolved connection: the SDK, where calls go, the key, and how they are retried."""

    provider: Provider
    sdk: ModuleType
    endpoint: Endpoint
    api_key: str | None
    """None only when the provider's ``token_env`` credential is left to the SDK."""
    timeout: float
    retry: RetryPolicy
    sleep: Sleep

    @property
    def base_url(self) -> str:
        return self.endpoint.base_url

    def client(self) -> Any:
        """A fresh SDK client with its retries off, for one call.

        One client per call costs a few milliseconds next to a call that takes seconds, and
        it cannot outlive the event loop it runs in (an ``asyncio.run`` per compaction or
        prompt is common), so no connection is ever left open.
        """
        factory = getattr(self.sdk, self.provider.client_class)
        return factory(
            api_key=self.api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout
        )

    async def send(self, create: Create[T], adapt: Adapt = _never_adapt) -> T:
        """One attempt, without retries: ``create`` on a fresh client.

        A model that rejects a parameter (an HTTP 400 whose message ``adapt`` recognises)
        is asked again at once without it; ``adapt`` returns False once it has nothing
        left to drop, which ends the loop.
        """
        async with self.client() as client:
            while True:
                try:
                    return await create(client)
                except Exception as exc:
                    rejected = rejected_parameter_message(exc, self.sdk)
                    if rejected is None or not adapt(rejected):
                        raise

    async def retrying(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """``await attempt()`` under this connection's retry policy; SDK errors become
        :class:`~synopsis.errors.SummarizerError`."""
        return await call_with_retries(
            attempt, sdk=self.sdk, endpoint=self.endpoint, policy=self.retry, sleep=self.sleep
        )

    async def call(self, create: Create[T], adapt: Adapt = _never_adapt) -> T:
        """:meth:`send` with retries."""
        return await self.retrying(lambda: self.send(create, adapt))


def check_output_limit(max_output_tokens: int | None) -> None:
    if max_output_tokens is not None and max_output_tokens < 1:
        raise SettingsError(f"max_output_tokens must be at least 1, got {max_output_tokens}")


def connect(
    provider: Provider,
    role: Role,
    model: str,
    base_url: str | None,
    api_key: str | None,
    timeout: float,
    retry: RetryPolicy | None,
    sleep: Sleep,
    /,
) -> ProviderConnection:
    """Check ``model``, import the SDK and resolve the base URL and key for one client.

    The arguments after ``role`` are the client constructor's own, in its order. ``role``
    names the client in the error for an empty model name. ``base_url`` falls back to
    ``$base_url_env`` and then the provider's own API; the key to ``$key_env``, or to a
    placeholder when a custom base URL is set (local servers need none); with neither,
    :func:`~synopsis.providers._retry.missing_key_error`.
    """
    if not model:
        raise SettingsError(f"the {provider.name} {role} needs a model name")
    sdk = load_sdk(provider.sdk_module, provider.sdk_module)
    custom_base = base_url or os.environ.get(provider.base_url_env) or None
    key = resolve_api_key(api_key, provider.key_env, custom_base)
    if key is None and not (provider.token_env and os.environ.get(provider.token_env)):
        raise missing_key_error(provider.name, model, provider.key_env)
    endpoint = Endpoint(
        provider.protocol, model, custom_base or provider.default_base_url, provider.key_env
    )
    return ProviderConnection(provider, sdk, endpoint, key, timeout, retry or RetryPolicy(), sleep)


def default_max_tokens_parameter(base_url: str) -> MaxTokensParameter:
    """OpenAI's newer models reject ``max_tokens``; most compatible servers only know it."""
    return "max_completion_tokens" if "api.openai.com" in base_url else "max_tokens"


# --- token usage ----------------------------------------------------------------------------


def count(value: Any) -> int:
    """A token count from an SDK field that may be missing or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def usage(input_tokens: int, output: int, cache_read: int = 0, cache_write: int = 0) -> Usage:
    """Usage in synopsis' (and Pi's) shape; ``input`` excludes cached prompt tokens."""
    return {
        "input": input_tokens,
        "output": output,
        "cacheRead": cache_read,
        "cacheWrite": cache_write,
        "totalTokens": input_tokens + output + cache_read + cache_write,
    }


def openai_usage(completion: Any) -> Usage:
    """The usage of a chat completion; ``prompt_tokens`` includes the cached ones."""
    reported = completion.usage
    if reported is None:
        return usage(0, 0)
    details = getattr(reported, "prompt_tokens_details", None)
    cached = count(getattr(details, "cached_tokens", None)) if details is not None else 0
    prompt = count(reported.prompt_tokens)
    return usage(max(prompt - cached, 0), count(reported.completion_tokens), cached)


def anthropic_usage(message: Any) -> Usage:
    """The usage of a messages-API reply; ``input_tokens`` excludes the cached ones."""
    reported = message.usage
    return usage(
        count(reported.input_tokens),
        count(reported.output_tokens),
        count(getattr(reported, "cache_read_input_tokens", None)),
        count(getattr(reported, "cache_creation_input_tokens", None)),
    )
