"""Recognising a provider's "the prompt is too long" reply.

Every provider words the error differently; an agent that does not recognise it cannot
recover by compacting and retrying. The patterns below cover the wording of the providers
and servers Pi 1.6 knows, each with an example in the tests. Throttling messages that merely mention
tokens ("Too many tokens per minute", Bedrock's "ThrottlingException") are vetoed first:
compacting does not help with a rate limit.

Two more cases carry no error text at all: a *successful* reply whose input already
exceeds the window (some servers truncate silently), and a reply stopped for length with
no output while the input filled the window.
"""

from __future__ import annotations

import re
from typing import Any

_N = r"[\d,]+"

OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"prompt (?:is )?too long",  # Anthropic
        r"request_too_large",  # Anthropic (413)
        r"input is too long for requested model",  # Amazon Bedrock
        r"exceeds the context window",  # OpenAI chat completions and responses
        rf"exceeds (?:the )?(?:model'?s )?maximum context length(?: of {_N} tokens?|\s*\({_N}\))",
        r"input token count.*exceeds the maximum",  # Google Gemini
        r"maximum prompt length is \d+",  # xAI
        r"reduce the length of the messages",  # Groq
        r"maximum context length is \d+ tokens",  # OpenRouter, vLLM
        rf"maximum context length \({_N}\)",  # OpenAI-compatible proxies
        rf"exceeds (?:the )?maximum allowed input length of {_N} tokens?",  # Poolside
        r"input \(\d+ tokens\) is longer than the model'?s context length",  # Together AI
        rf"prompt tokens \({_N}\) exceed(?:s)? (?:the )?model maximum",  # Bedrock Mantle
        r"exceeds the limit of \d+",  # GitHub Copilot
        r"exceeds the available context size",  # llama.cpp server
        r"greater than the context length",  # LM Studio
        r"context window exceeds limit",  # MiniMax
        r"exceeded model token limit",  # Kimi
        r"too large for model with \d+ maximum context length",  # Mistral
        rf"prompt has {_N} tokens?, but the configured context size is",  # DS4
        r"model_context_window_exceeded",  # z.ai
        r"prompt exceeds max length",  # z.ai
        r"context ?window ?exceeded",  # LiteLLM (ContextWindowExceededError)
        # HTTP 413 is a request too large whoever says it: an SDK's "413 ..." or a
        # "<Provider> API error (413): ..." prefix, not a 413 mentioned inside a body.
        r"^(?:[\w -]+ API error \(413\):|413(?:\s|:|$))",
        r"exceeded (?:max )?context length",  # Ollama
        r"range of input length should be",  # Alibaba DashScope
        r"context[_ ]length[_ ]exceeded",  # generic
        r"too many tokens",  # generic
        r"token limit exceeded",  # generic
    )
)

BODYLESS_STATUS = re.compile(r"^4(?:00|13)\s*(?:status code)?\s*\(no body\)", re.IGNORECASE)
"""Cerebras answers an oversized request with a bare 400/413 and no body. A bare 413 is an
overflow from anyone (the generic 413 pattern); a bare 400 from any other provider says
nothing about the prompt's size."""

BODYLESS_OVERFLOW_PROVIDERS = frozenset({"cerebras"})

NOT_OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"^(?:Throttling ?(?:error|exception)|Service unavailable)\b",
        r"rate.?limit",
        r"too many requests",
        r"tokens per (?:minute|min|day|second)",
    )
)

LENGTH_OVERFLOW_SHARE = 0.99


def is_overflow_error_message(error_message: str, provider: str | None = None) -> bool:
    """Does a provider's error text say the request did not fit the context window?

    ``provider`` (as a reply records it) matters for one wording only: a bare
    "400 (no body)" is an overflow from Cerebras alone.
    """
    if not error_message or any(p.search(error_message) for p in NOT_OVERFLOW_PATTERNS):
        return False
    if any(pattern.search(error_message) for pattern in OVERFLOW_PATTERNS):
        return True
    return provider in BODYLESS_OVERFLOW_PROVIDERS and bool(BODYLESS_STATUS.search(error_message))


def _input_tokens(usage: Any) -> int:
    if not isinstance(usage, dict):
        return 0
    total = 0
    for field in ("input", "cacheRead"):
        value = usage.get(field)
        if isinstance(value, int | float) and not isinstance(value, bool):
            total += int(value)
    return total


def is_context_overflow(reply: Any, context_window: int | None = None) -> bool:
    """Was this assistant reply a context overflow?

    True for an error reply whose text matches a known overflow wording; for a
    successful reply whose input (plus cache reads) exceeds ``context_window`` (silent
    truncation); and for a reply stopped for length with no output while its input
    filled at least 99% of the window.
    """
    if not isinstance(reply, dict):
        return False
    stop_reason = reply.get("stopReason")
    if stop_reason == "error":
        message = reply.get("errorMessage")
        provider = reply.get("provider")
        return isinstance(message, str) and is_overflow_error_message(
            message, provider if isinstance(provider, str) else None
        )
    if not context_window:
        return False
    usage = reply.get("usage")
    input_tokens = _input_tokens(usage)
    if stop_reason == "stop":
        return input_tokens > context_window
    if stop_reason == "length":
        output = usage.get("output") if isinstance(usage, dict) else None
        return not output and input_tokens >= LENGTH_OVERFLOW_SHARE * context_window
    return False
