"""The OpenAI-compatible summarizer: the real ``openai`` SDK over real HTTP to llm_server."""

from __future__ import annotations

import asyncio
import sys

import pytest

from synopsis.errors import SettingsError, SummarizerError
from synopsis.summarizers.base import Summarizer, SummaryKind, SummaryRequest, SummaryUsage
from synopsis.summarizers.openai_client import OpenAISummarizer, RetryPolicy
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


@pytest.fixture(autouse=True)
def _no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)


def summarizer(
    server: LLMServer,
    sleep: RecordingSleep | None = None,
    *,
    retry: RetryPolicy = NO_JITTER,
    **options: object,
) -> OpenAISummarizer:
    options.setdefault("api_key", "test-key")
    return OpenAISummarizer(
        "test-model",
        base_url=server.openai_url,
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
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer test-key"
    body = sent.body
    assert body["model"] == "test-model"
    assert body["temperature"] == 0
    assert body["max_tokens"] == 900
    assert "max_completion_tokens" not in body
    assert not body.get("stream")
    assert "tools" not in body
    assert [message["role"] for message in body["messages"]] == ["system", "user"]
    assert sent.system == SYSTEM_PROMPT
    [user] = sent.texts("user")
    assert f"<conversation>\n{CONVERSATION}\n</conversation>" in user


@pytest.mark.parametrize(
    ("requested", "model_limit", "sent"),
    [(900, None, 900), (900, 500, 500), (900, 4096, 900), (1, 1, 1)],
)
def test_output_limit_is_the_smaller_of_request_and_model(
    llm_server: LLMServer, requested: int, model_limit: int | None, sent: int
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    client = summarizer(llm_server, max_output_tokens=model_limit)
    run(client.summarize(request(max_tokens=requested)))
    [received] = llm_server.requests
    assert received.body["max_tokens"] == sent
    assert f"must fit in {sent} tokens" in received.texts("user")[0]


def test_max_completion_tokens_parameter_and_omitted_temperature(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    client = summarizer(llm_server, max_tokens_parameter="max_completion_tokens", temperature=None)
    run(client.summarize(request(max_tokens=321)))
    body = llm_server.requests[0].body
    assert body["max_completion_tokens"] == 321
    assert "max_tokens" not in body
    assert "temperature" not in body


def test_a_model_that_rejects_temperature_is_asked_again_without(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        if "temperature" in sent.body:
            return Reply.error(
                400,
                "Unsupported value: 'temperature' does not support 0 with this model. "
                "Only the default (1) value is supported.",
            )
        return Reply(text=SUMMARY)

    llm_server.set_default(answer)
    client = summarizer(llm_server)
    assert run(client.summarize(request())).text == SUMMARY
    assert ["temperature" in sent.body for sent in llm_server.requests] == [True, False]
    run(client.summarize(request()))  # remembered: no second rejection
    assert len(llm_server.requests) == 3


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
    assert run(summarizer(llm_server).summarize(request(max_tokens=500))).text == SUMMARY
    first, second = llm_server.requests
    assert first.body["max_tokens"] == 500
    assert second.body["max_completion_tokens"] == 500
    assert "max_tokens" not in second.body


def test_a_parameter_is_adapted_only_once(llm_server: LLMServer) -> None:
    llm_server.set_default(Reply.error(400, "'max_tokens' is not supported, nor is the other"))
    with pytest.raises(SummarizerError, match="HTTP 400"):
        run(summarizer(llm_server).summarize(request()))
    assert len(llm_server.requests) == 2


def test_openai_default_base_url_uses_max_completion_tokens() -> None:
    client = OpenAISummarizer("gpt-4o-mini", api_key="k")
    assert client.base_url == "https://api.openai.com/v1"
    assert client.max_tokens_parameter == "max_completion_tokens"


def test_usage_is_mapped(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY, usage=(1234, 56)))
    result = run(summarizer(llm_server).summarize(request()))
    assert result.usage == SummaryUsage(input_tokens=1234, output_tokens=56)


def test_missing_usage_counts_zero(llm_server: LLMServer) -> None:
    body = {
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
    llm_server.enqueue(Reply(body=body))
    result = run(summarizer(llm_server).summarize(request()))
    assert result.text == SUMMARY
    assert result.usage == SummaryUsage()


def test_retries_429_and_503_then_succeeds(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(429), Reply.error(503), Reply(text=SUMMARY))
    sleep = RecordingSleep()
    result = run(summarizer(llm_server, sleep).summarize(request()))

    assert result.text == SUMMARY
    sent = llm_server.requests
    assert len(sent) == 3
    assert sent[0].body == sent[1].body == sent[2].body
    assert sleep.delays == [0.5, 1.0]  # exponential backoff, no jitter


def test_retry_after_header_is_honoured(llm_server: LLMServer) -> None:
    llm_server.enqueue(
        Reply.error(429, retry_after=7),
        Reply.error(503, headers={"retry-after-ms": "250"}),
        Reply(text=SUMMARY),
    )
    sleep = RecordingSleep()
    run(summarizer(llm_server, sleep).summarize(request()))
    assert sleep.delays == [7.0, 0.25]


def test_gives_up_after_the_bound(llm_server: LLMServer) -> None:
    llm_server.enqueue(*[Reply.error(503, "upstream exploded")] * 3, Reply(text=SUMMARY))
    client = summarizer(llm_server)
    with pytest.raises(SummarizerError) as caught:
        run(client.summarize(request()))
    message = str(caught.value)
    assert "'test-model'" in message
    assert llm_server.openai_url in message
    assert "HTTP 503" in message
    assert "upstream exploded" in message
    assert "3 attempts" in message
    assert len(llm_server.requests) == 3
    assert llm_server.pending == 1


def test_too_long_retry_after_fails_at_once(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(429, retry_after=3600), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError, match="wait 3600 s"):
        run(summarizer(llm_server).summarize(request()))
    assert len(llm_server.requests) == 1


def test_sdk_does_not_retry_on_its_own(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(429), Reply(text=SUMMARY))
    client = summarizer(llm_server, retry=RetryPolicy(max_attempts=1))
    with pytest.raises(SummarizerError, match="HTTP 429"):
        run(client.summarize(request()))
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("status", "hint"),
    [(401, "OPENAI_API_KEY"), (404, "model name"), (400, "too long"), (403, "permission")],
)
def test_client_errors_are_not_retried(llm_server: LLMServer, status: int, hint: str) -> None:
    llm_server.enqueue(Reply.error(status, "nope"), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server).summarize(request()))
    assert f"HTTP {status}" in str(caught.value)
    assert hint in str(caught.value)
    assert len(llm_server.requests) == 1


def test_connection_errors_are_retried_then_reported() -> None:
    url = closed_port_url()
    sleep = RecordingSleep()
    client = OpenAISummarizer("test-model", base_url=url, api_key="k", retry=NO_JITTER, sleep=sleep)
    with pytest.raises(SummarizerError) as caught:
        run(client.summarize(request()))
    assert "could not connect" in str(caught.value)
    assert url in str(caught.value)
    assert "3 attempts" in str(caught.value)
    assert len(sleep.delays) == 2


def test_timeout_is_retried(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="too late", delay=3.0), Reply(text=SUMMARY))
    client = summarizer(llm_server, timeout=0.3)
    result = run(client.summarize(request()))
    assert result.text == SUMMARY
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (Reply(text="## Goal\nhalf a summ", stop="length"), "finish_reason 'length'"),
        (Reply(tool_calls=[ToolCall("read", {"path": "src/app.py"})]), "tool calls"),
        (
            Reply(text=SUMMARY, tool_calls=[ToolCall("bash", {"command": "ls"})], stop="end"),
            "tool calls",
        ),
        (Reply(text=""), "empty"),
        (Reply(text="  \n "), "empty"),
        (Reply(text="<think>just thinking</think>"), "empty"),
        (Reply(text=SUMMARY, stop="content_filter"), "refused"),
    ],
)
def test_unusable_replies_are_rejected_not_retried(
    llm_server: LLMServer, reply: Reply, problem: str
) -> None:
    llm_server.enqueue(reply, Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server).summarize(request(max_tokens=777)))
    assert problem in str(caught.value)
    assert "'test-model'" in str(caught.value)
    assert len(llm_server.requests) == 1


def test_length_error_names_the_limit(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="## Goal", stop="length"))
    with pytest.raises(SummarizerError, match="output limit of 777 tokens"):
        run(summarizer(llm_server).summarize(request(max_tokens=777)))


def test_leading_reasoning_is_dropped(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=f"<think>\nLet me see.\n</think>\n\n{SUMMARY}\n"))
    assert run(summarizer(llm_server).summarize(request())).text == SUMMARY


def test_parallel_calls_share_a_client(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        user = sent.texts("user")[0]
        return Reply(text="prefix summary" if "## Original Request" in user else "history summary")

    llm_server.set_default(answer)
    client = summarizer(llm_server)

    async def both() -> list[str]:
        results = await asyncio.gather(
            client.summarize(request(SummaryKind.HISTORY)),
            client.summarize(request(SummaryKind.TURN_PREFIX)),
        )
        return [result.text for result in results]

    assert run(both()) == ["history summary", "prefix summary"]
    assert len(llm_server.requests) == 2


def test_one_summarizer_works_across_event_loops(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="first"), Reply(text="second"))
    client = summarizer(llm_server)
    assert run(client.summarize(request())).text == "first"
    assert run(client.summarize(request())).text == "second"


def test_cancellation_propagates(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text=SUMMARY, delay=2.0))
    client = summarizer(llm_server)

    async def cancel_mid_call() -> None:
        task = asyncio.create_task(client.summarize(request()))
        for _ in range(500):
            if llm_server.requests:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        run(cancel_mid_call())


def test_key_comes_from_the_environment(
    llm_server: LLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "env-key")
    llm_server.enqueue(Reply(text=SUMMARY))
    client = OpenAISummarizer("test-model", base_url=llm_server.openai_url, retry=NO_JITTER)
    run(client.summarize(request()))
    assert llm_server.requests[0].headers["authorization"] == "Bearer env-key"


def test_base_url_from_the_environment_and_no_key(
    llm_server: LLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_url)
    llm_server.enqueue(Reply(text=SUMMARY))
    client = OpenAISummarizer("local-model")
    assert client.base_url == llm_server.openai_url
    assert run(client.summarize(request())).text == SUMMARY
    assert llm_server.requests[0].headers["authorization"].startswith("Bearer ")


def test_missing_key_without_base_url_is_a_clear_error() -> None:
    with pytest.raises(SummarizerError, match="OPENAI_API_KEY"):
        OpenAISummarizer("gpt-4o-mini")


def test_missing_sdk_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(SummarizerError, match=r"synopsis\[openai\]"):
        OpenAISummarizer("gpt-4o-mini", api_key="k")


@pytest.mark.parametrize("bad", [0, -5])
def test_bad_limits_are_rejected(llm_server: LLMServer, bad: int) -> None:
    with pytest.raises(SettingsError):
        summarizer(llm_server, max_output_tokens=bad)
    with pytest.raises(SettingsError):
        run(
            summarizer(llm_server).summarize(
                SummaryRequest(SummaryKind.HISTORY, "x", max_tokens=bad)
            )
        )
    assert llm_server.requests == []
