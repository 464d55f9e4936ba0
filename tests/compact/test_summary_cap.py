"""A summary cap is a cap: the checkpoint message, and with ``max_context_tokens`` the whole
returned list, fit the numbers the caller gave — split turns, guard additions, wrapper and
file lists included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.compaction.messages_api import compact_messages_sync
from synopsis.state.guard import without_empty_sections


def _tokens(text: str) -> int:
    return -(-len(text) // 4)


def _list_tokens(messages: list[dict[str, Any]]) -> int:
    total = 0
    for message in messages:
        total += _tokens(str(message.get("content") or ""))
        for call in message.get("tool_calls") or ():
            total += _tokens(call["function"]["name"] + call["function"]["arguments"])
    return total


def _call(n: str) -> dict[str, Any]:
    arguments = json.dumps({"command": f"ls /srv/{n}"})
    return {"id": f"c{n}", "type": "function", "function": {"name": "bash", "arguments": arguments}}


def chat(lines: list[str], filler: str, split_turn: bool = False) -> list[dict[str, Any]]:
    """A chat in which every user line states something, then a long tool loop."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You help with ops work."}]
    for n, line in enumerate(lines):
        messages.append({"role": "user", "content": line})
        for step in range(4):
            call = f"{n}-{step}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [_call(call)]})
            messages.append({"role": "tool", "tool_call_id": f"c{call}", "content": filler * 6})
        if not split_turn:
            messages.append({"role": "assistant", "content": f"Noted ({n})."})
    return messages


ENGLISH = [
    "The staging host is stg-db-07.internal and production is prd-db-02.internal.",
    "Never restart the primary during business hours.",
    "The change window is Thursday 22:00 to 23:30 UTC, ticket OPS-5521.",
    "Keep the old replica until the migration report is signed off by Marta.",
    "Budget for the new instance is 640 dollars a month, no more.",
    "Use the eu-north-1 region only; our contract forbids copies elsewhere.",
]
CHINESE = [
    "测试环境的数据库是 qa-mysql-3，正式环境是 prod-mysql-9。",
    "不要在工作日白天重启主库。",
    "变更窗口是周四晚上十点到十一点半，工单号 BG-77310。",
    "旧的备库先别删，等王芳确认迁移报告以后再说。",
    "新实例的预算是每月 4500 元，不能超。",
]


@pytest.mark.parametrize("lines", [ENGLISH, CHINESE], ids=["en", "zh"])
@pytest.mark.parametrize("split_turn", [False, True], ids=["whole-turns", "split-turn"])
def test_the_checkpoint_and_the_context_fit_their_caps(lines: list[str], split_turn: bool) -> None:
    messages = chat(lines, "line of tool output 0123456789\n", split_turn)
    total = _list_tokens(messages)
    for share in (0.15, 0.10):
        cap, whole = int(share * total), int((share + 0.05) * total)
        out = compact_messages_sync(
            messages,
            keep_recent_tokens=int(0.05 * total),
            summary_max_tokens=cap,
            max_context_tokens=whole,
        )
        assert out.compacted
        checkpoint = out.messages[1]["content"]
        assert "<checkpoint>" in checkpoint
        assert _tokens(checkpoint) <= cap, (share, _tokens(checkpoint), cap)
        assert _list_tokens(out.messages) <= whole + 4, (share, _list_tokens(out.messages), whole)


def test_without_a_context_cap_the_summary_cap_alone_holds() -> None:
    messages = chat(ENGLISH, "x" * 30 + "\n")
    out = compact_messages_sync(messages, keep_recent_tokens=100, summary_max_tokens=300)
    assert _tokens(out.messages[1]["content"]) <= 300


def test_empty_sections_go_and_nothing_stated_goes_with_them() -> None:
    text = (
        "## Goal\n- Ship the export\n\n## Constraints & Preferences\n- (none)\n\n"
        "## Progress\n### Done\n- (none)\n\n### In Progress\n- Working on: export\n\n"
        "### Blocked\n- (none)\n\n## Critical Context\n- (none)\n- port: 6543\n\n"
        "---\n\n## Earlier in the current turn (kept part follows)\n\n"
        "## Original Request\n- (none)\n\n## Early Progress\n- (none)\n"
    )
    short = without_empty_sections(text)
    assert "(none)" not in short
    for kept in ("## Goal", "- Ship the export", "## Progress", "### In Progress", "- port: 6543"):
        assert kept in short
    for gone in ("### Done", "### Blocked", "## Constraints", "---", "Earlier in the current"):
        assert gone not in short
    # a split part with something in it keeps its separator and heading
    with_prefix = text.replace("## Early Progress\n- (none)", "## Early Progress\n- ran tests")
    kept_prefix = without_empty_sections(with_prefix)
    assert "---" in kept_prefix and "Earlier in the current turn" in kept_prefix
    assert "- ran tests" in kept_prefix


def test_a_cap_below_the_rules_keeps_the_rules() -> None:
    messages = chat(ENGLISH, "x" * 30 + "\n")
    out = compact_messages_sync(messages, keep_recent_tokens=50, summary_max_tokens=20)
    checkpoint = out.messages[1]["content"]
    assert "Never restart the primary during business hours." in checkpoint


LAST_REQUEST = (
    "Now draft the customer letter about the outage: apologise, give the timeline from "
    "the incident notes, promise the credit, and sign it as the on-call team. "
) * 6


@pytest.mark.parametrize("lines", [ENGLISH, CHINESE], ids=["en", "zh"])
def test_a_last_message_larger_than_the_context_cap_is_summarized_too(lines: list[str]) -> None:
    """Keeping it verbatim would pass the cap the caller set: it goes into the checkpoint,
    which states it as the open request."""
    messages = [*chat(lines, "x" * 30 + "\n"), {"role": "user", "content": LAST_REQUEST}]
    whole = _tokens(LAST_REQUEST) + 40
    out = compact_messages_sync(
        messages, keep_recent_tokens=50, summary_max_tokens=whole - 20, max_context_tokens=whole
    )
    assert out.compacted and out.kept == []
    assert _list_tokens(out.messages) <= whole + 4
    assert "customer letter" in out.messages[1]["content"]


def test_rules_that_cannot_go_take_the_room_of_the_kept_part() -> None:
    """A context cap the rules alone nearly fill: the kept messages give way, not the rules."""
    messages = chat(ENGLISH, "x" * 30 + "\n")
    rules_only = compact_messages_sync(messages, keep_recent_tokens=50, summary_max_tokens=20)
    floor = _tokens(rules_only.messages[1]["content"])  # the smallest checkpoint there is
    whole = floor + 30
    out = compact_messages_sync(
        messages, keep_recent_tokens=200, summary_max_tokens=whole, max_context_tokens=whole
    )
    assert _list_tokens(out.messages) <= whole + 4, (_list_tokens(out.messages), whole)
    assert "Never restart the primary during business hours." in out.messages[1]["content"]


def _reading(lines: list[str], files: int) -> list[dict[str, Any]]:
    """``chat`` with ``files`` source files read first: the file lists the checkpoint ends
    with take part of the cap."""
    messages = chat(lines, "line of tool output 0123456789\n")
    reads: list[dict[str, Any]] = []
    for n in range(files):
        path = f"services/billing/src/handlers/invoice_export_step_{n:02d}.py"
        arguments = json.dumps({"path": path})
        tool_call = {
            "id": f"r{n}",
            "type": "function",
            "function": {"name": "read", "arguments": arguments},
        }
        reads.append({"role": "assistant", "content": None, "tool_calls": [tool_call]})
        reads.append({"role": "tool", "tool_call_id": f"r{n}", "content": f"def step_{n}(): ..."})
    return [messages[0], messages[1], *reads, *messages[2:]]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([ENGLISH, CHINESE]),
    st.integers(1, 6),
    st.booleans(),
    st.integers(0, 12),
    st.floats(0.04, 0.3),
)
def test_the_cap_holds_for_any_share_with_file_lists_and_split_turns(
    lines: list[str], count: int, split_turn: bool, files: int, share: float
) -> None:
    """Whatever the cap, the checkpoint message (guard additions and file lists included)
    fits it, unless the rules alone pass it — then it holds the rules and no more."""
    messages = chat(lines[:count], "line of tool output 0123456789\n", split_turn)
    if files:
        messages = _reading(lines[:count], files)
    total = _list_tokens(messages)
    cap = max(20, int(share * total))
    out = compact_messages_sync(
        messages, keep_recent_tokens=int(0.05 * total), summary_max_tokens=cap
    )
    assert out.compacted
    checkpoint = out.messages[1]["content"]
    floor = compact_messages_sync(
        messages, keep_recent_tokens=int(0.05 * total), summary_max_tokens=1
    )
    smallest = _tokens(floor.messages[1]["content"])  # the rules and the wrapper alone
    assert _tokens(checkpoint) <= max(cap, smallest), (cap, _tokens(checkpoint), smallest)


@pytest.mark.parametrize("lines", [ENGLISH, CHINESE], ids=["en", "zh"])
def test_under_a_cap_no_room_goes_to_the_placeholders_of_empty_sections(lines: list[str]) -> None:
    """A split turn's early part often has nothing to say under most of its headings; with
    a cap, "- (none)" lines and their headings would take room from the history's facts."""
    messages = chat(lines, "line of tool output 0123456789\n", split_turn=True)
    total = _list_tokens(messages)
    out = compact_messages_sync(
        messages, keep_recent_tokens=int(0.05 * total), summary_max_tokens=int(0.5 * total)
    )
    checkpoint = out.messages[1]["content"]
    assert "Earlier in the current turn" in checkpoint  # the case this is about
    assert "(none)" not in checkpoint
    free = compact_messages_sync(messages, keep_recent_tokens=int(0.05 * total))
    assert "(none)" in free.messages[1]["content"]  # without a cap the layout stays whole
