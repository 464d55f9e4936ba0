"""The scripted server speaks both protocols well enough for the official SDKs.

These checks exist for the later users of ``llm_server`` (agent loops): tool calls in
replies parse as real tool calls, tool definitions in requests are recorded, a missing
script is loud, and streaming is refused rather than faked.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest

from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall
from tests.summarizers._support import run

PATH_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"path": {"type": "string"}}}


def test_openai_tool_calls_round_trip(llm_server: LLMServer) -> None:
    llm_server.enqueue(
        Reply(text="Reading it.", tool_calls=[ToolCall("read", {"path": "src/a.py"}, id="c1")])
    )

    async def go() -> openai.types.chat.ChatCompletion:
        async with openai.AsyncOpenAI(api_key="k", base_url=llm_server.openai_url) as client:
            return await client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "open a.py"}],
                tools=[
                    {
                        "type": "function",
                        "function": {
                            "name": "read",
                            "description": "Read a file",
                            "parameters": PATH_SCHEMA,
                        },
                    }
                ],
            )

    completion = run(go())
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Reading it."
    [call] = choice.message.tool_calls or []
    assert call.type == "function"
    assert call.id == "c1"
    assert call.function.name == "read"
    assert json.loads(call.function.arguments) == {"path": "src/a.py"}
    [sent] = llm_server.requests
    assert sent.tools[0]["function"]["name"] == "read"
    assert sent.texts("user") == ["open a.py"]


def test_anthropic_tool_use_round_trip(llm_server: LLMServer) -> None:
    def answer(sent: RecordedRequest) -> Reply:
        assert sent.tools[0]["name"] == "read"
        return Reply(tool_calls=[ToolCall("read", {"path": "src/b.py"})])

    llm_server.enqueue(answer)

    async def go() -> anthropic.types.Message:
        async with anthropic.AsyncAnthropic(api_key="k", base_url=llm_server.anthropic_url) as c:
            return await c.messages.create(
                model="m",
                max_tokens=100,
                messages=[{"role": "user", "content": "open b.py"}],
                tools=[
                    {
                        "name": "read",
                        "description": "Read a file",
                        "input_schema": PATH_SCHEMA,
                    }
                ],
            )

    message = run(go())
    assert message.stop_reason == "tool_use"
    [block] = message.content
    assert block.type == "tool_use"
    assert block.name == "read"
    assert block.input == {"path": "src/b.py"}
    assert block.id


def test_running_out_of_script_is_loud(llm_server: LLMServer) -> None:
    async def go() -> None:
        async with openai.AsyncOpenAI(
            api_key="k", base_url=llm_server.openai_url, max_retries=0
        ) as client:
            await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )

    with pytest.raises(openai.APIStatusError, match="no scripted reply") as caught:
        run(go())
    assert caught.value.status_code == 418
    assert llm_server.unscripted == 1


def test_streaming_is_refused(llm_server: LLMServer) -> None:
    llm_server.enqueue(Reply(text="never sent"))

    async def go() -> None:
        async with openai.AsyncOpenAI(
            api_key="k", base_url=llm_server.openai_url, max_retries=0
        ) as client:
            await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}], stream=True
            )

    with pytest.raises(openai.BadRequestError, match="does not stream"):
        run(go())
    assert llm_server.pending == 1
