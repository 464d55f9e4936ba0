"""The Anthropic summarizer: the real ``anthropic`` SDK over real HTTP to llm_server."""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Mapping

import anthropic
import pytest

from synopsis.errors import SettingsError, SummarizerError
from synopsis.summarizers.anthropic_client import AnthropicSummarizer, RetryPolicy
from synopsis.summarizers.base import Summarizer, SummaryKind, SummaryUsage
from synopsis.summarizers.prompts import SYSTEM_PROMPT
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall
from tests.summarizers._support import (
    CONVERSATION,
    RecordingSleep,
    closed_port_url,
    request,
    run,
)

SUMMARY = "## Goal\n查询订单 A-2024-0815-77 的物流\n\n## Critical Context\n- SF1234567890"
NO_JITTER = RetryPolicy(max_attempts=3, base_delay=0.5, max_delay=10.0, jitter=0.0)

_ENVIRONMENT = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_PROFILE",
    "ANTHROPIC_CONFIG_DIR",
    "ANTHROPIC_CUSTOM_HEADERS",
    "ANTHROPIC_IDENTITY_TOKEN",
    "ANTHROPIC_IDENTITY_TOKEN_FILE",
)


@pytest.fixture(autouse=True)
def _no_anthropic_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    for name in _ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    # No profile on disk can be picked up either.
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path_factory.mktemp("anthropic-config")))


def sent_key(headers: Mapping[str, str]) -> str | None:
    """The API key a request carried: ``x-api-key``, or a bearer token in newer SDKs."""
    if "x-api-key" in headers:
        return headers["x-api-key"]
    authorization = headers.get("authorization", "")
    return authorization.removeprefix("Bearer ") if authorization.startswith("Bearer ") else None


def sdk_has_temperature() -> bool:
    create = anthropic.resources.messages.AsyncMessages.create
    return "temperature" in inspect.signature(create).parameters


def summarizer(
    server: LLMServer,
    sleep: RecordingSleep | None = None,
    *,
    retry: RetryPolicy = NO_JITTER,
    **options: object,
) -> AnthropicSummarizer:
    options.setdefault("api_key", "test-key")
    return AnthropicSummarizer(
        "claude-test",
        base_url=server.anthropic_url,
        retry=retry,
        sleep=sleep or RecordingSleep(),
        **options,  # type: ignore[arg-type]
    )


def test_it_is_a_summarizer(llm_server: LLMServer) -> None:
    assert isinstance(summarizer(llm_server), Summarizer)


def test_request_shape(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    result = run(summarizer(llm_server).summarize(request(max_tokens=900)))

    assert result.text == SUMMARY
    [sent] = llm_server.requests
    assert sent.method == "POST"
    assert sent.path == "/v1/messages"
    assert sent_key(sent.headers) == "test-key"
    assert "anthropic-version" in sent.headers
    body = sent.body
    assert body["model"] == "claude-test"
    # 0 where the SDK's API version has sampling parameters; absent where it has none.
    assert body.get("temperature") == (0 if sdk_has_temperature() else None)
    assert body["max_tokens"] == 900
    assert body["system"] == SYSTEM_PROMPT
    assert not body.get("stream")
    assert "tools" not in body
    assert [message["role"] for message in body["messages"]] == ["user"]
    [user] = sent.texts("user")
    assert f"<conversation>\n{CONVERSATION}\n</conversation>" in user


@pytest.mark.parametrize(("temperature", "sent"), [(0.0, 0), (0.3, 0.3), (None, None)])
def test_explicit_temperature(
    llm_server: LLMServer, temperature: float | None, sent: float | None
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    run(summarizer(llm_server, temperature=temperature).summarize(request()))
    assert llm_server.requests[0].body.get("temperature") == sent


def test_a_model_that_rejects_temperature_is_asked_again_without(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        if "temperature" in sent.body:
            return Reply.error(400, "`temperature` is deprecated for this model.")
        return Reply(text=SUMMARY)

    llm_server.set_default(answer)
    client = summarizer(llm_server, temperature=0.0)
    assert run(client.summarize(request())).text == SUMMARY
    assert ["temperature" in sent.body for sent in llm_server.requests] == [True, False]
    run(client.summarize(request()))  # remembered: no second rejection
    assert len(llm_server.requests) == 3


def test_other_bad_requests_are_not_retried(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(400, "prompt is too long: 250000 tokens > 200000 maximum"))
    with pytest.raises(SummarizerError, match="prompt is too long"):
        run(summarizer(llm_server, temperature=0.0).summarize(request()))
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("requested", "model_limit", "sent"), [(900, None, 900), (900, 500, 500), (900, 8192, 900)]
)
def test_output_limit_is_the_smaller_of_request_and_model(
    llm_server: LLMServer, requested: int, model_limit: int | None, sent: int
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    run(
        summarizer(llm_server, max_output_tokens=model_limit).summarize(
            request(max_tokens=requested)
        )
    )
    assert llm_server.requests[0].body["max_tokens"] == sent


def test_update_request_carries_the_previous_summary(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    previous = "## Goal\n订单 A-2024-0815-77\n\n## Constraints & Preferences\n- 不要改收货地址"
    run(summarizer(llm_server).summarize(request(SummaryKind.UPDATE, previous_summary=previous)))
    user = llm_server.requests[0].texts("user")[0]
    assert f"<previous-summary>\n{previous}\n</previous-summary>" in user


def test_usage_is_mapped_with_cached_input(llm_server: LLMServer) -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "text", "text": SUMMARY}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 100,
            "output_tokens": 42,
            "cache_creation_input_tokens": 1000,
            "cache_read_input_tokens": 20,
        },
    }
    llm_server.enqueue(Reply(body=body))
    result = run(summarizer(llm_server).summarize(request()))
    assert result.usage == SummaryUsage(input_tokens=1120, output_tokens=42)


def test_usage_is_mapped(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY, usage=(2345, 67)))
    result = run(summarizer(llm_server).summarize(request()))
    assert result.usage == SummaryUsage(input_tokens=2345, output_tokens=67)


def test_text_blocks_are_joined_and_thinking_ignored(llm_server: LLMServer) -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [
            {"type": "thinking", "thinking": "let me think", "signature": "sig"},
            {"type": "text", "text": "## Goal\nA"},
            {"type": "text", "text": "## Next Steps\n1. B"},
        ],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    llm_server.enqueue(Reply(body=body))
    assert (
        run(summarizer(llm_server).summarize(request())).text == "## Goal\nA\n## Next Steps\n1. B"
    )


@pytest.mark.parametrize("status", [429, 529, 503, 500])
def test_retries_transient_statuses_then_succeeds(llm_server: LLMServer, status: int) -> None:
    llm_server.enqueue(Reply.error(status), Reply.error(status), Reply(text=SUMMARY))
    sleep = RecordingSleep()
    result = run(summarizer(llm_server, sleep).summarize(request()))
    assert result.text == SUMMARY
    assert len(llm_server.requests) == 3
    assert sleep.delays == [0.5, 1.0]


def test_retry_after_header_is_honoured(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(529, "Overloaded", retry_after=3), Reply(text=SUMMARY))
    sleep = RecordingSleep()
    run(summarizer(llm_server, sleep).summarize(request()))
    assert sleep.delays == [3.0]


def test_gives_up_after_the_bound(llm_server: LLMServer) -> None:
    llm_server.enqueue(*[Reply.error(529, "Overloaded")] * 3, Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server).summarize(request()))
    message = str(caught.value)
    assert "Anthropic model 'claude-test'" in message
    assert llm_server.anthropic_url in message
    assert "HTTP 529" in message
    assert "Overloaded" in message
    assert "3 attempts" in message
    assert len(llm_server.requests) == 3


def test_should_retry_header_overrides_the_status(llm_server: LLMServer) -> None:
    llm_server.enqueue(
        Reply.error(503, headers={"x-should-retry": "false"}),
        Reply(text=SUMMARY),
    )
    with pytest.raises(SummarizerError, match="HTTP 503"):
        run(summarizer(llm_server).summarize(request()))
    assert len(llm_server.requests) == 1


def test_authentication_error_is_not_retried(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(401, "invalid x-api-key"), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server).summarize(request()))
    assert "HTTP 401" in str(caught.value)
    assert "invalid x-api-key" in str(caught.value)
    assert "ANTHROPIC_API_KEY" in str(caught.value)
    assert len(llm_server.requests) == 1


def test_connection_errors_are_retried_then_reported() -> None:
    url = closed_port_url()
    sleep = RecordingSleep()
    client = AnthropicSummarizer(
        "claude-test", base_url=url, api_key="k", retry=NO_JITTER, sleep=sleep
    )
    with pytest.raises(SummarizerError, match="could not connect") as caught:
        run(client.summarize(request()))
    assert url in str(caught.value)
    assert len(sleep.delays) == 2


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (Reply(text="## Goal\nhalf a summ", stop="length"), "stop_reason 'max_tokens'"),
        (Reply(text=SUMMARY, stop="model_context_window_exceeded"), "before it was complete"),
        (Reply(tool_calls=[ToolCall("read", {"path": "src/app.py"})]), "tool calls"),
        (
            Reply(text=SUMMARY, tool_calls=[ToolCall("bash", {"command": "ls"})], stop="end"),
            "tool calls",
        ),
        (Reply(text=""), "empty"),
        (Reply(text=" \n"), "empty"),
        (Reply(text="I can't help with that.", stop="refusal"), "refused"),
    ],
)
def test_unusable_replies_are_rejected_not_retried(
    llm_server: LLMServer, reply: Reply, problem: str
) -> None:
    llm_server.enqueue(reply, Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server).summarize(request(max_tokens=640)))
    assert problem in str(caught.value)
    assert "'claude-test'" in str(caught.value)
    assert len(llm_server.requests) == 1


def test_truncation_error_names_the_limit(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="## Goal", stop="length"))
    with pytest.raises(SummarizerError, match="output limit 640 tokens"):
        run(summarizer(llm_server).summarize(request(max_tokens=640)))


def test_parallel_calls(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        user = sent.texts("user")[0]
        return Reply(text="prefix summary" if "## Original Request" in user else "history summary")

    llm_server.set_default(answer)
    client = summarizer(llm_server)

    async def both() -> list[str]:
        results = await asyncio.gather(
            client.summarize(request(SummaryKind.TURN_PREFIX)),
            client.summarize(request(SummaryKind.HISTORY)),
        )
        return [result.text for result in results]

    assert run(both()) == ["prefix summary", "history summary"]


def test_key_comes_from_the_environment(
    llm_server: LLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "env-key")
    llm_server.enqueue(Reply(text=SUMMARY))
    client = AnthropicSummarizer("claude-test", base_url=llm_server.anthropic_url)
    run(client.summarize(request()))
    assert sent_key(llm_server.requests[0].headers) == "env-key"


def test_no_key_is_fine_with_a_base_url(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    client = AnthropicSummarizer("claude-test", base_url=llm_server.anthropic_url)
    assert run(client.summarize(request())).text == SUMMARY


def test_missing_key_without_base_url_is_a_clear_error() -> None:
    with pytest.raises(SummarizerError, match="ANTHROPIC_API_KEY"):
        AnthropicSummarizer("claude-test")


def test_missing_sdk_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    with pytest.raises(SummarizerError, match=r"synopsis\[anthropic\]"):
        AnthropicSummarizer("claude-test", api_key="k")


def test_bad_model_limit_is_rejected() -> None:
    with pytest.raises(SettingsError):
        AnthropicSummarizer("claude-test", api_key="k", max_output_tokens=0)
