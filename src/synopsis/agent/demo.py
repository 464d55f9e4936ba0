"""The demo: a long recorded coding session replayed through the agent loop.

It shows compaction doing its job on realistic data with no model and no network: the
recorded prompts are sent one by one, a :class:`~synopsis.agent.replay.ReplayModel`
answers from the recording, the embedded summarizer writes every checkpoint, and the
report says whether the planted constraints and ids survived to the final context.

The recordings in ``demo_data/`` were made by the test suite's session generator
(``tests/synthetic``, not shipped); their headers list the facts planted in them.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from synopsis.agent.events import AgentEvent, CompactionEnd, MessageEnd
from synopsis.agent.replay import ReplayModel, recorded_turns, replay_tools
from synopsis.agent.session import AgentSession
from synopsis.agent.tools import Tool
from synopsis.compaction.serialize import serialize_conversation
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError
from synopsis.providers.base import ChatModel
from synopsis.session.entries import Entry
from synopsis.session.jsonl import parse_session
from synopsis.session.store import open_session
from synopsis.summarizers.base import Summarizer

DEMO_DATA = resources.files("synopsis.agent") / "demo_data"
DEMO_SEED = 7
DEMO_ENTRIES = 2400
DEMO_LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True)
class PlantedFact:
    """A fact planted in a recording, which the final context must still hold verbatim."""

    kind: str
    text: str
    entry_id: str


@dataclass(frozen=True, slots=True)
class Recording:
    header: dict[str, Any]
    entries: list[Entry]
    facts: list[PlantedFact]


def load_recording(language: str = "en", entries: int = DEMO_ENTRIES) -> Recording:
    """The first ``entries`` entries of the shipped recording for ``language``."""
    if language not in DEMO_LANGUAGES:
        raise SettingsError(
            f"unknown language {language!r}; use one of: {', '.join(DEMO_LANGUAGES)}"
        )
    if not 0 <= entries <= DEMO_ENTRIES:
        raise SettingsError(f"entries must be between 0 and {DEMO_ENTRIES}, got {entries}")
    data = gzip.decompress((DEMO_DATA / f"coding-{language}.jsonl.gz").read_bytes())
    loaded = parse_session(data, path=f"demo recording ({language})", strict=True)
    header: dict[str, Any] = dict(loaded.header or {})
    kept = loaded.entries[:entries]
    ids = {entry["id"] for entry in kept}
    planted: list[dict[str, Any]] = header.pop("demoFacts", [])
    facts = [
        PlantedFact(str(f["kind"]), str(f["text"]), str(f["entryId"]))
        for f in planted
        if f.get("entryId") in ids
    ]
    return Recording(header, kept, facts)


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
    entries: int = DEMO_ENTRIES,
    language: str = "en",
    settings: CompactionSettings | None = None,
    context_window: int = 100_000,
    model: ChatModel | None = None,
    summarizer: Summarizer | None = None,
    on_event: Callable[[AgentEvent], None] | None = None,
) -> DemoReport:
    """Replay ``entries`` entries of a recording into a new session file ``out``."""
    started = time.perf_counter()
    recording = load_recording(language, entries)
    turns = recorded_turns(recording.entries)
    replay = ReplayModel(
        [reply for turn in turns for reply in turn.replies], context_window=context_window
    )
    tools: list[Tool] = replay_tools(recording.entries)
    if out.exists():
        out.unlink()
    # A replay writes thousands of entries in seconds and can be run again: an fsync per
    # append (~4-6 ms on a virtual disk) would triple its time for nothing.
    session = open_session(
        out, create=True, cwd=str(recording.header.get("cwd", "")), durable=False
    )
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
