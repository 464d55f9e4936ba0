"""The demo: a long generated coding session replayed through the agent loop.

It shows compaction doing its job on realistic data with no model and no network: the
recorded prompts are sent one by one, a :class:`~synopsis.agent.replay.ReplayModel`
answers from the recording, the embedded summarizer writes every checkpoint, and the
report says whether the planted constraints and ids survived to the final context.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synopsis.agent.events import AgentEvent, CompactionEnd, MessageEnd
from synopsis.agent.model import ChatModel, Tool
from synopsis.agent.replay import ReplayModel, recorded_turns, replay_tools
from synopsis.agent.session import AgentSession
from synopsis.compaction.serialize import serialize_conversation
from synopsis.compaction.settings import CompactionSettings
from synopsis.generate import PlantedFact, generate_session
from synopsis.session.store import open_session
from synopsis.summarizers.base import Summarizer


@dataclass(slots=True)
class DemoReport:
    session_path: Path
    prompts: int = 0
    model_calls: int = 0
    compactions: list[CompactionEnd] = field(default_factory=list)
    peak_context: int = 0
    final_context: int = 0
    context_window: int = 0
    recorded_tokens: int = 0
    """What the whole recording would need without compaction (estimated)."""
    facts: list[tuple[PlantedFact, bool]] = field(default_factory=list)
    seconds: float = 0.0


async def run_demo(
    out: Path,
    *,
    seed: int = 7,
    entries: int = 2400,
    language: str = "en",
    settings: CompactionSettings | None = None,
    context_window: int = 100_000,
    model: ChatModel | None = None,
    summarizer: Summarizer | None = None,
    on_event: Callable[[AgentEvent], None] | None = None,
) -> DemoReport:
    """Replay a generated session of ``entries`` entries into a new session file ``out``."""
    started = time.perf_counter()
    recording = generate_session(seed, entries, language=language)
    turns = recorded_turns(recording.entries)
    replay = ReplayModel(
        [reply for turn in turns for reply in turn.replies], context_window=context_window
    )
    tools: list[Tool] = replay_tools(recording.entries)
    if out.exists():
        out.unlink()
    session = open_session(out, create=True, cwd=str(recording.header.get("cwd", "")))
    agent = AgentSession(
        session,
        model or replay,
        tools=tools,
        settings=settings,
        summarizer=summarizer,
        system_prompt="You are a careful coding agent working in a real repository.",
    )
    report = DemoReport(out, context_window=context_window)

    def record(event: AgentEvent) -> None:
        if isinstance(event, CompactionEnd):
            report.compactions.append(event)
        elif isinstance(event, MessageEnd) and event.message.get("role") == "assistant":
            report.model_calls += 1
            usage: Any = event.message.get("usage") or {}
            report.peak_context = max(report.peak_context, int(usage.get("input", 0) or 0))
        if on_event is not None:
            on_event(event)

    agent.subscribe(record)
    for turn in turns:
        await agent.prompt(turn.prompt)
        report.prompts += 1
    final = agent.llm_messages()
    report.final_context = agent.context_tokens().tokens
    final_text = serialize_conversation(final)
    report.facts = [(fact, fact.text in final_text) for fact in recording.facts]
    last_usage: Any = turns[-1].replies[-1].get("usage") or {} if turns else {}
    report.recorded_tokens = int(last_usage.get("totalTokens", 0) or 0)
    report.seconds = time.perf_counter() - started
    return report
