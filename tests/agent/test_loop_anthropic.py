"""The Anthropic chat model: the real ``anthropic`` SDK over real HTTP to llm_server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.anthropic_model import AnthropicChatModel, to_anthropic_messages
from synopsis.agent.model import ChatModel, ChatRequest, Tool
from synopsis.agent.overflow import is_context_overflow
from synopsis.agent.session import AgentSession
from synopsis.errors import SettingsError, SynopsisError
from tests.agent._support import (
    SYSTEM_PROMPT,
    RecordingSleep,
    assert_wire_paired,
    chat_model,
    file_messages,
    file_tool,
    new_session,
    run,
)
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall


@pytest.fixture(autouse=True)
def _no_anthropic_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def model(server: LLMServer, **options: Any) -> AnthropicChatModel:
    built = chat_model(server, "anthropic", **options)
    assert isinstance(built, AnthropicChatModel)
    return built


def user(text: str) -> Any:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def ask(server: LLMServer, **options: Any) -> Any:
    return run(model(server, **options).complete(ChatRequest("sys", [user("hi")])))


def test_it_is_a_chat_model(llm_server: LLMServer) -> None:
    built = model(llm_server, context_window=100_000)
    assert isinstance(built, ChatModel)
    assert (built.provider, built.model_id, built.context_window) == (
        "anthropic",
        "claude-test",
        100_000,
    )


def test_tool_loop_merges_the_results_of_one_turn(llm_server: LLMServer, tmp_path: Path) -> None:
    files = {"a.py": "A = 1", "b.py": "B = 2"}

    def answer(request: RecordedRequest) -> Reply:
        results = request.messages[-1]["content"]
        texts = [block["content"][0]["text"] for block in results]
        return Reply(text=" and ".join(texts))

    llm_server.enqueue(
        Reply(
            text="Reading both.",
            tool_calls=[
                ToolCall("read", {"path": "a.py"}, "toolu_a"),
                ToolCall("read", {"path": "b.py"}, "toolu_b"),
                ToolCall("read", {"path": "missing.py"}, "toolu_c"),
            ],
        ),
        answer,
    )
    session = new_session(tmp_path)
    agent = AgentSession(
        session, model(llm_server), tools=[file_tool(files)], system_prompt=SYSTEM_PROMPT
    )
    final = run(agent.prompt("Read a.py and b.py"))

    assert final is not None
    assert final["content"][0]["text"].startswith("A = 1 and B = 2 and KeyError")
    stored = file_messages(session)
    assert [m["role"] for m in stored] == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "toolResult",
        "assistant",
    ]
    assert stored[1]["api"] == "anthropic-messages"
    assert stored[1]["provider"] == "anthropic"
    assert stored[1]["stopReason"] == "toolUse"
    assert [m["isError"] for m in stored[2:5]] == [False, False, True]

    first, second = llm_server.requests
    assert first.path == "/v1/messages"
    assert first.system == SYSTEM_PROMPT
    assert first.body["max_tokens"] == 4096
    assert first.tools == [
        {
            "name": "read",
            "description": "Read a file of the project.",
            "input_schema": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        }
    ]
    assert [m["role"] for m in second.messages] == ["user", "assistant", "user"]
    assistant = second.messages[1]["content"]
    assert assistant[0] == {"type": "text", "text": "Reading both."}
    assert assistant[1] == {
        "type": "tool_use",
        "id": "toolu_a",
        "name": "read",
        "input": {"path": "a.py"},
    }
    results = second.messages[2]["content"]
    assert [block["tool_use_id"] for block in results] == ["toolu_a", "toolu_b", "toolu_c"]
    assert results[0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_a",
        "content": [{"type": "text", "text": "A = 1"}],
    }
    assert results[2]["is_error"] is True
    assert_wire_paired(second)


def test_conversion_merges_roles_and_drops_what_cannot_be_sent() -> None:
    image = {"type": "image", "data": "aGk=", "mimeType": "image/jpeg"}
    messages: list[Any] = [
        {"role": "user", "content": "first"},
        {"role": "user", "content": [{"type": "text", "text": "second"}, image]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "private", "thinkingSignature": "sig"},
                {"type": "toolCall", "id": "t1", "name": "shot", "arguments": {}},
            ],
        },
        {
            "role": "toolResult",
            "toolCallId": "t1",
            "toolName": "shot",
            "content": [image],
            "isError": False,
        },
        {"role": "user", "content": "after the result"},
        {"role": "assistant", "content": [{"type": "text", "text": ""}]},
        {"role": "user", "content": "again"},
    ]
    assert to_anthropic_messages(messages) == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "first"},
                {"type": "text", "text": "second"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/jpeg", "data": "aGk="},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "shot", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [
                        {
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": "image/jpeg",
                                "data": "aGk=",
                            },
                        }
                    ],
                },
                {"type": "text", "text": "after the result"},
                {"type": "text", "text": "again"},
            ],
        },
    ]


def message_body(content: list[Any], stop: str, usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }


def test_usage_keeps_cache_reads_and_writes(llm_server: LLMServer) -> None:
    usage = {
        "input_tokens": 120,
        "output_tokens": 30,
        "cache_read_input_tokens": 5000,
        "cache_creation_input_tokens": 700,
    }
    content = [
        {"type": "thinking", "thinking": "let me think", "signature": "sig-1"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "text", "text": "answer"},
    ]
    llm_server.enqueue(Reply(body=message_body(content, "end_turn", usage)))
    reply = ask(llm_server)
    assert reply["usage"] == {
        "input": 120,
        "output": 30,
        "cacheRead": 5000,
        "cacheWrite": 700,
        "totalTokens": 5850,
    }
    assert reply["content"] == [
        {"type": "thinking", "thinking": "let me think", "thinkingSignature": "sig-1"},
        {"type": "thinking", "thinking": "", "thinkingSignature": "opaque", "redacted": True},
        {"type": "text", "text": "answer"},
    ]
    assert reply["stopReason"] == "stop"


@pytest.mark.parametrize(
    ("stop", "expected"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("max_tokens", "length"),
        ("model_context_window_exceeded", "length"),
        ("tool_use", "toolUse"),
        ("refusal", "error"),
    ],
)
def test_stop_reasons(llm_server: LLMServer, stop: str, expected: str) -> None:
    usage = {"input_tokens": 5, "output_tokens": 1}
    llm_server.enqueue(Reply(body=message_body([{"type": "text", "text": "x"}], stop, usage)))
    assert ask(llm_server)["stopReason"] == expected


def test_prompt_too_long_is_returned_and_not_retried(llm_server: LLMServer) -> None:
    sleep = RecordingSleep()
    message = "prompt is too long: 213462 tokens > 200000 maximum"
    llm_server.enqueue(Reply.error(400, message), Reply(text="never"))
    reply = ask(llm_server, sleep=sleep)
    assert (reply["stopReason"], reply["errorMessage"]) == ("error", message)
    assert is_context_overflow(reply)
    assert len(llm_server.requests) == 1 and sleep.delays == []


def test_request_too_large_413_is_recognised_by_its_type(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(413, "Request exceeds the maximum size"))
    reply = ask(llm_server)
    assert reply["errorMessage"] == "Request exceeds the maximum size (request_too_large)"
    assert is_context_overflow(reply)


def test_overloaded_is_retried(llm_server: LLMServer) -> None:
    sleep = RecordingSleep()
    llm_server.enqueue(Reply.error(529, "Overloaded"), Reply(text="ok"))
    reply = ask(llm_server, sleep=sleep)
    assert reply["content"] == [{"type": "text", "text": "ok"}]
    assert sleep.delays == [0.5]


def test_output_limit_is_the_smaller_of_model_and_request(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="a"), Reply(text="b"))
    built = model(llm_server, max_output_tokens=1000, temperature=0.3)
    run(built.complete(ChatRequest(None, [user("x")])))
    run(built.complete(ChatRequest(None, [user("x")], max_tokens=200)))
    first, second = llm_server.requests
    assert first.body["max_tokens"] == 1000 and second.body["max_tokens"] == 200
    assert first.body["temperature"] == 0.3
    assert "system" not in first.body and "tools" not in first.body


def test_cancellation_propagates(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="late", delay=3.0))
    slow = model(llm_server)

    async def scenario() -> None:
        task = asyncio.ensure_future(slow.complete(ChatRequest(None, [user("hi")])))
        while not llm_server.requests:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(scenario())


def test_construction_errors(llm_server: LLMServer) -> None:
    with pytest.raises(SettingsError, match="context_window"):
        AnthropicChatModel("c", context_window=-5, base_url=llm_server.url)
    with pytest.raises(SettingsError, match="max_output_tokens"):
        AnthropicChatModel("c", context_window=5, base_url=llm_server.url, max_output_tokens=0)
    with pytest.raises(SynopsisError, match="ANTHROPIC_API_KEY"):
        AnthropicChatModel("c", context_window=10)


def test_a_tool_error_result_is_flagged_on_the_wire(llm_server: LLMServer, tmp_path: Path) -> None:
    def fails(arguments: dict[str, Any]) -> str:
        raise ValueError("no such row")

    llm_server.enqueue(
        Reply(tool_calls=[ToolCall("query", {"id": 7}, "toolu_q")]), Reply(text="ok")
    )
    agent = AgentSession(
        new_session(tmp_path), model(llm_server), tools=[Tool("query", "Query.", fails)]
    )
    run(agent.prompt("look up row 7"))
    [result] = llm_server.requests[1].messages[-1]["content"]
    assert result == {
        "type": "tool_result",
        "tool_use_id": "toolu_q",
        "content": [{"type": "text", "text": "ValueError: no such row"}],
        "is_error": True,
    }


def test_a_reply_in_another_format_is_an_error_reply(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(body={"choices": []}))
    reply = ask(llm_server)
    assert reply["stopReason"] == "error"
    assert reply["errorMessage"].startswith("the server's reply is not in the expected format")
