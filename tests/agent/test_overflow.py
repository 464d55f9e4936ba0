"""Overflow recognition: every provider wording, the throttling vetoes, the silent cases."""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.providers.overflow import OVERFLOW_PATTERNS, is_context_overflow

# One real-world wording per provider or server; each must be recognised.
OVERFLOW_MESSAGES = {
    "anthropic": "prompt is too long: 213462 tokens > 200000 maximum",
    "anthropic-413": '413 {"type":"error","error":{"type":"request_too_large"}}',
    "bedrock": "ValidationException: Input is too long for requested model.",
    "openai": "Your input exceeds the context window of this model.",
    "litellm": "The request exceeds the model's maximum context length of 131072 tokens",
    "gemini": "The input token count (1196265) exceeds the maximum number of tokens",
    "xai": "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
    "groq": "Please reduce the length of the messages or completion.",
    "openrouter": "This endpoint's maximum context length is 200000 tokens. However, you asked",
    "proxy-parenthesised": "Requested 140000 tokens, maximum context length (128000) exceeded",
    "poolside": "Request exceeds the maximum allowed input length of 65,536 tokens",
    "together": "The input (210000 tokens) is longer than the model's context length (200000)",
    "bedrock-mantle": "prompt tokens (250000) exceed model maximum of 200000",
    "copilot": "prompt token count of 140000 exceeds the limit of 128000",
    "llama.cpp": "the request exceeds the available context size, try increasing it",
    "lm-studio": "Trying to keep 9000 tokens when context is greater than the context length",
    "minimax": "invalid params, context window exceeds limit (2013)",
    "kimi": "Invalid request: exceeded model token limit: 262144",
    "mistral": "Prompt of 40000 tokens is too large for model with 32768 maximum context length",
    "ds4": "Prompt has 32,769 tokens, but the configured context size is 32,768 tokens",
    "zai": "model_context_window_exceeded",
    "ollama": "prompt too long; exceeded max context length by 2048 tokens",
    "zai-length": "Prompt exceeds max length",
    "litellm-window": "litellm.ContextWindowExceededError: Context window exceeded",
    "generic-413": "Copilot API error (413): failed to parse request",
    "sdk-413": "413 Request Entity Too Large",
    "dashscope": "Range of input length should be [1, 983616]",
    "generic-context-length": "context_length_exceeded",
    "generic-too-many": "Request has too many tokens",
    "generic-token-limit": "Token limit exceeded for this request",
}

NOT_OVERFLOW_MESSAGES = [
    "Throttling error: Too many tokens, please wait before trying again.",
    "ThrottlingException: Too many tokens per minute",
    "Rate limit reached: too many tokens per minute (TPM)",
    "429 Too Many Requests",
    "Service unavailable: the model is overloaded",
    "Internal server error",
    "invalid api key",
    "",
]


def _error(message: str, provider: str = "acme") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [],
        "stopReason": "error",
        "errorMessage": message,
        "provider": provider,
    }


def test_thirty_wordings_are_covered() -> None:
    assert len(OVERFLOW_MESSAGES) == 30


@pytest.mark.parametrize("provider", sorted(OVERFLOW_MESSAGES))
def test_overflow_wording_is_recognised(provider: str) -> None:
    assert is_context_overflow(_error(OVERFLOW_MESSAGES[provider]), 200_000)


def test_every_pattern_is_needed() -> None:
    """Each pattern matches at least one of the examples, so none is dead weight."""
    for pattern in OVERFLOW_PATTERNS:
        assert any(pattern.search(m) for m in OVERFLOW_MESSAGES.values()), pattern.pattern


@pytest.mark.parametrize("message", NOT_OVERFLOW_MESSAGES)
def test_throttling_and_other_errors_are_not_overflow(message: str) -> None:
    assert not is_context_overflow(_error(message), 200_000)


def test_cerebras_bodyless_status() -> None:
    assert is_context_overflow(_error("413 status code (no body)", "cerebras"))
    assert is_context_overflow(_error("400 (no body)", "cerebras"))
    assert not is_context_overflow(_error("500 status code (no body)", "cerebras"))


@pytest.mark.parametrize("provider", ["openai", "anthropic", "acme"])
def test_a_bodyless_400_from_another_provider_is_not_overflow(provider: str) -> None:
    """Only Cerebras answers an oversized prompt with a bare 400; a bare 413 is an
    overflow from anyone (the request was too large)."""
    assert not is_context_overflow(_error("400 status code (no body)", provider))
    assert not is_context_overflow(_error("400 (no body)", provider))
    assert is_context_overflow(_error("413 status code (no body)", provider))
    no_provider = _error("400 status code (no body)")
    del no_provider["provider"]
    assert not is_context_overflow(no_provider)


def test_a_413_mentioned_inside_a_message_is_not_overflow() -> None:
    assert not is_context_overflow(_error("upstream said: error code 413 elsewhere"))
    assert not is_context_overflow(_error("bad request (4130 bytes)"))


def _reply(stop: str, input_tokens: int, output: int, cache_read: int = 0) -> dict[str, Any]:
    usage = {"input": input_tokens, "output": output, "cacheRead": cache_read, "cacheWrite": 0}
    return {"role": "assistant", "content": [], "stopReason": stop, "usage": usage}


def test_silent_overflow_of_a_successful_reply() -> None:
    assert is_context_overflow(_reply("stop", 150_000, 10, cache_read=60_000), 200_000)
    assert not is_context_overflow(_reply("stop", 150_000, 10, cache_read=40_000), 200_000)
    assert not is_context_overflow(_reply("stop", 250_000, 10))  # window unknown


def test_length_stop_with_no_output_and_a_full_window() -> None:
    assert is_context_overflow(_reply("length", 198_000, 0), 200_000)
    assert not is_context_overflow(_reply("length", 198_000, 12), 200_000)
    assert not is_context_overflow(_reply("length", 150_000, 0), 200_000)


def test_tool_use_and_garbage_are_not_overflow() -> None:
    assert not is_context_overflow(_reply("toolUse", 300_000, 5), 200_000)
    assert not is_context_overflow(None, 200_000)
    assert not is_context_overflow({"stopReason": "error", "errorMessage": 7}, 200_000)
