"""Both chat models over real HTTP to llm_server, with the real ``openai`` and ``anthropic``
SDKs: what holds for either protocol (identity, failures as replies, retries, cancellation,
construction) is tested here, once for each.

Each protocol's own conversion and reply reading is in ``test_loop_openai.py`` and
``test_loop_anthropic.py``.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.events import AgentError
from synopsis.agent.session import AgentSession
from synopsis.errors import SettingsError, SynopsisError
from synopsis.providers._retry import RetryPolicy
from synopsis.providers.base import ChatModel, ChatRequest
from synopsis.providers.overflow import is_context_overflow
from tests.agent._support import (
    CHAT_MODEL,
    KEY_ENV,
    MODEL,
    PROTOCOLS,
    Events,
    Protocol,
    RecordingSleep,
    ask,
    base_url,
    chat_model,
    clear_environment,
    file_messages,
    new_session,
    run,
    user,
)
from tests.llm_server import LLMServer, Reply

OVERFLOW: dict[Protocol, str] = {
    "openai": "This model's maximum context length is 8192 tokens. However, your messages "
    "resulted in 9001 tokens. Please reduce the length of the messages.",
    "anthropic": "prompt is too long: 213462 tokens > 200000 maximum",
}
"""How each provider rejects a prompt longer than the model's window."""
UNREADABLE: dict[Protocol, Any] = {
    "openai": ["not", "a", "completion"],
    "anthropic": {"choices": []},
}
"""A 200 body that is not a reply of the protocol (what a misconfigured proxy sends)."""


@pytest.fixture(autouse=True)
def _no_provider_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_environment(monkeypatch, *PROTOCOLS)


@pytest.fixture(params=PROTOCOLS)
def protocol(request: pytest.FixtureRequest) -> Protocol:
    value: Protocol = request.param
    return value


def test_it_is_a_chat_model(llm_server: LLMServer, protocol: Protocol) -> None:
    built = chat_model(llm_server, protocol, context_window=32_000)
    assert isinstance(built, ChatModel)
    assert (built.provider, built.model_id, built.context_window) == (
        protocol,
        MODEL[protocol],
        32_000,
    )
    assert repr(built) == (
        f"{CHAT_MODEL[protocol].__name__}(model={MODEL[protocol]!r}, "
        f"base_url={base_url(llm_server, protocol)!r}, context_window=32000)"
    )


# --- failures are replies -------------------------------------------------------------------


def test_overflow_is_returned_and_not_retried(llm_server: LLMServer, protocol: Protocol) -> None:
    sleep = RecordingSleep()
    llm_server.enqueue(Reply.error(400, OVERFLOW[protocol]), Reply(text="never sent"))
    reply = ask(llm_server, protocol, sleep=sleep, context_window=8192)
    assert (reply["stopReason"], reply["errorMessage"]) == ("error", OVERFLOW[protocol])
    assert reply["content"] == []
    assert is_context_overflow(reply, 8192)
    assert len(llm_server.requests) == 1
    assert sleep.delays == []


@pytest.mark.parametrize(
    ("failures", "delays"),
    [
        (
            (
                Reply.error(429, "Rate limit reached: too many tokens per minute"),
                Reply.error(500, "upstream hiccup"),
            ),
            [0.5, 1.0],
        ),
        ((Reply.error(529, "Overloaded"),), [0.5]),
    ],
    ids=["rate-limit-then-server-error", "overloaded"],
)
def test_rate_limits_and_overload_are_retried_with_backoff(
    llm_server: LLMServer, protocol: Protocol, failures: tuple[Reply, ...], delays: list[float]
) -> None:
    sleep = RecordingSleep()
    llm_server.enqueue(*failures, Reply(text="finally"))
    reply = ask(llm_server, protocol, sleep=sleep)
    assert reply["stopReason"] == "stop"
    assert reply["content"] == [{"type": "text", "text": "finally"}]
    assert sleep.delays == delays
    assert len(llm_server.requests) == len(failures) + 1


def test_exhausted_retries_return_the_servers_words(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    sleep = RecordingSleep()
    llm_server.enqueue(*[Reply.error(502, "bad gateway today")] * 3)
    reply = ask(llm_server, protocol, sleep=sleep)
    assert reply["stopReason"] == "error"
    assert reply["errorMessage"] == "bad gateway today"
    assert not is_context_overflow(reply)
    assert len(llm_server.requests) == 3
    assert len(sleep.delays) == 2


def test_bodyless_rejection_is_worded_as_overflow_detection_expects(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    llm_server.enqueue(Reply(status=413, body=""))
    reply = ask(llm_server, protocol)
    assert reply["errorMessage"] == "413 status code (no body)"
    # a bare 413 is an overflow from any provider; a bare 400 only from Cerebras
    assert is_context_overflow(reply)
    bare_400 = {**reply, "errorMessage": "400 status code (no body)"}
    assert not is_context_overflow(bare_400)
    assert is_context_overflow({**bare_400, "provider": "cerebras"})


def test_connection_error_is_a_reply_not_an_exception(protocol: Protocol) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleep = RecordingSleep()
    broken = CHAT_MODEL[protocol](
        "m",
        context_window=1000,
        base_url=f"http://127.0.0.1:{port}/v1",
        retry=RetryPolicy(max_attempts=2, jitter=0.0),
        sleep=sleep,
    )
    reply = run(broken.complete(ChatRequest(None, [user("hi")])))
    assert reply["stopReason"] == "error"
    assert reply["errorMessage"].startswith("Connection error")
    assert len(sleep.delays) == 1


def test_timeout_is_a_reply(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text="late", delay=2.0))
    reply = ask(llm_server, protocol, timeout=0.2, retry=RetryPolicy(max_attempts=1))
    assert (reply["stopReason"], reply["errorMessage"]) == ("error", "Request timed out")


def test_a_reply_in_another_format_is_an_error_reply(
    llm_server: LLMServer, protocol: Protocol
) -> None:
    llm_server.enqueue(Reply(body=UNREADABLE[protocol]))
    reply = ask(llm_server, protocol)
    assert reply["stopReason"] == "error"
    assert reply["errorMessage"].startswith("the server's reply is not in the expected format")


def test_cancellation_propagates(llm_server: LLMServer, protocol: Protocol) -> None:
    llm_server.enqueue(Reply(text="late", delay=3.0))
    slow = chat_model(llm_server, protocol)

    async def scenario() -> None:
        task = asyncio.ensure_future(slow.complete(ChatRequest(None, [user("hi")])))
        while not llm_server.requests:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(scenario())


def test_an_error_reply_ends_the_run_with_an_error_event(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    llm_server.enqueue(Reply.error(401, "invalid api key"))
    session = new_session(tmp_path)
    events = Events()
    agent = AgentSession(session, chat_model(llm_server, protocol), tools=[])
    agent.subscribe(events)
    reply = run(agent.prompt("hello"))
    assert reply is not None and reply["stopReason"] == "error"
    assert [e.message for e in events.of(AgentError)] == ["invalid api key"]
    assert [m["role"] for m in file_messages(session)] == ["user", "assistant"]


# --- construction ---------------------------------------------------------------------------


def test_construction_errors(llm_server: LLMServer, protocol: Protocol) -> None:
    make = CHAT_MODEL[protocol]
    url = base_url(llm_server, protocol)
    for window in (0, -5):
        with pytest.raises(SettingsError, match="context_window"):
            make("m", context_window=window, base_url=url)
    with pytest.raises(SettingsError, match="chat model needs a model name"):
        make("", context_window=10, base_url=url)
    with pytest.raises(SettingsError, match="max_output_tokens"):
        make("m", context_window=5, base_url=url, max_output_tokens=0)
    with pytest.raises(SynopsisError, match=KEY_ENV[protocol]):
        make("m", context_window=10)
