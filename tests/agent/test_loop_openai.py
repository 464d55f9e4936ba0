"""The OpenAI chat model: the real ``openai`` SDK over real HTTP to llm_server, in the loop.

What both chat models do alike is tested for each in ``test_chat_models.py``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.events import AgentEnd, AgentError, MessageEnd
from synopsis.agent.session import AgentSession
from synopsis.agent.tools import Tool, ToolOutput
from synopsis.compaction.settings import CompactionSettings
from synopsis.providers.base import ChatRequest, ToolSpec
from synopsis.providers.openai import to_openai_messages
from synopsis.providers.overflow import is_context_overflow
from tests.agent._support import (
    SYSTEM_PROMPT,
    Events,
    RecordingSleep,
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


@pytest.fixture(autouse=True)
def _no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_environment(monkeypatch, "openai")


# --- the loop ---------------------------------------------------------------------------


def test_tool_loop_runs_the_tool_and_persists_every_message(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    files = {"notes.txt": "The release is frozen until ticket OPS-4411 is closed."}

    def answer_from_tool_result(request: RecordedRequest) -> Reply:
        [result] = [m for m in request.messages if m.get("role") == "tool"]
        return Reply(text=f"The notes say: {result['content']}")

    llm_server.enqueue(
        Reply(text="Let me look.", tool_calls=[ToolCall("read", {"path": "notes.txt"}, "call_a")]),
        answer_from_tool_result,
    )
    session = new_session(tmp_path)
    events = Events()
    agent = AgentSession(
        session,
        chat_model(llm_server, "openai"),
        tools=[file_tool(files)],
        system_prompt=SYSTEM_PROMPT,
    )
    agent.subscribe(events)

    final = run(agent.prompt("What do the notes say?"))

    assert final is not None
    assert final["content"] == [{"type": "text", "text": f"The notes say: {files['notes.txt']}"}]
    assert final["stopReason"] == "stop"
    stored = file_messages(session)
    assert [m["role"] for m in stored] == ["user", "assistant", "toolResult", "assistant"]
    call = stored[1]
    assert call["stopReason"] == "toolUse"
    assert call["content"] == [
        {"type": "text", "text": "Let me look."},
        {"type": "toolCall", "id": "call_a", "name": "read", "arguments": {"path": "notes.txt"}},
    ]
    assert (call["api"], call["provider"], call["model"]) == (
        "openai-completions",
        "openai",
        "test-model",
    )
    assert isinstance(call["timestamp"], int)
    usage = call["usage"]
    assert usage["input"] > 0 and usage["output"] > 0
    assert usage["totalTokens"] == usage["input"] + usage["output"]
    result = stored[2]
    assert (result["toolCallId"], result["toolName"], result["isError"]) == (
        "call_a",
        "read",
        False,
    )
    assert result["content"] == [{"type": "text", "text": files["notes.txt"]}]
    assert [type(e) for e in events.events] == [MessageEnd] * 4 + [AgentEnd]

    first, second = llm_server.requests
    assert first.path == "/v1/chat/completions"
    assert first.system == SYSTEM_PROMPT
    assert first.tools == [
        {
            "type": "function",
            "function": {
                "name": "read",
                "description": "Read a file of the project.",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
            },
        }
    ]
    assert [m["role"] for m in first.messages] == ["system", "user"]
    assert first.messages[1]["content"] == "What do the notes say?"
    assert [m["role"] for m in second.messages] == ["system", "user", "assistant", "tool"]
    assistant = second.messages[2]
    assert assistant["content"] == "Let me look."
    [wire_call] = assistant["tool_calls"]
    assert wire_call["id"] == "call_a"
    assert wire_call["function"]["name"] == "read"
    assert json.loads(wire_call["function"]["arguments"]) == {"path": "notes.txt"}
    assert second.messages[3] == {
        "role": "tool",
        "tool_call_id": "call_a",
        "content": files["notes.txt"],
    }
    assert_wire_paired(second)


def test_parallel_failing_and_unknown_tools_all_get_a_result(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    def broken(arguments: dict[str, Any]) -> str:
        raise RuntimeError("disk on fire")

    async def slow_ok(arguments: dict[str, Any]) -> ToolOutput:
        await asyncio.sleep(0)
        return ToolOutput(f"checked {arguments['n']}", is_error=arguments["n"] > 1)

    llm_server.enqueue(
        Reply(
            tool_calls=[
                ToolCall("check", {"n": 1}, "c1"),
                ToolCall("broken", {}, "c2"),
                ToolCall("nonexistent", {}, "c3"),
                ToolCall("check", {"n": 2}, "c4"),
            ]
        ),
        Reply(text="All done."),
    )
    session = new_session(tmp_path)
    agent = AgentSession(
        session,
        chat_model(llm_server, "openai"),
        tools=[Tool("check", "Check n.", slow_ok), Tool("broken", "Breaks.", broken)],
    )
    run(agent.prompt("go"))

    results = [m for m in file_messages(session) if m["role"] == "toolResult"]
    assert [(r["toolCallId"], r["isError"]) for r in results] == [
        ("c1", False),
        ("c2", True),
        ("c3", True),
        ("c4", True),
    ]
    assert results[1]["content"][0]["text"] == "RuntimeError: disk on fire"
    assert "nonexistent" in results[2]["content"][0]["text"]
    second = llm_server.requests[1]
    assert [m["tool_call_id"] for m in second.messages if m["role"] == "tool"] == [
        "c1",
        "c2",
        "c3",
        "c4",
    ]
    assert_wire_paired(second)


def test_a_run_that_never_stops_calling_tools_ends_after_max_turns(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    llm_server.enqueue(
        *[Reply(tool_calls=[ToolCall("read", {"path": "a.py"}, f"call_{i}")]) for i in range(3)],
        Reply(text="must not be asked for"),
    )
    session = new_session(tmp_path)
    agent = AgentSession(
        session,
        chat_model(llm_server, "openai"),
        tools=[file_tool({"a.py": "A = 1"})],
        max_turns=3,
    )
    events = Events()
    agent.subscribe(events)

    final = run(agent.prompt("Keep reading a.py."))

    assert final is not None and final["stopReason"] == "toolUse"
    assert len(llm_server.requests) == 3 and llm_server.pending == 1
    assert [e.message for e in events.of(AgentError)] == [
        "stopped after 3 turns without a final answer"
    ]
    assert events.types[-2:] == ["agent_error", "agent_end"]
    assert [m["role"] for m in file_messages(session)] == ["user"] + ["assistant", "toolResult"] * 3


def test_context_usage_reports_the_context_against_window_and_threshold(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent = AgentSession(
        new_session(tmp_path),
        chat_model(llm_server, "openai", context_window=10_000),
        settings=CompactionSettings(reserve_tokens=2_000, keep_recent_tokens=1_000),
    )
    empty = agent.context_usage()
    assert (empty.tokens, empty.context_window, empty.threshold, empty.percent) == (
        0,
        10_000,
        8_000,
        0.0,
    )
    llm_server.enqueue(Reply(text="Fine.", usage=(2_500, 20)))
    run(agent.prompt("How full is the context?"))

    usage = agent.context_usage()
    assert usage.tokens == agent.context_tokens().tokens == 2_520  # the reply's own usage
    assert usage.percent == pytest.approx(25.2)


# --- conversion -------------------------------------------------------------------------


def test_messages_convert_to_the_chat_format() -> None:
    image = {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}
    messages: list[Any] = [
        {"role": "user", "content": "plain string"},
        {"role": "user", "content": [{"type": "text", "text": "see"}, image]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "private"},
                {"type": "text", "text": "a"},
                {"type": "text", "text": "b"},
                {"type": "toolCall", "id": "x1", "name": "shot", "arguments": {"q": "ü"}},
            ],
        },
        {
            "role": "toolResult",
            "toolCallId": "x1",
            "toolName": "shot",
            "content": [{"type": "text", "text": "took it"}, image],
            "isError": False,
        },
        {"role": "assistant", "content": []},
    ]
    converted = to_openai_messages("sys", messages)
    assert converted == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "plain string"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "see"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}},
            ],
        },
        {
            "role": "assistant",
            "content": "ab",
            "tool_calls": [
                {
                    "id": "x1",
                    "type": "function",
                    "function": {"name": "shot", "arguments": '{"q":"ü"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "x1", "content": "took it"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Images returned by the tool calls above:"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}},
            ],
        },
        {"role": "assistant", "content": ""},
    ]


def completion(message: dict[str, Any], finish: str, usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage,
    }


def test_usage_separates_cached_prompt_tokens(llm_server: LLMServer) -> None:
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 40,
        "total_tokens": 1040,
        "prompt_tokens_details": {"cached_tokens": 600},
    }
    llm_server.enqueue(
        Reply(body=completion({"role": "assistant", "content": "ok"}, "stop", usage))
    )
    reply = ask(llm_server, "openai")
    assert reply["usage"] == {
        "input": 400,
        "output": 40,
        "cacheRead": 600,
        "cacheWrite": 0,
        "totalTokens": 1040,
    }


def test_reply_details(llm_server: LLMServer) -> None:
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    calls = [
        {"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{not json"}},
        {"id": "t2", "type": "function", "function": {"name": "g", "arguments": ""}},
    ]
    thinking = {"role": "assistant", "content": "x", "reasoning_content": "hmm"}
    llm_server.enqueue(
        Reply(
            body=completion(
                {"role": "assistant", "content": None, "tool_calls": calls}, "stop", usage
            )
        ),
        Reply(body=completion(thinking, "length", usage)),
        Reply(body=completion({"role": "assistant", "content": ""}, "content_filter", usage)),
        Reply(
            body={**completion({"role": "assistant", "content": ""}, "stop", usage), "choices": []}
        ),
    )
    with_calls = ask(llm_server, "openai")
    assert with_calls["stopReason"] == "toolUse"  # the server said "stop"
    assert with_calls["content"] == [
        {"type": "toolCall", "id": "t1", "name": "f", "arguments": {"_raw": "{not json"}},
        {"type": "toolCall", "id": "t2", "name": "g", "arguments": {}},
    ]
    cut = ask(llm_server, "openai")
    assert cut["stopReason"] == "length"
    assert cut["content"] == [
        {"type": "thinking", "thinking": "hmm"},
        {"type": "text", "text": "x"},
    ]
    filtered = ask(llm_server, "openai")
    assert filtered["stopReason"] == "error"
    assert "content_filter" in filtered["errorMessage"]
    empty = ask(llm_server, "openai")
    assert (empty["stopReason"], empty["errorMessage"]) == ("error", "the reply has no choices")


def test_output_limit_uses_the_configured_parameter(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="a"), Reply(text="b"), Reply(text="c"))
    ask(llm_server, "openai")
    ask(llm_server, "openai", max_output_tokens=300)
    ask(llm_server, "openai", max_output_tokens=300, max_tokens_parameter="max_completion_tokens")
    bodies = [r.body for r in llm_server.requests]
    assert "max_tokens" not in bodies[0] and "max_completion_tokens" not in bodies[0]
    assert bodies[1]["max_tokens"] == 300
    assert bodies[2]["max_completion_tokens"] == 300
    assert "temperature" not in bodies[0]


# --- failures are replies ---------------------------------------------------------------


def test_overflow_behind_a_server_error_is_not_retried_either(llm_server: LLMServer) -> None:
    sleep = RecordingSleep()
    llm_server.enqueue(Reply.error(503, "context_length_exceeded"), Reply(text="never"))
    reply = ask(llm_server, "openai", sleep=sleep)
    assert is_context_overflow(reply)
    assert len(llm_server.requests) == 1


def test_error_code_is_kept_when_the_message_does_not_say_it(llm_server: LLMServer) -> None:
    body = {
        "error": {
            "message": "Request too big.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    }
    llm_server.enqueue(Reply(status=400, body=body))
    reply = ask(llm_server, "openai")
    assert reply["errorMessage"] == "Request too big. (context_length_exceeded)"
    assert is_context_overflow(reply)


# --- tools ------------------------------------------------------------------------------


def test_tools_reach_the_request_only_when_given(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="a"), Reply(text="b"))
    built = chat_model(llm_server, "openai")
    run(built.complete(ChatRequest(None, [user("x")])))
    run(built.complete(ChatRequest(None, [user("x")], [ToolSpec("t", "d")])))
    first, second = llm_server.requests
    assert "tools" not in first.body
    assert second.tools[0]["function"]["parameters"] == {"type": "object", "properties": {}}
