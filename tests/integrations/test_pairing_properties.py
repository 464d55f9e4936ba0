"""Invariants of the integrations on generated tool loops (parallel calls, mixed turns).

For pydantic-ai histories and Agents SDK sessions of random shape: a compacted view never
holds a tool result without its call, keeps a suffix of the original messages as the
very same objects (or equal items), loses nothing from the full history, and does not
change the input.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.integrations._checks import chunk_text, paired

pytest.importorskip("pydantic_ai")
pytest.importorskip("agents")

from agents import SQLiteSession
from pydantic_ai.messages import (
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from synopsis.integrations.openai_agents import CompactingSession
from synopsis.integrations.pydantic_ai import SynopsisHistoryProcessor, full_history

WINDOW = 3000
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A turn: the user's text, then steps of (parallel calls, whether the returns arrive
# with new user text), then maybe a closing answer.
turns = st.lists(
    st.tuples(
        st.integers(1, 600),  # user text size
        st.lists(st.tuples(st.integers(1, 3), st.booleans()), max_size=5),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)


def pydantic_history(shape: list[Any]) -> list[Any]:
    messages: list[Any] = []
    n = 0
    for turn, (size, steps, answer) in enumerate(shape):
        parts: list[Any] = [UserPromptPart(f"turn {turn} " + "u" * size)]
        if turn == 0:
            parts.insert(0, SystemPromptPart("You read reports."))
        messages.append(ModelRequest(parts=parts))
        for width, with_text in steps:
            calls = [
                ToolCallPart("read_chunk", {"n": n + k}, tool_call_id=f"c{n + k}")
                for k in range(width)
            ]
            messages.append(ModelResponse(parts=[TextPart("reading"), *calls]))
            returns: list[Any] = [
                ToolReturnPart("read_chunk", chunk_text(n + k), tool_call_id=f"c{n + k}")
                for k in range(width)
            ]
            if with_text:
                returns.append(UserPromptPart("and hurry"))
            messages.append(ModelRequest(parts=returns))
            n += width
        if answer:
            messages.append(ModelResponse(parts=[TextPart(f"done with turn {turn}")]))
    if isinstance(messages[-1], ModelResponse):
        messages.append(ModelRequest(parts=[UserPromptPart("next")]))
    return messages


def pydantic_events(messages: list[Any]) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                seen.append(("call", part.tool_call_id))
            elif isinstance(part, ToolReturnPart):
                seen.append(("result", part.tool_call_id))
    return seen


def dump(messages: list[Any]) -> Any:
    return ModelMessagesTypeAdapter.dump_python(messages, mode="json")


@PROPERTY
@given(turns, st.integers(2, 4))
def test_pydantic_ai_processor_keeps_pairs_and_the_full_history(shape: Any, rounds: int) -> None:
    processor = SynopsisHistoryProcessor(context_window=WINDOW)
    original = pydantic_history(shape)
    history: list[Any] = []
    # Feed the history in growing prefixes, as the agent loop does between requests.
    for end in sorted({max(1, len(original) * (r + 1) // rounds) for r in range(rounds)}):
        grown = [*history, *original[len(full_history(history)) : end]]
        before = dump(grown)
        out = asyncio.run(processor(grown))
        assert dump(grown) == before  # nothing changed in place
        assert paired(pydantic_events(out))
        event("compacted" if out is not grown else "unchanged")
        if out is not grown:  # compacted: a checkpoint request, then a suffix, untouched
            assert all(
                a is b for a, b in zip(out[1:], grown[len(grown) - len(out) + 1 :], strict=True)
            )
        assert dump(full_history(out)) == dump(original[:end])
        assert any(isinstance(p, SystemPromptPart) for p in out[0].parts)
        history = out


def agents_items(shape: list[Any]) -> list[list[dict[str, Any]]]:
    """Runs of Responses items: each turn is one run's new items."""
    runs: list[list[dict[str, Any]]] = []
    n = 0
    for turn, (size, steps, answer) in enumerate(shape):
        items: list[dict[str, Any]] = [{"role": "user", "content": f"turn {turn} " + "u" * size}]
        for width, with_reasoning in steps:
            if with_reasoning:
                items.append({"type": "reasoning", "id": f"rs_{n}", "summary": []})
            for k in range(width):
                items.append(
                    {
                        "type": "function_call",
                        "call_id": f"call_{n + k}",
                        "name": "read_chunk",
                        "arguments": f'{{"n": {n + k}}}',
                    }
                )
            for k in range(width):
                items.append(
                    {
                        "type": "function_call_output",
                        "call_id": f"call_{n + k}",
                        "output": chunk_text(n + k),
                    }
                )
            n += width
        if answer:
            items.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": f"done {turn}", "annotations": []}],
                }
            )
        runs.append(items)
    return runs


def agents_events(items: list[Any]) -> list[tuple[str, str]]:
    kinds = {"function_call": "call", "function_call_output": "result"}
    return [(kinds[i["type"]], i["call_id"]) for i in items if i.get("type") in kinds]


@PROPERTY
@given(turns)
def test_compacting_session_keeps_pairs_and_every_item(shape: Any) -> None:
    runs = agents_items(shape)

    async def scenario() -> None:
        store = SQLiteSession("s")
        session = CompactingSession(store, context_window=WINDOW)
        added: list[dict[str, Any]] = []
        for items in runs:
            view = await session.get_items()  # the start of a run
            assert paired(agents_events(view))
            event("compacted" if view and view[0] not in added else "unchanged")
            tail = view[1:] if view and view[0] not in added else view
            assert tail == added[len(added) - len(tail) :]
            fresh = CompactingSession(store, context_window=WINDOW)
            assert await fresh.get_items() == view
            await session.add_items(copy.deepcopy(items))
            added.extend(items)
            assert await session.full_history() == added
            assert await session.get_items(2) == added[-2:]

    asyncio.run(scenario())
