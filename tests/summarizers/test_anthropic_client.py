"""What only the Anthropic summarizer does: the real ``anthropic`` SDK over real HTTP.

What both summarizers do is tested for each in ``test_sdk_summarizers.py``.
"""

from __future__ import annotations

import inspect
from typing import Any

import anthropic
import pytest

from synopsis.summarizers.base import SummaryUsage
from synopsis.summarizers.model import AnthropicSummarizer
from synopsis.summarizers.prompts import SYSTEM_PROMPT
from tests.llm_server import LLMServer, Reply
from tests.summarizers._support import (
    CACHED_USAGE,
    SUMMARY,
    anthropic_message,
    request,
    run,
    summarizer,
)


def claude(server: LLMServer, **options: Any) -> AnthropicSummarizer:
    built = summarizer(server, "anthropic", **options)
    assert isinstance(built, AnthropicSummarizer)
    return built


def sdk_has_temperature() -> bool:
    create = anthropic.resources.messages.AsyncMessages.create
    return "temperature" in inspect.signature(create).parameters


def test_request_fields_of_the_messages_api(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    run(claude(llm_server).summarize(request(max_tokens=900)))
    [sent] = llm_server.requests
    assert "anthropic-version" in sent.headers
    body = sent.body
    # 0 where the SDK's API version has sampling parameters; absent where it has none.
    assert body.get("temperature") == (0 if sdk_has_temperature() else None)
    assert body["system"] == SYSTEM_PROMPT
    assert [message["role"] for message in body["messages"]] == ["user"]


@pytest.mark.parametrize(("temperature", "sent"), [(0.0, 0), (0.3, 0.3), (None, None)])
def test_explicit_temperature(
    llm_server: LLMServer, temperature: float | None, sent: float | None
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    run(claude(llm_server, temperature=temperature).summarize(request()))
    assert llm_server.requests[0].body.get("temperature") == sent


def test_usage_is_mapped_with_cached_input(llm_server: LLMServer) -> None:
    content = [{"type": "text", "text": SUMMARY}]
    llm_server.enqueue(Reply(body=anthropic_message(content, CACHED_USAGE)))
    result = run(claude(llm_server).summarize(request()))
    # Cached prompt tokens are still input the model read.
    assert result.usage == SummaryUsage(input_tokens=120 + 5000 + 700, output_tokens=30)


def test_text_blocks_are_joined_and_thinking_ignored(llm_server: LLMServer) -> None:
    content = [
        {"type": "thinking", "thinking": "let me think", "signature": "sig"},
        {"type": "text", "text": "## Goal\nA"},
        {"type": "text", "text": "## Next Steps\n1. B"},
    ]
    llm_server.enqueue(
        Reply(body=anthropic_message(content, {"input_tokens": 1, "output_tokens": 1}))
    )
    assert run(claude(llm_server).summarize(request())).text == "## Goal\nA\n## Next Steps\n1. B"
