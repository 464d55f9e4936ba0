"""Long sessions through the loop: compacted again and again, never over the window.

The 200-turn run replays a generated coding session (its prompts, its replies, its tool
outputs, some of them far larger than the keep window) through :class:`AgentSession`
with a :class:`ReplayModel`, whose usage is computed from what it is actually sent. A
shorter run does the same over real HTTP with the OpenAI SDK.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.agent.events import AgentError, CompactionEnd, MessageEnd
from synopsis.agent.replay import ReplayModel, recorded_turns, replay_tools
from synopsis.agent.session import AgentSession
from synopsis.compaction.settings import CompactionSettings
from synopsis.messages import AssistantMessage
from synopsis.providers.base import ChatRequest
from tests.agent._support import (
    Events,
    agent_requests,
    assert_llm_paired,
    assert_wire_paired,
    chat_model,
    file_tool,
    new_session,
    reopen,
    request_tokens,
    words,
)
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall
from tests.synthetic import generate_session

OMISSION_MARK = "characters of this tool result are left out"


class RecordingModel:
    """A replay model that also keeps the messages of every request it was sent."""

    def __init__(self, inner: ReplayModel) -> None:
        self.inner = inner
        self.provider = inner.provider
        self.model_id = inner.model_id
        self.context_window = inner.context_window
        self.sent: list[list[Any]] = []

    async def complete(self, request: ChatRequest) -> AssistantMessage:
        self.sent.append(list(request.messages))
        return await self.inner.complete(request)


async def replay(
    tmp_path: Path,
    *,
    seed: int,
    entries: int,
    window: int,
    max_turns: int | None = None,
    language: str = "en",
) -> tuple[RecordingModel, Events, Any]:
    recording = generate_session(seed, entries, language=language)
    turns = recorded_turns(recording.entries)[:max_turns]
    model = RecordingModel(
        ReplayModel([r for t in turns for r in t.replies], context_window=window)
    )
    session = new_session(tmp_path, f"replay-{seed}-{window}-{language}.jsonl")
    agent = AgentSession(
        session,
        model,
        tools=replay_tools(recording.entries),
        settings=CompactionSettings(reserve_tokens=window // 4, keep_recent_tokens=window // 4),
        system_prompt="You are a careful coding agent.",
    )
    events = Events()
    agent.subscribe(events)
    for turn in turns:
        await agent.prompt(turn.prompt)
    return model, events, session


def check_run(model: RecordingModel, events: Events, session: Any, window: int) -> None:
    sizes = model.inner.requests
    assert sizes and max(sizes) <= window
    for messages in model.sent:
        assert_llm_paired(messages)
    assert not events.of(AgentError)
    stored = reopen(session).entries
    messages = [e for e in stored if e["type"] == "message"]
    assert [e["id"] for e in messages] == [e.entry_id for e in events.of(MessageEnd)]
    assistants = [e for e in messages if e["message"]["role"] == "assistant"]
    assert len(assistants) == len(sizes)
    compactions = [e for e in stored if e["type"] == "compaction"]
    assert [c["id"] for c in compactions] == [
        end.entry_id for end in events.of(CompactionEnd) if end.result is not None
    ]


def test_two_hundred_turns_in_a_small_window(tmp_path: Path) -> None:
    window = 32_000  # the recording needs ~570k tokens; smaller windows run in the slow tests
    model, events, session = asyncio.run(
        replay(tmp_path, seed=7, entries=2_400, window=window, max_turns=200)
    )
    prompts = [e for e in events.of(MessageEnd) if e.message["role"] == "user"]
    assert len(prompts) == 200
    check_run(model, events, session, window)
    compactions = [e for e in reopen(session).entries if e["type"] == "compaction"]
    assert len(compactions) >= 5


@given(seed=st.integers(0, 10_000), window=st.sampled_from([8_000, 12_000, 20_000]))
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_any_session_any_window_stays_inside(tmp_path: Path, seed: int, window: int) -> None:
    model, events, session = asyncio.run(replay(tmp_path, seed=seed, entries=300, window=window))
    check_run(model, events, session, window)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("window", [6_000, 10_000, 16_000])
def test_long_sessions_in_many_windows(tmp_path: Path, language: str, window: int) -> None:
    for seed in range(2):
        model, events, session = asyncio.run(
            replay(tmp_path, seed=seed, entries=2_400, window=window, language=language)
        )
        check_run(model, events, session, window)
        # Some tool results are larger than such a window allows: they were shortened on
        # the way out, and only there.
        assert any(
            OMISSION_MARK in block.get("text", "")
            for sent in model.sent
            for message in sent
            if message["role"] == "toolResult"
            for block in message["content"]
        )
        assert OMISSION_MARK not in session.file_path.read_text()


# --- the same over real HTTP -----------------------------------------------------------------


def scripted_agent(rng: random.Random, files: list[str]) -> Any:
    """Replies like an agent: a few tool calls after each prompt, then an answer."""

    def respond(request: RecordedRequest) -> Reply:
        since_user = 0
        for message in reversed(request.messages):
            if message["role"] == "user":
                break
            since_user += message["role"] == "tool"
        if since_user < rng.randrange(1, 4):
            path = rng.choice(files)
            return Reply(tool_calls=[ToolCall("read", {"path": path})])
        return Reply(text="Done: " + words(rng.randrange(10_000), rng.randrange(20, 120)))

    return respond


def test_a_long_run_over_http_stays_inside_and_paired(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    window = 12_000
    rng = random.Random(3)
    files = {f"f{i}.py": words(i, rng.randrange(50, 3_500)) for i in range(12)}
    llm_server.set_default(scripted_agent(rng, sorted(files)))
    session = new_session(tmp_path)
    agent = AgentSession(
        session,
        chat_model(llm_server, "openai", context_window=window),
        tools=[file_tool(files)],
        settings=CompactionSettings(reserve_tokens=3_000, keep_recent_tokens=2_000),
    )
    events = Events()
    agent.subscribe(events)

    async def drive() -> None:
        for turn in range(20):
            await agent.prompt(f"Step {turn}: look at the next file.")

    asyncio.run(drive())

    requests = agent_requests(llm_server)
    assert len(requests) > 40
    for request in requests:
        assert request_tokens(request) <= window
        assert_wire_paired(request)
    assert not events.of(AgentError)
    assert len([e for e in reopen(session).entries if e["type"] == "compaction"]) >= 3
