"""compact_messages: the same cut rules on OpenAI- and Anthropic-format message lists."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from synopsis.compaction.chat_format import ChatFormatError
from synopsis.compaction.messages_api import compact_messages, compact_messages_sync
from synopsis.messages import DEFAULT_WRAPPING
from synopsis.summarizers.base import SummaryKind, SummaryRequest, SummaryResult


class Recorder:
    def __init__(self) -> None:
        self.requests: list[SummaryRequest] = []

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.requests.append(request)
        return SummaryResult(f"summary #{len(self.requests)}")


def openai_history(turns: int, body: int = 800) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are helpful."}]
    for n in range(turns):
        messages.append({"role": "user", "content": f"task {n} " + "u" * body})
        call = {
            "id": f"c{n}",
            "type": "function",
            "function": {"name": "read", "arguments": json.dumps({"path": f"f{n}.py"})},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": "x" * body})
        messages.append({"role": "assistant", "content": f"done {n}"})
    return messages


def _paired(messages: list[dict[str, Any]]) -> bool:
    seen: set[str] = set()
    for message in messages:
        for call in message.get("tool_calls") or []:
            seen.add(call["id"])
        if message.get("role") == "tool" and message["tool_call_id"] not in seen:
            return False
    return True


def test_openai_list_is_cut_safely_and_kept_untouched() -> None:
    history = openai_history(10)
    recorder = Recorder()
    out = asyncio.run(compact_messages(history, summarizer=recorder, keep_recent_tokens=600))
    assert out.compacted
    assert out.messages[0] == history[0]  # the system prompt stays first
    checkpoint = out.messages[1]
    assert checkpoint["role"] == "system"  # OpenAI lists: background, after the system prompt
    assert checkpoint["content"] == DEFAULT_WRAPPING.wrap_compaction(out.summary or "")
    assert out.messages[2:] == out.kept
    tail = history[-len(out.kept) :]
    assert all(kept is original for kept, original in zip(out.kept, tail, strict=True))
    assert out.kept[0]["role"] != "tool"
    assert _paired(out.kept)
    assert "read(path=" in recorder.requests[0].conversation
    assert "f0.py" in (out.summary or "")
    assert out.tokens_after < out.tokens_before


def test_repeated_compaction_on_its_own_output_updates_the_summary() -> None:
    first = compact_messages_sync(openai_history(10), summarizer=Recorder(), keep_recent_tokens=600)
    grown = first.messages + openai_history(6)[1:]
    recorder = Recorder()
    second = compact_messages_sync(
        grown, summarizer=recorder, keep_recent_tokens=600, previous_summary=first.summary
    )
    request = recorder.requests[0]
    assert request.kind is SummaryKind.UPDATE
    assert request.previous_summary == first.summary
    # The old checkpoint message is not summarized again as conversation.
    assert "summary #1" not in request.conversation
    assert second.messages[0]["role"] == "system"
    assert (
        sum(
            1
            for m in second.messages
            if m.get("role") == "system"
            and str(m.get("content", "")).startswith(DEFAULT_WRAPPING.compaction_prefix)
        )
        == 1
    )


def test_nothing_to_compact_returns_the_list_unchanged() -> None:
    history = openai_history(1, body=10)
    out = compact_messages_sync(history, summarizer=Recorder(), keep_recent_tokens=50_000)
    assert not out.compacted
    assert out.messages == history


def anthropic_history(turns: int, body: int = 800) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for n in range(turns):
        text = {"type": "text", "text": f"task {n} " + "u" * body}
        if messages:
            result = {"type": "tool_result", "tool_use_id": f"t{n - 1}", "content": "y" * body}
            messages.append({"role": "user", "content": [result, text]})
        else:
            messages.append({"role": "user", "content": [text]})
        use = {"type": "tool_use", "id": f"t{n}", "name": "edit", "input": {"path": f"g{n}.ts"}}
        messages.append({"role": "assistant", "content": [{"type": "text", "text": "ok"}, use]})
    return messages


def test_anthropic_list_never_keeps_a_result_without_its_call() -> None:
    history = anthropic_history(12)
    out = compact_messages_sync(
        history, summarizer=Recorder(), keep_recent_tokens=700, format="anthropic"
    )
    assert out.compacted
    assert out.messages[0]["content"][0]["text"].startswith(DEFAULT_WRAPPING.compaction_prefix)
    kept_uses = set()
    for message in out.kept:
        for block in message["content"]:
            if block["type"] == "tool_use":
                kept_uses.add(block["id"])
            if block["type"] == "tool_result":
                assert block["tool_use_id"] in kept_uses
    assert "g0.ts" in (out.summary or "")


def test_unknown_role_and_format_are_clear_errors() -> None:
    with pytest.raises(ChatFormatError, match="unknown OpenAI chat role"):
        compact_messages_sync([{"role": "wizard", "content": "x"}], summarizer=Recorder())
    with pytest.raises(ChatFormatError, match="unknown chat format"):
        compact_messages_sync([], summarizer=Recorder(), format="gemini")  # type: ignore[arg-type]


def test_checkpoint_as_a_system_message() -> None:
    first = compact_messages_sync(
        openai_history(10),
        summarizer=Recorder(),
        keep_recent_tokens=600,
        checkpoint_role="system",
    )
    assert [m["role"] for m in first.messages[:2]] == ["system", "system"]
    assert first.messages[1]["content"] == DEFAULT_WRAPPING.wrap_compaction(first.summary or "")
    again = compact_messages_sync(
        first.messages + openai_history(6)[1:],
        summarizer=Recorder(),
        keep_recent_tokens=600,
        previous_summary=first.summary,
        checkpoint_role="system",
    )
    checkpoints = [
        m
        for m in again.messages
        if str(m.get("content", "")).startswith(DEFAULT_WRAPPING.compaction_prefix)
    ]
    assert len(checkpoints) == 1 and checkpoints[0]["role"] == "system"
    with pytest.raises(ChatFormatError, match="no system role"):
        compact_messages_sync(
            anthropic_history(3),
            summarizer=Recorder(),
            format="anthropic",
            checkpoint_role="system",
        )
