"""What only the OpenAI-compatible summarizer does: the real ``openai`` SDK over real HTTP.

What both summarizers do is tested for each in ``test_sdk_summarizers.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from synopsis.errors import SummarizerError
from synopsis.providers.openai import OpenAIChatModel
from synopsis.summarizers.base import SummaryUsage
from synopsis.summarizers.model import OpenAISummarizer
from tests.llm_server import LLMServer, RecordedRequest, Reply
from tests.summarizers._support import SUMMARY, request, run, summarizer


def openai(server: LLMServer, **options: Any) -> OpenAISummarizer:
    built = summarizer(server, "openai", **options)
    assert isinstance(built, OpenAISummarizer)
    return built


def test_request_fields_of_chat_completions(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    run(openai(llm_server).summarize(request(max_tokens=900)))
    [sent] = llm_server.requests
    assert sent.headers["authorization"] == "Bearer test-key"
    body = sent.body
    assert body["temperature"] == 0
    assert body["max_tokens"] == 900
    assert "max_completion_tokens" not in body
    assert [message["role"] for message in body["messages"]] == ["system", "user"]


def test_max_completion_tokens_parameter_and_omitted_temperature(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    client = openai(llm_server, max_tokens_parameter="max_completion_tokens", temperature=None)
    run(client.summarize(request(max_tokens=321)))
    body = llm_server.requests[0].body
    assert body["max_completion_tokens"] == 321
    assert "max_tokens" not in body
    assert "temperature" not in body


def test_a_model_that_rejects_max_tokens_gets_max_completion_tokens(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        if "max_tokens" in sent.body:
            return Reply.error(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
            )
        return Reply(text=SUMMARY)

    llm_server.set_default(answer)
    assert run(openai(llm_server).summarize(request(max_tokens=500))).text == SUMMARY
    first, second = llm_server.requests
    assert first.body["max_tokens"] == 500
    assert second.body["max_completion_tokens"] == 500
    assert "max_tokens" not in second.body


def test_a_parameter_is_adapted_only_once(llm_server: LLMServer) -> None:
    llm_server.set_default(Reply.error(400, "'max_tokens' is not supported, nor is the other"))
    with pytest.raises(SummarizerError, match="HTTP 400"):
        run(openai(llm_server).summarize(request()))
    assert len(llm_server.requests) == 2


def test_openai_default_base_url_uses_max_completion_tokens() -> None:
    client = OpenAISummarizer("gpt-4o-mini", api_key="k")
    assert client.base_url == "https://api.openai.com/v1"
    assert isinstance(client.chat_model, OpenAIChatModel)
    assert client.chat_model.max_tokens_parameter == "max_completion_tokens"


def completion_body(usage: dict[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": SUMMARY},
                "finish_reason": "stop",
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def test_missing_usage_counts_zero(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(body=completion_body(None)))
    result = run(openai(llm_server).summarize(request()))
    assert result.text == SUMMARY
    assert result.usage == SummaryUsage()


def test_cached_prompt_tokens_count_as_input(llm_server: LLMServer) -> None:
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 40,
        "total_tokens": 1040,
        "prompt_tokens_details": {"cached_tokens": 600},
    }
    llm_server.enqueue(Reply(body=completion_body(usage)))
    result = run(openai(llm_server).summarize(request()))
    assert result.usage == SummaryUsage(input_tokens=1000, output_tokens=40)


def test_leading_reasoning_is_dropped(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=f"<think>\nLet me see.\n</think>\n\n{SUMMARY}\n"))
    assert run(openai(llm_server).summarize(request())).text == SUMMARY
