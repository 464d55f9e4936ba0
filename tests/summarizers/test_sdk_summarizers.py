"""Both model summarizers over real HTTP to llm_server, with the real ``openai`` and
``anthropic`` SDKs: what holds for either protocol is tested here, once for each.

What only one protocol has is in ``test_openai_client.py`` and ``test_anthropic_client.py``.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from synopsis.errors import SettingsError, SummarizerError
from synopsis.providers._retry import (
    CallFailure,
    CallObserver,
    RetryNotice,
    RetryPolicy,
    is_fatal,
    observe_calls,
)
from synopsis.summarizers.base import Summarizer, SummaryKind, SummaryRequest, SummaryUsage
from synopsis.summarizers.prompts import SYSTEM_PROMPT
from tests.llm_server import LLMServer, Protocol, RecordedRequest, Reply, ToolCall
from tests.summarizers._support import (
    BASE_URL_ENV,
    CONVERSATION,
    KEY_ENV,
    MODEL,
    NO_JITTER,
    SUMMARIZER,
    SUMMARY,
    RecordingSleep,
    base_url,
    closed_port_url,
    request,
    run,
    sent_key,
    summarizer,
)

PATH: dict[Protocol, str] = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}
DESCRIBED: dict[Protocol, str] = {
    "openai": "OpenAI-compatible model 'test-model'",
    "anthropic": "Anthropic model 'claude-test'",
}
"""How an error names the model and its protocol."""
TEMPERATURE_REJECTION: dict[Protocol, str] = {
    "openai": "Unsupported value: 'temperature' does not support 0 with this model. "
    "Only the default (1) value is supported.",
    "anthropic": "`temperature` is deprecated for this model.",
}
"""What each provider says when a model takes no temperature."""


def test_it_is_a_summarizer(llm_server: LLMServer, protocol: Protocol) -> None:
    assert isinstance(summarizer(llm_server, protocol), Summarizer)


def test_request_shape(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    result = run(summarizer(llm_server, protocol).summarize(request(max_tokens=900)))

    assert result.text == SUMMARY
    [sent] = llm_server.requests
    assert sent.method == "POST"
    assert sent.path == PATH[protocol]
    assert sent_key(sent.headers) == "test-key"
    body = sent.body
    assert body["model"] == MODEL[protocol]
    assert body["max_tokens"] == 900
    assert not body.get("stream")
    assert "tools" not in body
    assert sent.system == SYSTEM_PROMPT
    [user] = sent.texts("user")
    assert f"<conversation>\n{CONVERSATION}\n</conversation>" in user


@pytest.mark.parametrize(
    ("requested", "model_limit", "sent"),
    [(900, None, 900), (900, 500, 500), (900, 4096, 900), (900, 8192, 900), (1, 1, 1)],
)
def test_output_limit_is_the_smaller_of_request_and_model(
    llm_server: LLMServer, protocol: Protocol, requested: int, model_limit: int | None, sent: int
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    client = summarizer(llm_server, protocol, max_output_tokens=model_limit)
    run(client.summarize(request(max_tokens=requested)))
    [received] = llm_server.requests
    assert received.body["max_tokens"] == sent
    assert f"must fit in {sent} tokens" in received.texts("user")[0]


def test_update_request_carries_the_previous_summary(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY))
    previous = "## Goal\n订单 A-2024-0815-77\n\n## Constraints & Preferences\n- 不要改收货地址"
    client = summarizer(llm_server, protocol)
    run(client.summarize(request(SummaryKind.UPDATE, previous_summary=previous)))
    user = llm_server.requests[0].texts("user")[0]
    assert f"<previous-summary>\n{previous}\n</previous-summary>" in user


def test_a_model_that_rejects_temperature_is_asked_again_without(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        if "temperature" in sent.body:
            return Reply.error(400, TEMPERATURE_REJECTION[protocol])
        return Reply(text=SUMMARY)

    llm_server.set_default(answer)
    client = summarizer(llm_server, protocol, temperature=0.0)
    assert run(client.summarize(request())).text == SUMMARY
    assert ["temperature" in sent.body for sent in llm_server.requests] == [True, False]
    run(client.summarize(request()))  # remembered: no second rejection
    assert len(llm_server.requests) == 3


def test_other_bad_requests_are_not_retried(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply.error(400, "prompt is too long: 250000 tokens > 200000 maximum"))
    with pytest.raises(SummarizerError, match="prompt is too long"):
        run(summarizer(llm_server, protocol, temperature=0.0).summarize(request()))
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize("reported", [(1234, 56), (2345, 67)])
def test_usage_is_mapped(
    llm_server: LLMServer, protocol: Protocol, reported: tuple[int, int]
) -> None:
    llm_server.enqueue(Reply(text=SUMMARY, usage=reported))
    result = run(summarizer(llm_server, protocol).summarize(request()))
    assert result.usage == SummaryUsage(input_tokens=reported[0], output_tokens=reported[1])


# --- retries --------------------------------------------------------------------------------


@pytest.mark.parametrize("statuses", [(429, 503), (429, 429), (529, 529), (503, 503), (500, 500)])
def test_transient_failures_are_retried_then_succeed(
    llm_server: LLMServer, protocol: Protocol, statuses: tuple[int, int]
) -> None:
    llm_server.enqueue(*(Reply.error(status) for status in statuses), Reply(text=SUMMARY))
    sleep = RecordingSleep()
    result = run(summarizer(llm_server, protocol, sleep).summarize(request()))

    assert result.text == SUMMARY
    sent = llm_server.requests
    assert len(sent) == 3
    assert sent[0].body == sent[1].body == sent[2].body
    assert sleep.delays == [0.5, 1.0]  # exponential backoff, no jitter


@pytest.mark.parametrize(
    ("failures", "delays"),
    [
        (
            (Reply.error(429, retry_after=7), Reply.error(503, headers={"retry-after-ms": "250"})),
            [7.0, 0.25],
        ),
        ((Reply.error(529, "Overloaded", retry_after=3),), [3.0]),
    ],
    ids=["seconds-then-milliseconds", "overloaded"],
)
def test_retry_after_header_is_honoured(
    llm_server: LLMServer, protocol: Protocol, failures: tuple[Reply, ...], delays: list[float]
) -> None:
    llm_server.enqueue(*failures, Reply(text=SUMMARY))
    sleep = RecordingSleep()
    run(summarizer(llm_server, protocol, sleep).summarize(request()))
    assert sleep.delays == delays


@pytest.mark.parametrize(("status", "detail"), [(503, "upstream exploded"), (529, "Overloaded")])
def test_gives_up_after_the_bound(
    llm_server: LLMServer, protocol: Protocol, status: int, detail: str
) -> None:
    llm_server.enqueue(*[Reply.error(status, detail)] * 3, Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server, protocol).summarize(request()))
    message = str(caught.value)
    assert DESCRIBED[protocol] in message
    assert base_url(llm_server, protocol) in message
    assert f"HTTP {status}" in message
    assert detail in message
    assert "3 attempts" in message
    assert len(llm_server.requests) == 3
    assert llm_server.pending == 1


def test_should_retry_header_overrides_the_status(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    llm_server.enqueue(Reply.error(503, headers={"x-should-retry": "false"}), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError, match="HTTP 503"):
        run(summarizer(llm_server, protocol).summarize(request()))
    assert len(llm_server.requests) == 1


def test_too_long_retry_after_fails_at_once(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply.error(429, retry_after=3600), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError, match="wait 3600 s"):
        run(summarizer(llm_server, protocol).summarize(request()))
    assert len(llm_server.requests) == 1


def test_sdk_does_not_retry_on_its_own(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply.error(429), Reply(text=SUMMARY))
    client = summarizer(llm_server, protocol, retry=RetryPolicy(max_attempts=1))
    with pytest.raises(SummarizerError, match="HTTP 429"):
        run(client.summarize(request()))
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("status", "detail", "hint"),
    [
        (401, "invalid x-api-key", None),  # None: the variable the key comes from
        (404, "nope", "model name"),
        (400, "nope", "too long"),
        (403, "nope", "permission"),
    ],
)
def test_client_errors_are_not_retried(
    llm_server: LLMServer, protocol: Protocol, status: int, detail: str, hint: str | None
) -> None:
    llm_server.enqueue(Reply.error(status, detail), Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server, protocol).summarize(request()))
    assert f"HTTP {status}" in str(caught.value)
    assert detail in str(caught.value)
    assert (hint or KEY_ENV[protocol]) in str(caught.value)
    assert len(llm_server.requests) == 1


def test_connection_errors_are_retried_then_reported(protocol: Protocol) -> None:
    url = closed_port_url()
    sleep = RecordingSleep()
    client = SUMMARIZER[protocol](
        MODEL[protocol], base_url=url, api_key="k", retry=NO_JITTER, sleep=sleep
    )
    with pytest.raises(SummarizerError) as caught:
        run(client.summarize(request()))
    assert "could not connect" in str(caught.value)
    assert url in str(caught.value)
    assert "3 attempts" in str(caught.value)
    assert len(sleep.delays) == 2


def test_timeout_is_retried(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text="too late", delay=3.0), Reply(text=SUMMARY))
    client = summarizer(llm_server, protocol, timeout=0.3)
    result = run(client.summarize(request()))
    assert result.text == SUMMARY
    assert len(llm_server.requests) == 2


# --- replies that are not summaries ---------------------------------------------------------

_TOOL_CALL = Reply(tool_calls=[ToolCall("read", {"path": "src/app.py"})])
_TEXT_AND_TOOL_CALL = Reply(
    text=SUMMARY, tool_calls=[ToolCall("bash", {"command": "ls"})], stop="end"
)


@pytest.mark.parametrize(
    ("protocol", "reply", "problem"),
    [
        ("openai", Reply(text="## Goal\nhalf a summ", stop="length"), "output limit of 640"),
        (
            "anthropic",
            Reply(text="## Goal\nhalf a summ", stop="length"),
            "output limit of 640 tokens",
        ),
        (
            "anthropic",
            Reply(text=SUMMARY, stop="model_context_window_exceeded"),
            "cut off",
        ),
        ("openai", _TOOL_CALL, "tool calls"),
        ("anthropic", _TOOL_CALL, "tool calls"),
        ("openai", _TEXT_AND_TOOL_CALL, "tool calls"),
        ("anthropic", _TEXT_AND_TOOL_CALL, "tool calls"),
        ("openai", Reply(text=""), "empty"),
        ("anthropic", Reply(text=""), "empty"),
        ("openai", Reply(text="  \n "), "empty"),
        ("anthropic", Reply(text=" \n"), "empty"),
        ("openai", Reply(text="<think>just thinking</think>"), "empty"),
        ("openai", Reply(text=SUMMARY, stop="content_filter"), "refused"),
        ("anthropic", Reply(text="I can't help with that.", stop="refusal"), "refused"),
    ],
)
def test_unusable_replies_are_rejected_not_retried(
    llm_server: LLMServer, protocol: Protocol, reply: Reply, problem: str
) -> None:
    llm_server.enqueue(reply, Reply(text=SUMMARY))
    with pytest.raises(SummarizerError) as caught:
        run(summarizer(llm_server, protocol).summarize(request(max_tokens=640)))
    assert problem in str(caught.value)
    assert f"'{MODEL[protocol]}'" in str(caught.value)
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("protocol", "limit", "says"),
    [
        ("openai", 777, "output limit of 777 tokens"),
        ("anthropic", 640, "output limit of 640 tokens"),
    ],
)
def test_a_cut_off_reply_names_the_limit(
    llm_server: LLMServer, protocol: Protocol, limit: int, says: str
) -> None:
    llm_server.enqueue(Reply(text="## Goal", stop="length"))
    with pytest.raises(SummarizerError, match=says):
        run(summarizer(llm_server, protocol).summarize(request(max_tokens=limit)))


# --- calls, event loops, cancellation -------------------------------------------------------


def test_parallel_calls_share_a_client(llm_server: LLMServer, protocol: Protocol) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        user = sent.texts("user")[0]
        return Reply(text="prefix summary" if "## Original Request" in user else "history summary")

    llm_server.set_default(answer)
    client = summarizer(llm_server, protocol)

    async def both() -> list[str]:
        results = await asyncio.gather(
            client.summarize(request(SummaryKind.HISTORY)),
            client.summarize(request(SummaryKind.TURN_PREFIX)),
        )
        return [result.text for result in results]

    assert run(both()) == ["history summary", "prefix summary"]
    assert len(llm_server.requests) == 2


def test_one_summarizer_works_across_event_loops(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text="first"), Reply(text="second"))
    client = summarizer(llm_server, protocol)
    assert run(client.summarize(request())).text == "first"
    assert run(client.summarize(request())).text == "second"


def test_cancellation_propagates(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text=SUMMARY, delay=2.0))
    client = summarizer(llm_server, protocol)

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


# --- construction: keys, base URLs, SDKs, limits --------------------------------------------


def test_key_comes_from_the_environment(
    llm_server: LLMServer, protocol: Protocol, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV[protocol], "env-key")
    llm_server.enqueue(Reply(text=SUMMARY))
    url = base_url(llm_server, protocol)
    client = SUMMARIZER[protocol](MODEL[protocol], base_url=url, retry=NO_JITTER)
    run(client.summarize(request()))
    assert sent_key(llm_server.requests[0].headers) == "env-key"


@pytest.mark.parametrize("from_environment", [True, False], ids=["environment", "argument"])
def test_no_key_is_fine_with_a_base_url(
    llm_server: LLMServer,
    protocol: Protocol,
    monkeypatch: pytest.MonkeyPatch,
    from_environment: bool,
) -> None:
    url = base_url(llm_server, protocol)
    llm_server.enqueue(Reply(text=SUMMARY))
    if from_environment:
        monkeypatch.setenv(BASE_URL_ENV[protocol], url)
        client = SUMMARIZER[protocol]("local-model")
    else:
        client = SUMMARIZER[protocol]("local-model", base_url=url)
    assert client.base_url == url
    assert run(client.summarize(request())).text == SUMMARY
    assert sent_key(llm_server.requests[0].headers)  # a placeholder: the server needs none


def test_missing_key_without_base_url_is_a_clear_error(protocol: Protocol) -> None:
    with pytest.raises(SummarizerError, match=KEY_ENV[protocol]):
        SUMMARIZER[protocol](MODEL[protocol])


def test_missing_sdk_says_which_extra(protocol: Protocol, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, protocol, None)
    with pytest.raises(SummarizerError, match=rf"synopsis\[{protocol}\]"):
        SUMMARIZER[protocol](MODEL[protocol], api_key="k")


def test_an_empty_model_name_is_rejected(protocol: Protocol) -> None:
    with pytest.raises(SettingsError, match="summarizer needs a model name"):
        SUMMARIZER[protocol]("", api_key="k")


@pytest.mark.parametrize("bad", [0, -5])
def test_bad_limits_are_rejected(llm_server: LLMServer, protocol: Protocol, bad: int) -> None:
    with pytest.raises(SettingsError):
        summarizer(llm_server, protocol, max_output_tokens=bad)
    with pytest.raises(SettingsError):
        run(
            summarizer(llm_server, protocol).summarize(
                SummaryRequest(SummaryKind.HISTORY, "x", max_tokens=bad)
            )
        )
    assert llm_server.requests == []


class _Watcher(CallObserver):
    def __init__(self) -> None:
        self.retries: list[tuple[int | None, int, float]] = []
        self.failures: list[tuple[int | None, bool]] = []

    def retrying(self, notice: RetryNotice) -> None:
        self.retries.append((notice.failure.status, notice.attempt, notice.wait))

    def failed(self, error: SummarizerError, failure: CallFailure) -> None:
        self.failures.append((failure.status, is_fatal(failure)))


def test_an_observer_hears_each_retry_and_the_final_failure(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    """The hook the CLI's status line uses: the library itself prints nothing."""
    llm_server.enqueue(Reply.error(529), Reply.error(503), Reply(text=SUMMARY))
    watcher = _Watcher()
    with observe_calls(watcher):
        run(summarizer(llm_server, protocol, RecordingSleep()).summarize(request()))
        assert watcher.retries == [(529, 1, 0.5), (503, 2, 1.0)]
        assert watcher.failures == []
        llm_server.enqueue(Reply.error(401, "bad key"))
        with pytest.raises(SummarizerError):
            run(summarizer(llm_server, protocol, RecordingSleep()).summarize(request()))
    assert watcher.failures == [(401, True)]
    llm_server.enqueue(Reply.error(401))
    with pytest.raises(SummarizerError):  # outside the block: nobody is told
        run(summarizer(llm_server, protocol, RecordingSleep()).summarize(request()))
    assert watcher.failures == [(401, True)]
