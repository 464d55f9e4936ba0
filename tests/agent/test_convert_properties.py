"""Whatever the history, what goes on the wire is a valid conversation for the provider."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.providers.anthropic import to_anthropic_messages
from synopsis.providers.base import prepare_for_provider
from synopsis.providers.openai import to_openai_messages
from tests.agent._support import assert_wire_paired
from tests.llm_server import RecordedRequest

_text = st.text(alphabet="abc xyz→é", min_size=0, max_size=12)


@st.composite
def histories(draw: st.DrawFn) -> list[Any]:
    """Agent histories with parallel calls, lost results, failed and aborted replies."""
    messages: list[Any] = []
    ids = iter(range(10_000))
    for _ in range(draw(st.integers(1, 5))):
        messages.append({"role": "user", "content": draw(_text) or "go"})
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["calls", "calls", "error", "aborted"]))
            calls = [
                {"type": "toolCall", "id": f"c{next(ids)}", "name": "t", "arguments": {"n": 1}}
                for _ in range(draw(st.integers(1, 3)))
            ]
            text = draw(_text)
            content = ([{"type": "text", "text": text}] if text else []) + calls
            if kind != "calls":
                messages.append({"role": "assistant", "content": content, "stopReason": kind})
                continue
            messages.append({"role": "assistant", "content": content, "stopReason": "toolUse"})
            for call in calls:
                if draw(st.booleans()) or draw(st.booleans()):  # some results are lost
                    messages.append(
                        {
                            "role": "toolResult",
                            "toolCallId": call["id"],
                            "toolName": "t",
                            "content": [{"type": "text", "text": draw(_text)}],
                            "isError": draw(st.booleans()),
                        }
                    )
        if draw(st.booleans()):
            messages.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": draw(_text) or "done"}],
                    "stopReason": "stop",
                }
            )
    return messages


def wire(path: str, messages: list[Any]) -> RecordedRequest:
    return RecordedRequest("POST", path, {}, b"", {"messages": messages})


@given(histories())
@settings(max_examples=150, deadline=None)
def test_openai_wire_pairs_every_call(history: list[Any]) -> None:
    sent = prepare_for_provider(history)
    converted = to_openai_messages("system", sent)
    assert converted[0] == {"role": "system", "content": "system"}
    assert_wire_paired(wire("/v1/chat/completions", converted))
    calls = [c["id"] for m in converted for c in m.get("tool_calls") or []]
    expected = [
        b["id"]
        for m in history
        if m["role"] == "assistant" and m["stopReason"] not in ("error", "aborted")
        for b in m["content"]
        if b["type"] == "toolCall"
    ]
    assert calls == expected


@given(histories())
@settings(max_examples=150, deadline=None)
def test_anthropic_wire_alternates_and_answers_every_call_at_once(history: list[Any]) -> None:
    converted = to_anthropic_messages(prepare_for_provider(history))
    assert converted[0]["role"] == "user"
    assert_wire_paired(wire("/v1/messages", converted))
    for message in converted:
        assert message["content"], message
