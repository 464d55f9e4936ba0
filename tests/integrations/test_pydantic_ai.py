"""SynopsisHistoryProcessor on a real pydantic-ai agent with its FunctionModel (no network)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent
from pydantic_ai.capabilities import ProcessHistory
from pydantic_ai.messages import (
    CompactionPart,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from synopsis.errors import SettingsError
from synopsis.integrations.pydantic_ai import SynopsisHistoryProcessor, full_history
from tests.integrations._checks import RULE, chunk_text, paired, rough_tokens

CALLS = 30
WINDOW = 4000
SYSTEM = "You read reports."


class ScriptedReader:
    """A FunctionModel function: calls read_chunk ``calls`` times, then answers."""

    def __init__(self, calls: int = CALLS) -> None:
        self.calls = calls
        self.received: list[list[ModelMessage]] = []
        self.made = 0

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.received.append(list(messages))
        if self.made < self.calls:
            n, self.made = self.made, self.made + 1
            return ModelResponse(parts=[ToolCallPart("read_chunk", {"n": n}, tool_call_id=f"c{n}")])
        self.made = 0
        return ModelResponse(parts=[TextPart("All chunks read.")])


def make_agent(model: ScriptedReader, window: int = WINDOW) -> Agent[None, str]:
    processor = SynopsisHistoryProcessor(context_window=window)
    agent = Agent(
        FunctionModel(model), system_prompt=SYSTEM, capabilities=[ProcessHistory(processor)]
    )

    @agent.tool_plain
    def read_chunk(n: int) -> str:
        """Read chunk n of the report."""
        return chunk_text(n)

    return agent


def texts(messages: list[ModelMessage]) -> list[str]:
    """What a provider would send: part contents (never metadata)."""
    out: list[str] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                out.append(part.tool_name + str(part.args))
            elif isinstance(part, ToolReturnPart):
                out.append(part.model_response_str())
            elif isinstance(part, SystemPromptPart | UserPromptPart | TextPart | CompactionPart):
                out.append(str(part.content or ""))
    return out


def events(messages: list[ModelMessage]) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                seen.append(("call", part.tool_call_id))
            elif isinstance(part, ToolReturnPart):
                seen.append(("result", part.tool_call_id))
    return seen


PROMPT = f"Read every chunk of the report, one by one. {RULE}"


def check_run(model: ScriptedReader, history: list[ModelMessage], calls: int = CALLS) -> None:
    full = full_history(history)
    # Nothing lost: the expanded history holds every call and every return of the run.
    assert sum(e == "call" for e, _ in events(full)) == calls
    assert sum(e == "result" for e, _ in events(full)) == calls
    assert paired(events(full))
    late = model.received[-1]
    assert rough_tokens(texts(late)) < rough_tokens(texts(full)) / 2
    assert any(RULE in text for text in texts(late))
    assert SYSTEM in texts(late)  # the SystemPromptPart survives compaction
    assert all(paired(events(call)) for call in model.received)


def test_long_tool_loop_stays_small_keeps_the_rule_and_pairs() -> None:
    model = ScriptedReader()
    result = make_agent(model).run_sync(PROMPT)
    assert result.output == "All chunks read."
    check_run(model, result.all_messages())
    late = model.received[-1]
    assert isinstance(late[0], ModelRequest)
    assert any(isinstance(p, CompactionPart) for p in late[0].parts)


def test_async_run_compacts_the_same_way() -> None:
    model = ScriptedReader()
    result = asyncio.run(make_agent(model).run(PROMPT))
    assert result.output == "All chunks read."
    check_run(model, result.all_messages())


def test_state_carries_into_the_next_run_from_the_history() -> None:
    model = ScriptedReader()
    agent = make_agent(model)
    first = agent.run_sync(PROMPT)
    second = agent.run_sync("Read thirty more.", message_history=first.all_messages())
    assert second.output == "All chunks read."
    late = model.received[-1]
    assert any(RULE in text for text in texts(late))
    assert all(paired(events(call)) for call in model.received)
    full = full_history(second.all_messages())
    assert sum(e == "result" for e, _ in events(full)) == 2 * CALLS
    prompts = [p.content for m in full for p in m.parts if isinstance(p, UserPromptPart)]
    assert prompts == [PROMPT, "Read thirty more."]


def test_small_history_is_returned_as_the_same_list() -> None:
    processor = SynopsisHistoryProcessor(context_window=100_000)
    history: list[Any] = [ModelRequest(parts=[UserPromptPart("hi")])]
    assert asyncio.run(processor(history)) is history


def test_settings_that_cannot_fit_the_window_are_refused() -> None:
    with pytest.raises(SettingsError):
        SynopsisHistoryProcessor(context_window=4000, keep_recent_tokens=4000)


class UsageReportingReader(ScriptedReader):
    """Reports usage as a provider does: what it was sent plus ``hidden`` tokens of tool
    schemas the processor is not told about (characters / 4, counted here)."""

    def __init__(self, hidden: int) -> None:
        super().__init__(CALLS)
        self.hidden = hidden

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = super().__call__(messages, info)
        given = self.hidden + rough_tokens(texts(messages))
        response.usage = RequestUsage(input_tokens=given, output_tokens=3)
        return response


def test_reported_usage_counts_tokens_the_processor_was_not_told() -> None:
    hidden = 1500
    model = UsageReportingReader(hidden)
    make_agent(model).run_sync(PROMPT)
    assert max(hidden + rough_tokens(texts(call)) for call in model.received) < WINDOW
    # without the report the same hidden tokens push a call over the window
    silent = ScriptedReader()
    make_agent(silent).run_sync(PROMPT)
    assert max(hidden + rough_tokens(texts(call)) for call in silent.received) >= WINDOW
