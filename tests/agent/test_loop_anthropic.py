"""The Anthropic chat model: the real ``anthropic`` SDK over real HTTP to llm_server.

What both chat models do alike is tested for each in ``test_chat_models.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.session import AgentSession
from synopsis.agent.tools import Tool
from synopsis.providers.anthropic import to_anthropic_messages
from synopsis.providers.base import ChatRequest
from synopsis.providers.overflow import is_context_overflow
from tests.agent._support import (
    SYSTEM_PROMPT,
    ask,
    assert_wire_paired,
    chat_model,
    clear_environment,
    file_messages,
    file_tool,
    new_session,
    run,
    user,
)
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall
from tests.summarizers._support import CACHED_USAGE, anthropic_message


@pytest.fixture(autouse=True)
def _no_anthropic_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_environment(monkeypatch, "anthropic")


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
        session,
        chat_model(llm_server, "anthropic"),
        tools=[file_tool(files)],
        system_prompt=SYSTEM_PROMPT,
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


def test_usage_keeps_cache_reads_and_writes(llm_server: LLMServer) -> None:
    content = [
        {"type": "thinking", "thinking": "let me think", "signature": "sig-1"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "text", "text": "answer"},
    ]
    llm_server.enqueue(Reply(body=anthropic_message(content, CACHED_USAGE)))
    reply = ask(llm_server, "anthropic")
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
    llm_server.enqueue(Reply(body=anthropic_message([{"type": "text", "text": "x"}], usage, stop)))
    assert ask(llm_server, "anthropic")["stopReason"] == expected


def test_request_too_large_413_is_recognised_by_its_type(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply.error(413, "Request exceeds the maximum size"))
    reply = ask(llm_server, "anthropic")
    assert reply["errorMessage"] == "Request exceeds the maximum size (request_too_large)"
    assert is_context_overflow(reply)


def test_output_limit_is_the_smaller_of_model_and_request(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="a"), Reply(text="b"))
    built = chat_model(llm_server, "anthropic", max_output_tokens=1000, temperature=0.3)
    run(built.complete(ChatRequest(None, [user("x")])))
    run(built.complete(ChatRequest(None, [user("x")], max_tokens=200)))
    first, second = llm_server.requests
    assert first.body["max_tokens"] == 1000 and second.body["max_tokens"] == 200
    assert first.body["temperature"] == 0.3
    assert "system" not in first.body and "tools" not in first.body


def test_a_tool_error_result_is_flagged_on_the_wire(llm_server: LLMServer, tmp_path: Path) -> None:
    def fails(arguments: dict[str, Any]) -> str:
        raise ValueError("no such row")

    llm_server.enqueue(
        Reply(tool_calls=[ToolCall("query", {"id": 7}, "toolu_q")]), Reply(text="ok")
    )
    agent = AgentSession(
        new_session(tmp_path),
        chat_model(llm_server, "anthropic"),
        tools=[Tool("query", "Query.", fails)],
    )
    run(agent.prompt("look up row 7"))
    [result] = llm_server.requests[1].messages[-1]["content"]
    assert result == {
        "type": "tool_result",
        "tool_use_id": "toolu_q",
        "content": [{"type": "text", "text": "ValueError: no such row"}],
        "is_error": True,
    }
