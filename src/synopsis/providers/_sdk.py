"""What the OpenAI and Anthropic chat models share: settings, failures as replies, arguments.

The agent loop needs a provider failure as an assistant message (``stopReason: "error"``
with the provider's own words in ``errorMessage``), because that is what
:func:`~synopsis.providers.overflow.is_context_overflow` reads to decide on compact-and-retry.
The summarizer clients' connection and retry loop
(:class:`~synopsis.providers._connection.ProviderConnection`) are reused as they are;
:func:`call_provider` only adds the two things an agent needs on top: an overflow is never
retried (waiting does not make a prompt shorter), and what is left after the retries is
returned as text instead of raised. :class:`SdkChatModel` runs one call that way for both
protocols.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Generic, TypeVar

import orjson

from synopsis.errors import SettingsError, SummarizerError
from synopsis.messages import AssistantMessage, StopReason, Usage, block_text, blocks
from synopsis.providers._connection import (
    Adapt,
    Create,
    ProviderConnection,
    check_output_limit,
    usage,
)
from synopsis.providers._retry import CallFailure, Endpoint, classify
from synopsis.providers.base import ChatRequest
from synopsis.providers.overflow import is_overflow_error_message

T = TypeVar("T")

_GENERIC_ERROR_KINDS = frozenset(
    {"invalid_request_error", "invalid_request", "api_error", "error", "server_error"}
)


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Failed:
    """A call that ended without a usable response; ``message`` is the provider's text."""

    message: str


@dataclass(frozen=True, slots=True)
class Succeeded(Generic[T]):
    value: T


class _Overflow(Exception):
    """Carries an overflow error past the retry loop (which re-raises what it can't classify)."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


def _error_kind(body: Any) -> str | None:
    """A specific error code or type from the body (``request_too_large``…), if any."""
    if not isinstance(body, Mapping):
        return None
    inner = body.get("error", body)
    if not isinstance(inner, Mapping):
        return None
    for key in ("code", "type"):
        value = inner.get(key)
        if isinstance(value, str) and value and value not in _GENERIC_ERROR_KINDS:
            return value
    return None


def failure_text(exc: BaseException, failure: CallFailure, sdk: ModuleType) -> str:
    """The provider's own description of a failure, as the agent records it.

    The server's message, plus its error code when only the code says that the prompt was
    too long (Anthropic's 413 says "request_too_large" in its type, OpenAI's code may say
    "context_length_exceeded"). A rejection with no body reads "413 status code (no
    body)", the wording overflow detection knows.
    """
    if failure.timed_out:
        return "Request timed out"
    if isinstance(exc, sdk.APIConnectionError):
        return f"Connection error: {failure.detail}"
    if failure.status is None:  # a reply the SDK could not read
        return failure.detail
    body = getattr(exc, "body", None)
    if body is None or (isinstance(body, str) and not body.strip()):
        return f"{failure.status} status code (no body)"
    text = failure.detail
    kind = _error_kind(body)
    if kind is not None and kind not in text and not is_overflow_error_message(text):
        with_kind = f"{text} ({kind})"
        if is_overflow_error_message(with_kind):
            return with_kind
    return text


async def call_provider(
    connection: ProviderConnection, create: Create[T], adapt: Adapt
) -> Succeeded[T] | Failed:
    """``create`` on a fresh client under the connection's retry policy; a provider
    failure comes back as :class:`Failed`.

    Rate limits, overload and server errors are retried with backoff; an overflow is not.
    Cancellation and errors the SDK did not raise (bugs) propagate.
    """
    sdk = connection.sdk

    async def attempt() -> T:
        try:
            return await connection.send(create, adapt)
        except Exception as exc:
            failure = classify(exc, sdk)
            if failure is not None and is_overflow_error_message(failure_text(exc, failure, sdk)):
                raise _Overflow(exc) from exc
            raise

    try:
        value = await connection.retrying(attempt)
    except _Overflow as overflow:
        failure = classify(overflow.original, sdk)
        if failure is None:  # cannot happen: only classified failures are wrapped
            return Failed(str(overflow.original))
        return Failed(failure_text(overflow.original, failure, sdk))
    except SummarizerError as error:
        cause = error.__cause__
        failure = classify(cause, sdk) if cause is not None else None
        if cause is None or failure is None:
            return Failed(str(error))
        return Failed(failure_text(cause, failure, sdk))
    return Succeeded(value)


def unreadable_reply(error: Exception) -> str:
    return f"the server's reply is not in the expected format ({type(error).__name__}: {error})"


def check_limits(context_window: int, max_output_tokens: int | None) -> None:
    """Refuse a context window or output limit no model has, before connecting."""
    if isinstance(context_window, bool) or not isinstance(context_window, int):
        raise SettingsError(f"context_window must be a whole number, got {context_window!r}")
    if context_window < 1:
        raise SettingsError(f"context_window must be at least 1, got {context_window}")
    check_output_limit(max_output_tokens)


class SdkChatModel(ABC, Generic[T]):
    """A :class:`~synopsis.providers.base.ChatModel` over an official SDK, replying ``T``.

    A subclass builds the request body (:meth:`arguments`), sends it (:meth:`_send`) and
    reads the reply into an assistant message (:meth:`_read`). Failures, and replies that
    are not in the protocol's format, come back as error replies (see the module
    docstring).
    """

    api: ClassVar[str]

    def __init__(
        self,
        connection: ProviderConnection,
        provider: str,
        context_window: int,
        temperature: float | None,
    ) -> None:
        self._connection = connection
        self.provider = provider
        self.model_id = connection.endpoint.model
        self.context_window = context_window
        self.base_url = connection.base_url
        self.temperature = temperature
        self.timeout = connection.timeout

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(model={self.model_id!r}, base_url={self.base_url!r}, "
            f"context_window={self.context_window})"
        )

    @abstractmethod
    def arguments(self, request: ChatRequest) -> dict[str, Any]:
        """The body of the provider call for ``request``."""

    @abstractmethod
    async def _send(self, client: Any, arguments: dict[str, Any]) -> T:
        """Send ``arguments`` with the SDK ``client``; the reply as the SDK returns it."""

    @abstractmethod
    def _read(self, reply: T) -> AssistantMessage:
        """The assistant message in ``reply``; may raise on a reply it cannot read."""

    async def complete(self, request: ChatRequest) -> AssistantMessage:
        def create(client: Any) -> Awaitable[T]:
            # built per attempt: a rejected parameter is dropped between attempts
            return self._send(client, self.arguments(request))

        if request.raise_on_failure:
            reply = await self._connection.call(create, self._adapt)
        else:
            outcome = await call_provider(self._connection, create, self._adapt)
            if isinstance(outcome, Failed):
                return self._reply([], "error", error_message=outcome.message)
            reply = outcome.value
        try:
            return self._read(reply)
        except (AttributeError, TypeError, ValueError, KeyError) as error:
            # A 200 whose body is not a reply of this protocol (a misconfigured proxy).
            return self._reply([], "error", error_message=unreadable_reply(error))

    @property
    def sdk(self) -> ModuleType:
        """The provider's SDK module, as loaded for this model."""
        return self._connection.sdk

    @property
    def endpoint(self) -> Endpoint:
        """Where calls go, as errors name it."""
        return self._connection.endpoint

    def _adapt(self, message: str) -> bool:
        """Adapt to a model that rejected a parameter; True when there is something to retry.

        ``temperature`` is dropped (reasoning models and recent Claude models accept only
        their default), once, and stays dropped for later calls.
        """
        if self.temperature is not None and "temperature" in message:
            self.temperature = None
            return True
        return False

    def _reply(
        self,
        content: list[Any],
        stop_reason: StopReason,
        reply_usage: Usage | None = None,
        *,
        error_message: str | None = None,
    ) -> AssistantMessage:
        message: AssistantMessage = {
            "role": "assistant",
            "content": content,
            "api": self.api,
            "provider": self.provider,
            "model": self.model_id,
            "usage": reply_usage if reply_usage is not None else usage(0, 0),
            "stopReason": stop_reason,
            "timestamp": now_ms(),
        }
        if error_message is not None:
            message["errorMessage"] = error_message
        return message


def dump_arguments(arguments: Any) -> str:
    """Arguments as the JSON string OpenAI's ``tool_calls`` carry."""
    return orjson.dumps(arguments if isinstance(arguments, dict) else {}).decode()


def text_blocks(message: Any) -> list[str]:
    """The non-empty texts of a message's text blocks."""
    return [
        text
        for block in blocks(message)
        if block.get("type") == "text" and (text := block_text(block))
    ]


def image_blocks(message: Any) -> list[tuple[str, str]]:
    """(mime type, base64 data) of a message's image blocks that carry data."""
    images: list[tuple[str, str]] = []
    for block in blocks(message):
        if block.get("type") != "image":
            continue
        data, mime = block.get("data"), block.get("mimeType")
        if isinstance(data, str) and data and isinstance(mime, str):
            images.append((mime, data))
    return images
