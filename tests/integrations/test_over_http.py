"""Each integration with the framework's real OpenAI adapter, over HTTP to the local server.

The frameworks' own test models receive message objects; here the provider adapter of
each framework turns the compacted history into a real chat-completions request, and
the checks read that request's JSON: the system prompt first, the rule verbatim, every
``tool`` message answering a call in the same request, far smaller than the history.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.integrations._checks import RULE, chunk_text, rough_tokens
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall

CALLS = 30
WINDOW = 4000
SYSTEM = "You read reports."
PROMPT = f"Read every chunk of the report, one by one. {RULE}"


def tool_loop(calls: int = CALLS) -> Any:
    """A responder: one read_chunk call per request, then the answer."""
    made = 0

    def respond(request: RecordedRequest) -> Reply:
        nonlocal made
        if made < calls:
            made += 1
            return Reply(
                tool_calls=[ToolCall("read_chunk", {"n": made - 1}, id=f"call_{made - 1}")]
            )
        return Reply(text="All chunks read.")

    return respond


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def message_texts(request: RecordedRequest) -> list[str]:
    out: list[str] = []
    for message in request.messages:
        out.append(text_of(message.get("content")))
        for call in message.get("tool_calls") or []:
            out.append(call["function"]["name"] + call["function"]["arguments"])
    return out


def check_requests(server: LLMServer, runs: int = 1) -> None:
    requests = server.requests
    assert len(requests) == CALLS + runs  # one per tool call, one answer per run
    late = requests[-1]
    assert late.messages[0]["role"] in ("system", "developer")
    assert SYSTEM in text_of(late.messages[0]["content"])
    assert any(RULE in text for text in message_texts(late))
    # The history the model was sent without compaction: every chunk and every call.
    full = rough_tokens([PROMPT, *(chunk_text(n) for n in range(CALLS))])
    assert rough_tokens(message_texts(late)) < full / 2
    for request in requests:
        calls: set[str] = set()
        for message in request.messages:
            calls.update(call["id"] for call in message.get("tool_calls") or [])
            if message.get("role") == "tool":
                assert message["tool_call_id"] in calls


def test_langchain_over_http() -> None:
    pytest.importorskip("langchain_openai")
    from langchain.agents import create_agent
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI

    from synopsis.integrations.langchain import SynopsisMiddleware

    @tool
    def read_chunk(n: int) -> str:
        """Read chunk n of the report."""
        return chunk_text(n)

    with LLMServer() as server:
        server.set_default(tool_loop())
        model = ChatOpenAI(model="gpt-4.1-mini", base_url=server.openai_url, api_key="sk-test")
        agent = create_agent(
            model,
            tools=[read_chunk],
            system_prompt=SYSTEM,
            middleware=[SynopsisMiddleware(context_window=WINDOW)],
        )
        result = agent.invoke({"messages": [{"role": "user", "content": PROMPT}]})
        assert result["messages"][-1].text == "All chunks read."
        check_requests(server)


def test_pydantic_ai_over_http() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import ProcessHistory
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    from synopsis.integrations.pydantic_ai import SynopsisHistoryProcessor

    with LLMServer() as server:
        server.set_default(tool_loop())
        provider = OpenAIProvider(base_url=server.openai_url, api_key="sk-test")
        agent = Agent(
            OpenAIChatModel("gpt-4.1-mini", provider=provider),
            system_prompt=SYSTEM,
            capabilities=[ProcessHistory(SynopsisHistoryProcessor(context_window=WINDOW))],
        )

        @agent.tool_plain
        def read_chunk(n: int) -> str:
            """Read chunk n of the report."""
            return chunk_text(n)

        assert agent.run_sync(PROMPT).output == "All chunks read."
        check_requests(server)


def test_openai_agents_over_http() -> None:
    pytest.importorskip("agents")
    from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner, SQLiteSession
    from agents import function_tool as agents_tool
    from openai import AsyncOpenAI

    from synopsis.integrations.openai_agents import CompactingSession

    @agents_tool
    def read_chunk(n: int) -> str:
        """Read chunk n of the report."""
        return chunk_text(n)

    runs, per_run = 6, CALLS // 6

    async def scenario(server: LLMServer) -> None:
        client = AsyncOpenAI(base_url=server.openai_url, api_key="sk-test")
        agent = Agent(
            name="reader",
            instructions=SYSTEM,
            model=OpenAIChatCompletionsModel(model="gpt-4.1-mini", openai_client=client),
            tools=[read_chunk],
        )
        session = CompactingSession(SQLiteSession("reader"), context_window=WINDOW)
        for run in range(runs):
            server.enqueue(*([tool_loop(per_run)] * (per_run + 1)))
            prompt = PROMPT if run == 0 else "Go on."
            config = RunConfig(tracing_disabled=True)
            result = await Runner.run(agent, prompt, session=session, run_config=config)
            assert result.final_output == "All chunks read."

    with LLMServer() as server:
        asyncio.run(scenario(server))
        check_requests(server, runs)
