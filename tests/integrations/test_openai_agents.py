"""CompactingSession under the real Agents SDK Runner with a scripted Model (no network)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, RunConfig, Runner, SQLiteSession, Usage, function_tool
from agents.items import ModelResponse, TResponseInputItem
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from synopsis.errors import SettingsError
from synopsis.integrations.openai_agents import RECORD_PREFIX, CompactingSession
from tests.integrations._checks import RULE, chunk_text, paired, rough_tokens

WINDOW = 4000
RUNS = 10
CALLS_PER_RUN = 8
NO_TRACING = RunConfig(tracing_disabled=True)


class ScriptedModel(Model):
    """Calls ``read_chunk`` a fixed number of times per run, then answers; records inputs."""

    def __init__(self, calls_per_run: int) -> None:
        self.calls_per_run = calls_per_run
        self.received: list[list[TResponseInputItem]] = []
        self.next_chunk = 0
        self.in_run = 0

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        self.received.append(json.loads(json.dumps(items, default=str)))
        if self.in_run < self.calls_per_run:
            self.in_run += 1
            n, self.next_chunk = self.next_chunk, self.next_chunk + 1
            output: Any = ResponseFunctionToolCall(
                id=f"fc_{n}",
                call_id=f"call_{n}",
                name="read_chunk",
                arguments=json.dumps({"n": n}),
                type="function_call",
                status="completed",
            )
        else:
            self.in_run = 0
            output = ResponseOutputMessage(
                id=f"msg_{self.next_chunk}",
                role="assistant",
                status="completed",
                type="message",
                content=[
                    ResponseOutputText(text="Chunks read.", type="output_text", annotations=[])
                ],
            )
        return ModelResponse(output=[output], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


@function_tool
def read_chunk(n: int) -> str:
    """Read chunk n of the report."""
    return chunk_text(n)


def texts(items: list[Any]) -> list[str]:
    out: list[str] = []
    for item in items:
        content = item.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.extend(str(part.get("text", "")) for part in content)
        out.extend(str(item.get(key, "")) for key in ("arguments", "output", "name"))
    return out


def events(items: list[Any]) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for item in items:
        if item.get("type") == "function_call":
            seen.append(("call", item["call_id"]))
        elif item.get("type") == "function_call_output":
            seen.append(("result", item["call_id"]))
    return seen


def prompts(run: int) -> str:
    return f"Read every chunk of the report, one by one. {RULE}" if run == 0 else "Go on."


async def run_agent(session: CompactingSession, model: ScriptedModel, runs: int = RUNS) -> None:
    agent = Agent(name="reader", instructions="You read reports.", model=model, tools=[read_chunk])
    for run in range(runs):
        result = await Runner.run(agent, prompts(run), session=session, run_config=NO_TRACING)
        assert result.final_output == "Chunks read."  # every run finishes


def test_runs_over_a_compacting_session_stay_small_and_paired() -> None:
    store = SQLiteSession("reader")
    session = CompactingSession(store, context_window=WINDOW)
    model = ScriptedModel(CALLS_PER_RUN)
    asyncio.run(run_agent(session, model))

    full = asyncio.run(session.full_history())
    # Nothing deleted: every prompt, call, result and answer of every run is stored.
    assert sum(item.get("type") == "function_call" for item in full) == RUNS * CALLS_PER_RUN
    assert sum(item.get("type") == "function_call_output" for item in full) == RUNS * CALLS_PER_RUN
    assert not any(RECORD_PREFIX in text for text in texts(full))
    # The checkpoint the Runner was given is not stored back as if it were new input.
    assert not any("<checkpoint>" in text for text in texts(full))
    late = model.received[-1]
    assert rough_tokens(texts(late)) < rough_tokens(texts(full)) / 2
    assert any(RULE in text for text in texts(late))
    assert all(paired(events(call)) for call in model.received)
    assert not any(RECORD_PREFIX in text for call in model.received for text in texts(call))

    # A fresh wrapper over the same store gives the same view, and the same latest items.
    again = CompactingSession(store, context_window=WINDOW)
    assert asyncio.run(again.get_items()) == asyncio.run(session.get_items())
    assert asyncio.run(again.get_items(3)) == full[-3:]


def test_compaction_happens_between_runs_and_carries_the_state() -> None:
    store = SQLiteSession("reader")
    session = CompactingSession(store, context_window=WINDOW)
    model = ScriptedModel(CALLS_PER_RUN)
    asyncio.run(run_agent(session, model, runs=RUNS))
    records = [
        item
        for item in asyncio.run(store.get_items())
        if str(item.get("content", "")).startswith(RECORD_PREFIX)
    ]
    assert len(records) >= 2  # compacted more than once, each time from the stored state
    latest = json.loads(str(records[-1]["content"])[len(RECORD_PREFIX) :])
    constraints = [c["text"] for c in latest["checkpoint"]["state"]["constraints"]]
    assert RULE in constraints
    # Each run's first model call starts with the checkpoint once one exists.
    first_calls = [call for call in model.received if call[-1].get("content") == "Go on."]
    assert first_calls[-1][0]["role"] == "user"
    assert "<checkpoint>" in str(first_calls[-1][0]["content"])


def test_pop_item_removes_conversation_items_not_records() -> None:
    store = SQLiteSession("reader")
    session = CompactingSession(store, context_window=WINDOW)
    asyncio.run(run_agent(session, ScriptedModel(CALLS_PER_RUN), runs=3))
    view = asyncio.run(session.get_items())  # stores a record if one was due
    full = asyncio.run(session.full_history())
    popped = asyncio.run(session.pop_item())
    assert popped == full[-1]
    assert asyncio.run(session.full_history()) == full[:-1]
    # The record still fits the items left, so the view just loses its last item.
    assert asyncio.run(session.get_items()) == view[:-1]


def test_small_history_is_returned_unchanged() -> None:
    store = SQLiteSession("reader")
    session = CompactingSession(store, context_window=100_000)
    asyncio.run(run_agent(session, ScriptedModel(2), runs=2))
    assert asyncio.run(session.get_items()) == asyncio.run(store.get_items())


def test_settings_that_cannot_fit_the_window_are_refused() -> None:
    with pytest.raises(SettingsError):
        CompactingSession(SQLiteSession("x"), context_window=1000, reserve_tokens=1000)
