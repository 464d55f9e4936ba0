"""The last resort: shortening the largest tool results in a request that would not fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.agent.events import AgentError, CompactionEnd
from synopsis.agent.fitting import MIN_KEPT_TOKENS, fit_tool_results, fixed_request_tokens
from synopsis.agent.session import AgentSession
from synopsis.compaction.settings import CompactionSettings
from synopsis.providers.base import ToolSpec
from synopsis.tokens import estimate_tokens
from tests.agent._support import (
    Events,
    chat_model,
    file_tool,
    new_session,
    reopen,
    request_tokens,
    run,
    words,
)
from tests.llm_server import LLMServer, Reply, ToolCall

MARK = "characters of this tool result are left out"


def result(call_id: str, text: str, *, is_error: bool = False) -> Any:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "read",
        "content": [{"type": "text", "text": text}],
        "isError": is_error,
    }


def call(call_id: str) -> Any:
    return {
        "role": "assistant",
        "content": [{"type": "toolCall", "id": call_id, "name": "read", "arguments": {}}],
    }


def conversation(sizes: list[int]) -> list[Any]:
    messages: list[Any] = [{"role": "user", "content": "start"}]
    for index, size in enumerate(sizes):
        messages += [call(f"c{index}"), result(f"c{index}", words(index, size))]
    return messages


def total(messages: list[Any]) -> int:
    return sum(estimate_tokens(m) for m in messages)


def test_messages_that_fit_are_untouched() -> None:
    messages = conversation([50, 80])
    assert fit_tool_results(messages, total(messages)) == messages


def test_the_largest_results_are_cut_to_a_common_size() -> None:
    messages = conversation([40, 2_000, 60, 1_500])
    budget = total(messages) // 2
    fitted = fit_tool_results(messages, budget)
    assert total(fitted) <= budget
    assert fitted[2] == messages[2] and fitted[6] == messages[6]  # small ones are kept whole
    for index in (4, 8):
        text = fitted[index]["content"][0]["text"]
        original = messages[index]["content"][0]["text"]
        assert MARK in text
        head, _, tail = text.partition("\n\n[…")
        assert original.startswith(head) and len(head) > 100
        assert original.endswith(tail.split("…]\n\n", 1)[1])
        assert {k: v for k, v in fitted[index].items() if k != "content"} == {
            k: v for k, v in messages[index].items() if k != "content"
        }
    assert messages[4]["content"][0]["text"] == words(1, 2_000)  # the input is not changed


def test_when_nothing_can_make_it_fit_results_keep_the_minimum() -> None:
    messages = conversation([500, 500])
    fitted = fit_tool_results(messages, 1)
    for index in (2, 4):
        assert MARK in fitted[index]["content"][0]["text"]
        assert estimate_tokens(fitted[index]) <= MIN_KEPT_TOKENS + 1


@given(
    sizes=st.lists(st.integers(1, 3_000), min_size=1, max_size=8),
    share=st.floats(0.05, 1.5),
)
@settings(max_examples=80, deadline=None)
def test_fitted_requests_fit_whenever_they_can(sizes: list[int], share: float) -> None:
    messages = conversation(sizes)
    budget = int(total(messages) * share)
    fitted = fit_tool_results(messages, budget)
    floor = total([m for m in messages if m["role"] != "toolResult"]) + len(sizes) * (
        MIN_KEPT_TOKENS + 1
    )
    if budget >= floor:
        assert total(fitted) <= budget
    assert [m["role"] for m in fitted] == [m["role"] for m in messages]
    assert [m.get("toolCallId") for m in fitted] == [m.get("toolCallId") for m in messages]
    for before, after in zip(messages, fitted, strict=True):
        if before["role"] != "toolResult":
            assert after is before
        assert estimate_tokens(after) <= estimate_tokens(before) or MARK not in str(after)


def test_fixed_request_tokens_count_the_system_prompt_and_tools() -> None:
    assert fixed_request_tokens(None, []) == 0
    assert fixed_request_tokens("x" * 8, []) == 2
    tool = ToolSpec("read", "Read.", {"type": "object"})
    assert fixed_request_tokens(None, [tool]) == -(-(4 + 5 + len(str(tool.parameters))) // 4)


def test_a_tool_result_larger_than_the_window_is_shortened_only_in_the_request(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    window = 8_000
    huge = "BEGIN-MARKER " + words(5, 4_000) + " END-MARKER"  # ~10k tokens
    llm_server.enqueue(
        Reply(tool_calls=[ToolCall("read", {"path": "dump.log"}, "call_dump")]),
        Reply(text="The dump starts and ends as expected."),
    )
    session = new_session(tmp_path)
    agent = AgentSession(
        session,
        chat_model(llm_server, "openai", context_window=window),
        tools=[file_tool({"dump.log": huge})],
        settings=CompactionSettings(reserve_tokens=2_000, keep_recent_tokens=1_000),
    )
    events = Events()
    agent.subscribe(events)
    run(agent.prompt("Read dump.log."))

    assert not events.of(AgentError)
    _, second = llm_server.requests
    assert request_tokens(second) <= window
    [sent] = [m for m in second.messages if m["role"] == "tool"]
    assert sent["content"].startswith("BEGIN-MARKER") and sent["content"].endswith("END-MARKER")
    assert MARK in sent["content"]
    stored = [e["message"] for e in reopen(session).entries if e["type"] == "message"]
    assert stored[2]["content"][0]["text"] == huge  # the file keeps every character
    # Compaction said it could not get under the threshold with the result kept...
    stuck, *later = events.of(CompactionEnd)
    assert stuck.error is not None and "shortened" in stuck.error
    # ...and once the turn was over, the next compaction summarized the dump away.
    assert later and later[-1].error is None
    assert agent.context_tokens().tokens < agent.threshold
