"""Stopping a run (`abort`) and queueing messages for after it (`follow_up`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.events import AgentEnd, AgentError
from synopsis.agent.session import AgentSession
from synopsis.agent.tools import Tool
from synopsis.messages import text_of
from tests.agent._support import (
    PROTOCOLS,
    Events,
    Protocol,
    chat_model,
    file_messages,
    new_session,
    run,
)
from tests.llm_server import LLMServer, Reply, ToolCall


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_abort_during_a_slow_model_call(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    session = new_session(tmp_path)
    agent = AgentSession(session, chat_model(llm_server, protocol))
    events = Events()
    agent.subscribe(events)
    llm_server.enqueue(Reply(text="far too late", delay=3.0))

    async def scenario() -> Any:
        task = asyncio.ensure_future(agent.prompt("A question that takes long."))
        while not llm_server.requests:
            await asyncio.sleep(0.01)
        agent.abort()
        return await task

    reply = run(scenario())

    assert reply is not None and reply["stopReason"] == "aborted"
    assert reply["content"] == []
    stored = file_messages(session)
    assert [(m["role"], m.get("stopReason")) for m in stored] == [
        ("user", None),
        ("assistant", "aborted"),
    ]
    assert not events.of(AgentError)
    [end] = events.of(AgentEnd)
    assert [m["role"] for m in end.messages] == ["user", "assistant"]

    # Continuing sends the question again, without the aborted reply.
    llm_server.clear()
    llm_server.enqueue(Reply(text="Here is the answer."))
    again = run(agent.continue_())
    assert again is not None and text_of(again) == "Here is the answer."
    [sent] = llm_server.requests
    assert [m["role"] for m in sent.messages] == ["user"]
    assert text_of(sent.messages[0]) == "A question that takes long."


def test_abort_from_a_tool_stops_before_the_next_model_call(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    session = new_session(tmp_path)
    agent: AgentSession

    def deploy(arguments: dict[str, Any]) -> str:
        agent.abort()  # the user pressed stop while the tool ran
        return "deployed to staging"

    agent = AgentSession(
        session, chat_model(llm_server, "openai"), tools=[Tool("deploy", "Deploy.", deploy)]
    )
    llm_server.enqueue(
        Reply(tool_calls=[ToolCall("deploy", {}, "call_d")]), Reply(text="Deployed; checking.")
    )
    run(agent.prompt("Deploy it."))

    assert len(llm_server.requests) == 1
    assert llm_server.pending == 1
    assert [m["role"] for m in file_messages(session)] == ["user", "assistant", "toolResult"]
    final = run(agent.continue_())
    assert final is not None and text_of(final) == "Deployed; checking."
    assert llm_server.requests[1].messages[-1] == {
        "role": "tool",
        "tool_call_id": "call_d",
        "content": "deployed to staging",
    }


def test_follow_up_is_delivered_after_the_run(llm_server: LLMServer, tmp_path: Path) -> None:
    session = new_session(tmp_path)
    agent: AgentSession

    def run_tests(arguments: dict[str, Any]) -> str:
        agent.follow_up("Also update the changelog.")  # typed while the agent was busy
        return "42 passed"

    agent = AgentSession(
        session, chat_model(llm_server, "openai"), tools=[Tool("test", "Run tests.", run_tests)]
    )
    events = Events()
    agent.subscribe(events)
    llm_server.enqueue(
        Reply(tool_calls=[ToolCall("test", {}, "call_t")]),
        Reply(text="All 42 tests pass."),
        Reply(text="Changelog updated."),
    )

    final = run(agent.prompt("Run the tests."))

    assert final is not None and text_of(final) == "Changelog updated."
    stored = file_messages(session)
    assert [(m["role"], text_of(m)) for m in stored if m["role"] != "toolResult"] == [
        ("user", "Run the tests."),
        ("assistant", ""),
        ("assistant", "All 42 tests pass."),
        ("user", "Also update the changelog."),
        ("assistant", "Changelog updated."),
    ]
    third = llm_server.requests[2]
    assert text_of(third.messages[-1]) == "Also update the changelog."
    assert text_of(third.messages[-2]) == "All 42 tests pass."
    [end] = events.of(AgentEnd)  # one run, follow-up included
    assert len(end.messages) == len(stored)


def test_follow_ups_queued_before_a_prompt_come_after_it_in_order(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    session = new_session(tmp_path)
    agent = AgentSession(session, chat_model(llm_server, "openai"))
    agent.follow_up("second")
    agent.follow_up("third")
    llm_server.enqueue(Reply(text="one"), Reply(text="two"), Reply(text="three"))
    run(agent.prompt("first"))
    users = [text_of(m) for m in file_messages(session) if m["role"] == "user"]
    assert users == ["first", "second", "third"]
    assert len(llm_server.requests) == 3
