"""SynopsisMiddleware on a real LangChain v1 agent with a scripted fake chat model."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import Field

from synopsis.errors import SettingsError
from synopsis.integrations.langchain import STATE_KEY, SynopsisMiddleware
from tests.integrations._checks import RULE, chunk_text, paired, rough_tokens

CALLS = 30
WINDOW = 4000


class ScriptedToolModel(GenericFakeChatModel):
    """Replies from a script and records every message list it was called with."""

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.received.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def script(calls: int = CALLS, first: int = 0, width: int = 1) -> list[AIMessage]:
    """``calls`` tool calls, ``width`` of them in parallel per model reply, then an answer."""
    steps = [
        AIMessage(
            content="",
            tool_calls=[
                {"name": "read_chunk", "args": {"n": n + k}, "id": f"c{n + k}"}
                for k in range(min(width, first + calls - n))
            ],
        )
        for n in range(first, first + calls, width)
    ]
    return [*steps, AIMessage(content="All chunks read.")]


@tool
def read_chunk(n: int) -> str:
    """Read chunk n of the report."""
    return chunk_text(n)


def texts(messages: list[BaseMessage]) -> list[str]:
    out: list[str] = []
    for m in messages:
        out.append(m.text)
        if isinstance(m, AIMessage):
            out.extend(str(c["args"]) + c["name"] for c in m.tool_calls)
    return out


def events(messages: list[BaseMessage]) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for m in messages:
        if isinstance(m, AIMessage):
            seen.extend(("call", str(c["id"])) for c in m.tool_calls)
        elif isinstance(m, ToolMessage):
            seen.append(("result", m.tool_call_id))
    return seen


def first_message() -> HumanMessage:
    return HumanMessage(f"Read every chunk of the report, one by one. {RULE}")


def check_run(
    model: ScriptedToolModel, result: dict[str, Any], calls: int = CALLS, width: int = 1
) -> None:
    messages = result["messages"]
    assert messages[-1].text == "All chunks read."  # the agent finished
    # Nothing was deleted: the state still holds every message of the run.
    assert len(messages) == 1 + -(-calls // width) + calls + 1
    assert sum(isinstance(m, ToolMessage) for m in messages) == calls
    late = model.received[-1]
    full = rough_tokens(texts(messages[:-1]))
    assert rough_tokens(texts(late)) < full / 2
    assert any(RULE in text for text in texts(late))
    assert paired(events(late))
    assert all(paired(events(call)) for call in model.received)
    assert result[STATE_KEY]["compactions"] >= 2


def test_long_tool_loop_stays_small_keeps_the_rule_and_pairs() -> None:
    model = ScriptedToolModel(messages=iter(script()))
    agent = create_agent(
        model,
        tools=[read_chunk],
        system_prompt="You read reports.",
        middleware=[SynopsisMiddleware(context_window=WINDOW)],
    )
    result = agent.invoke({"messages": [first_message()]})
    check_run(model, result)
    # The system prompt stays first, the checkpoint follows it.
    late = model.received[-1]
    assert late[0].text == "You read reports."
    assert late[1].additional_kwargs.get("lc_source") == "synopsis"


def test_async_agent_compacts_the_same_way() -> None:
    model = ScriptedToolModel(messages=iter(script()))
    agent = create_agent(
        model, tools=[read_chunk], middleware=[SynopsisMiddleware(context_window=WINDOW)]
    )
    result = asyncio.run(agent.ainvoke({"messages": [first_message()]}))
    check_run(model, result)


def test_parallel_tool_calls_stay_with_their_results() -> None:
    model = ScriptedToolModel(messages=iter(script(60, width=3)))
    agent = create_agent(
        model, tools=[read_chunk], middleware=[SynopsisMiddleware(context_window=WINDOW)]
    )
    check_run(model, agent.invoke({"messages": [first_message()]}), calls=60, width=3)


def test_small_history_reaches_the_model_unchanged() -> None:
    model = ScriptedToolModel(messages=iter(script(2)))
    agent = create_agent(
        model, tools=[read_chunk], middleware=[SynopsisMiddleware(context_window=100_000)]
    )
    result = agent.invoke({"messages": [first_message()]})
    assert [m.text for m in model.received[-1]] == [m.text for m in result["messages"][:-1]]
    assert result.get(STATE_KEY) is None


def test_instructions_tokens_count_toward_the_threshold() -> None:
    def run(instructions_tokens: int) -> dict[str, Any]:
        model = ScriptedToolModel(messages=iter(script(8)))
        middleware = SynopsisMiddleware(
            context_window=WINDOW, instructions_tokens=instructions_tokens
        )
        agent = create_agent(model, tools=[read_chunk], middleware=[middleware])
        return agent.invoke({"messages": [first_message()]})

    assert run(0).get(STATE_KEY) is None  # eight chunks fit the window
    assert run(2500)[STATE_KEY]["compactions"] >= 1  # not beside 2,500 tokens of tool schemas


def test_state_is_carried_into_the_next_invoke() -> None:
    model = ScriptedToolModel(messages=iter([*script(), *script(20, first=CALLS)]))
    agent = create_agent(
        model, tools=[read_chunk], middleware=[SynopsisMiddleware(context_window=WINDOW)]
    )
    first = agent.invoke({"messages": [first_message()]})
    before = first[STATE_KEY]["compactions"]
    second = agent.invoke(
        {
            "messages": [*first["messages"], HumanMessage("Read twenty more chunks.")],
            STATE_KEY: first[STATE_KEY],
        }
    )
    assert second[STATE_KEY]["compactions"] > before
    late = model.received[-1]
    assert any(RULE in text for text in texts(late))
    assert paired(events(late))


def test_a_checkpointed_thread_keeps_everything_and_compacts_on() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    model = ScriptedToolModel(messages=iter([*script(), *script(20, first=CALLS)]))
    agent = create_agent(
        model,
        tools=[read_chunk],
        middleware=[SynopsisMiddleware(context_window=WINDOW)],
        checkpointer=InMemorySaver(),
    )
    thread = {"configurable": {"thread_id": "t1"}}
    first = agent.invoke({"messages": [first_message()]}, thread)
    second = agent.invoke({"messages": [HumanMessage("Read twenty more chunks.")]}, thread)
    # The thread's state holds both runs whole, and the record moved on from the first's.
    assert len(second["messages"]) == len(first["messages"]) + 1 + 20 * 2 + 1
    assert second[STATE_KEY]["compactions"] > first[STATE_KEY]["compactions"]
    late = model.received[-1]
    assert any(RULE in text for text in texts(late))
    assert paired(events(late))
    assert rough_tokens(texts(late)) < rough_tokens(texts(second["messages"])) / 3


def test_settings_that_cannot_fit_the_window_are_refused() -> None:
    with pytest.raises(SettingsError):
        SynopsisMiddleware(context_window=4000, keep_recent_tokens=5000)
