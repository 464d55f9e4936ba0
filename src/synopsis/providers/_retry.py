"""What the model clients share: the retry policy, error mapping and SDK plumbing.

Both official SDKs can retry by themselves, but each with its own rules, delays and
limits. The clients switch that off (``max_retries=0``) and run :func:`call_with_retries`
instead, so one policy applies to both providers, its delays can be injected by tests, and
every failure ends as a :class:`~synopsis.errors.SummarizerError` that names the model, the
server and the HTTP status, and says what to do.

The two SDKs are separate packages with parallel exception hierarchies
(``APIStatusError``, ``APIConnectionError``, ``APITimeoutError``…); :func:`classify`
takes the SDK module as an argument and reads either one.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from types import ModuleType
from typing import Any, TypeVar

from synopsis.errors import SettingsError, SummarizerError

T = TypeVar("T")

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given number of seconds; ``asyncio.sleep`` unless a test injects another."""

NO_KEY_PLACEHOLDER = "synopsis-no-key"
"""Sent as the API key to servers that need none (local vLLM, llama.cpp, Ollama…)."""

_MAX_DETAIL_CHARS = 300


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to retry a model call that failed transiently.

    Retried: HTTP 408, 409, 429 and every 5xx (Anthropic's 529 "overloaded" included),
    connection errors and timeouts. The wait before retry *n* is
    ``min(max_delay, base_delay × 2^(n-1))``, shortened by up to ``jitter`` (a fraction)
    at random so that many clients do not retry in lockstep. A ``Retry-After`` (or
    ``retry-after-ms``) header from the server replaces that computed wait; when it asks
    for longer than ``max_retry_after`` seconds the call fails at once instead of hanging.
    """

    max_attempts: int = 4
    """Total attempts, the first one included; 1 means never retry."""
    base_delay: float = 1.0
    max_delay: float = 20.0
    jitter: float = 0.25
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise SettingsError(f"max_attempts must be at least 1, got {self.max_attempts}")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise SettingsError("retry delays must not be negative")
        if not 0.0 <= self.jitter <= 1.0:
            raise SettingsError(f"jitter must be between 0 and 1, got {self.jitter}")

    def backoff(self, retry_number: int, random_value: float) -> float:
        """Seconds to wait before retry ``retry_number`` (1 for the first retry).

        ``random_value`` in [0, 1) picks the jitter, so the result is reproducible.
        """
        exponent = min(max(retry_number - 1, 0), 60)
        ceiling = min(self.max_delay, self.base_delay * 2.0**exponent)
        return ceiling * (1.0 - self.jitter * random_value)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where calls go, named in every error so the user knows which model failed."""

    provider: str
    """Human name of the protocol: "OpenAI-compatible" or "Anthropic"."""
    model: str
    base_url: str
    key_env: str
    """The environment variable the API key comes from."""

    def describe(self) -> str:
        return f"{self.provider} model {self.model!r} at {self.base_url}"


@dataclass(frozen=True, slots=True)
class CallFailure:
    """An SDK exception reduced to what the retry loop and the error message need."""

    status: int | None
    """HTTP status; None when no response arrived (connection error, timeout)."""
    detail: str
    retryable: bool
    retry_after: float | None = None
    timed_out: bool = False


def parse_retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the server asked us to wait, or None when it did not say (or said nonsense).

    Reads ``retry-after-ms`` (OpenAI and Anthropic send it) before the standard
    ``Retry-After``, which is either a number of seconds or an HTTP date.
    """
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            value = float(milliseconds) / 1000.0
        except ValueError:
            value = -1.0
        if value >= 0.0:
            return value
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        try:
            moment = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = max(0.0, moment.timestamp() - now)
    return seconds if seconds >= 0.0 else None


def _should_retry(status: int, headers: Mapping[str, str]) -> bool:
    hint = headers.get("x-should-retry")
    if hint == "true":
        return True
    if hint == "false":
        return False
    return status in (408, 409, 429) or status >= 500


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _MAX_DETAIL_CHARS:
        return text
    return text[: _MAX_DETAIL_CHARS - 1] + "…"


def _status_detail(exc: Any) -> str:
    """The server's own error message, from the JSON body when there is one."""
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping) and isinstance(inner.get("message"), str):
            return _shorten(inner["message"])
        if isinstance(body.get("message"), str):
            return _shorten(body["message"])
    message = getattr(exc, "message", None)
    return _shorten(message if isinstance(message, str) else str(exc))


def classify(exc: BaseException, sdk: ModuleType) -> CallFailure | None:
    """What ``exc``, raised by the ``openai`` or ``anthropic`` SDK, means for a retry.

    None for anything the SDK did not raise as an API error: those are bugs or
    cancellations and must propagate unchanged.
    """
    if isinstance(exc, sdk.APITimeoutError):
        return CallFailure(None, "the request timed out", retryable=True, timed_out=True)
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = _shorten(str(cause)) if cause is not None and str(cause) else str(exc)
        return CallFailure(None, detail or "connection error", retryable=True)
    if isinstance(exc, sdk.APIStatusError):
        status = int(getattr(exc, "status_code", 0))
        response = getattr(exc, "response", None)
        headers: Mapping[str, str] = getattr(response, "headers", None) or {}
        return CallFailure(
            status,
            _status_detail(exc),
            retryable=_should_retry(status, headers),
            retry_after=parse_retry_after(headers, time.time()),
        )
    if isinstance(exc, sdk.APIError):
        return CallFailure(getattr(exc, "status_code", None), _status_detail(exc), False)
    return None


def rejected_parameter_message(exc: BaseException, sdk: ModuleType) -> str | None:
    """The lower-cased message of an HTTP 400 reply, to see which parameter it rejects.

    Models differ in what they accept: OpenAI's reasoning models and recent Claude models
    refuse ``temperature`` other than the default, and OpenAI's newer models refuse
    ``max_tokens``. The clients read this message and retry once without the parameter.
    """
    if isinstance(exc, sdk.BadRequestError):
        return _status_detail(exc).lower()
    return None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def failure_error(
    endpoint: Endpoint, failure: CallFailure, attempts: int, *, note: str | None = None
) -> SummarizerError:
    """The error a user reads: which model and server, what went wrong, what to do."""
    tried = f"gave up after {_plural(attempts, 'attempt')}"
    status = failure.status
    detail = failure.detail
    if status is None and failure.timed_out:
        what = f"the request timed out, {tried}"
        advice = "raise the timeout or check that the server is not overloaded"
    elif status is None:
        what = f"could not connect ({detail}), {tried}"
        advice = "check that the server is running and that the base URL is right"
    elif status == 401:
        what = f"HTTP 401 authentication failed ({detail})"
        advice = f"check the API key (set {endpoint.key_env} or pass api_key)"
    elif status == 403:
        what = f"HTTP 403 permission denied ({detail})"
        advice = "check that this API key may use this model"
    elif status == 404:
        what = f"HTTP 404 not found ({detail})"
        advice = "check the model name and the base URL"
    elif status == 429:
        what = f"HTTP 429 rate limited ({detail}), {tried}"
        advice = "wait and try again, or lower the request rate"
    elif status >= 500:
        what = f"HTTP {status} server error ({detail}), {tried}"
        advice = "the server is failing or overloaded; try again later"
    elif status in (400, 413, 422):
        what = f"HTTP {status} request rejected ({detail})"
        advice = (
            "the transcript may be too long for this model, or the server may not accept "
            "one of the parameters"
        )
    else:
        what = f"HTTP {status} ({detail})"
        advice = "see the server's message"
    message = f"{endpoint.describe()}: {what}"
    if note:
        message += f"; {note}"
    return SummarizerError(f"{message}; {advice}")


def reply_error(endpoint: Endpoint, problem: str, advice: str) -> SummarizerError:
    """The error for a reply that arrived but cannot be used as a summary."""
    return SummarizerError(f"{endpoint.describe()}: {problem}; {advice}")


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """A model call failed and will be tried again after ``wait`` seconds."""

    endpoint: Endpoint
    failure: CallFailure
    attempt: int
    """The attempt that failed (1 for the first)."""
    max_attempts: int
    wait: float


class CallObserver:
    """Told about model calls as they go: a retry is coming, or a call failed for good.

    The library prints nothing; an application (the CLI's status line) subclasses this and
    installs it with :func:`observe_calls`. :meth:`failed` may raise to stop the whole run
    (the CLI stops at the first unreachable server or refused key).
    """

    def retrying(self, notice: RetryNotice) -> None:
        """Called before waiting for a retry."""

    def failed(self, error: SummarizerError, failure: CallFailure) -> None:
        """Called when a call gives up, just before ``error`` is raised."""


_observer: ContextVar[CallObserver | None] = ContextVar("synopsis_call_observer", default=None)


@contextmanager
def observe_calls(observer: CallObserver) -> Iterator[None]:
    """Install ``observer`` for the model calls made inside the ``with`` block (and in the
    asyncio tasks started there)."""
    token = _observer.set(observer)
    try:
        yield
    finally:
        _observer.reset(token)


def is_fatal(failure: CallFailure) -> bool:
    """Will every further call fail the same way? (No server there, a refused key, no
    such model.) A run should stop at the first such failure instead of repeating it."""
    if failure.status is None:
        return not failure.timed_out
    return failure.status in (401, 403, 404)


def _give_up(error: SummarizerError, failure: CallFailure) -> SummarizerError:
    observer = _observer.get()
    if observer is not None:
        observer.failed(error, failure)
    return error


async def call_with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    sdk: ModuleType,
    endpoint: Endpoint,
    policy: RetryPolicy,
    sleep: Sleep = asyncio.sleep,
    random_value: Callable[[], float] = random.random,
) -> T:
    """``await call()``, retried under ``policy``; SDK errors become ``SummarizerError``.

    Cancellation and exceptions the SDK did not raise as API errors pass through unchanged.
    """
    attempt = 0
    while True:
        attempt += 1
        try:
            return await call()
        except Exception as exc:
            failure = classify(exc, sdk)
            if failure is None:
                raise
            if not failure.retryable or attempt >= policy.max_attempts:
                raise _give_up(failure_error(endpoint, failure, attempt), failure) from exc
            wait = failure.retry_after
            if wait is not None and wait > policy.max_retry_after:
                note = (
                    f"the server asked to wait {wait:g} s before retrying, longer than the "
                    f"{policy.max_retry_after:g} s this client waits"
                )
                error = failure_error(endpoint, failure, attempt, note=note)
                raise _give_up(error, failure) from exc
            if wait is None:
                wait = policy.backoff(attempt, random_value())
            observer = _observer.get()
            if observer is not None:
                observer.retrying(
                    RetryNotice(endpoint, failure, attempt, policy.max_attempts, wait)
                )
        await sleep(wait)


def load_sdk(module: str, extra: str) -> ModuleType:
    """Import an optional SDK, or say exactly which extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise SummarizerError(
            f"the {module!r} package is needed for {module}: models; "
            f"install it with: pip install 'synopsis[{extra}]'"
        ) from exc


def resolve_api_key(api_key: str | None, env_var: str, base_url: str | None) -> str | None:
    """The key to send: the explicit one, else ``$env_var``, else a placeholder when a
    custom base URL is set (local servers accept any key), else None."""
    if api_key:
        return api_key
    from_env = os.environ.get(env_var)
    if from_env:
        return from_env
    if base_url:
        return NO_KEY_PLACEHOLDER
    return None


def output_limit(requested: int, model_limit: int | None) -> int:
    """The output limit to send: the request's, lowered to the model's own when known."""
    if requested < 1:
        raise SettingsError(f"summary max_tokens must be at least 1, got {requested}")
    return requested if model_limit is None else min(requested, model_limit)


def missing_key_error(provider: str, model: str, env_var: str) -> SummarizerError:
    return SummarizerError(
        f"{provider} model {model!r}: no API key; set {env_var}, pass api_key, or pass "
        "base_url to use a server that needs no key"
    )
