"""Cut points: where the kept part may start, the keep budget, split turns (Pi 1.6's cut)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from synopsis.compaction import CutPoint, find_cut_point, find_turn_start, is_cut_point
from synopsis.compaction.cut_points import is_turn_start
from synopsis.session import open_session
from synopsis.tokens import estimate_tokens
from tests.session.builders import (
    Chain,
    assistant,
    bash,
    call,
    custom,
    tool_result,
    user,
)

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pi"


def tokens_of(chain: Chain, *entry_ids: str) -> int:
    return sum(estimate_tokens(chain.entries[chain.index(i)]["message"]) for i in entry_ids)


def cut(chain: Chain, keep: int, **options: Any) -> CutPoint:
    return find_cut_point(chain.entries, 0, len(chain.entries), keep, **options)


# --- what may start the kept part ---------------------------------------------------------


def _one(kind: str) -> dict[str, Any]:
    chain = Chain()
    builders = {
        "user": lambda: chain.message(user("u")),
        "assistant": lambda: chain.message(assistant("a")),
        "toolResult": lambda: chain.message(tool_result("c", "r")),
        "bashExecution": lambda: chain.message(bash("ls", "")),
        "custom role": lambda: chain.message(custom("c")),
        "compactionSummary role": lambda: chain.message(
            {"role": "compactionSummary", "summary": "s", "tokensBefore": 1}
        ),
        "custom_message": lambda: chain.custom_message("m"),
        "branch_summary": lambda: chain.branch_summary("went elsewhere"),
        "empty branch_summary": lambda: chain.branch_summary(""),
        "compaction": lambda: chain.compaction("x"),
        "model_change": lambda: chain.model_change("p", "m"),
        "thinking_level_change": lambda: chain.thinking("high"),
        "label": lambda: chain.label("x", "l"),
        "custom": lambda: chain.custom(),
        "session_info": lambda: chain.session_info("n"),
    }
    builders[kind]()
    return chain.entries[0]


CUT_POINTS = {
    "user",
    "assistant",
    "bashExecution",
    "custom role",
    "compactionSummary role",
    "custom_message",
    "branch_summary",
}
TURN_STARTS = {
    "user",
    "bashExecution",
    "custom role",
    "compactionSummary role",
    "custom_message",
    "branch_summary",
}
KINDS = sorted(
    [
        *CUT_POINTS,
        "toolResult",
        "empty branch_summary",
        "compaction",
        "model_change",
        "thinking_level_change",
        "label",
        "custom",
        "session_info",
    ]
)


@pytest.mark.parametrize("kind", KINDS)
def test_cut_points_and_turn_starts(kind: str) -> None:
    entry = _one(kind)
    assert is_cut_point(entry) == (kind in CUT_POINTS)
    assert is_turn_start(entry) == (kind in TURN_STARTS)


def test_turn_start_search_walks_back_to_start_only() -> None:
    chain = Chain()
    chain.message(user("q"))  # 0
    chain.message(assistant("", calls=[call("c1", "ls", {})]))  # 1
    chain.message(tool_result("c1", "out"))  # 2
    chain.message(assistant("done"))  # 3
    assert find_turn_start(chain.entries, 3, 0) == 0
    assert find_turn_start(chain.entries, 3, 1) == -1
    assert find_turn_start(chain.entries, 0, 0) == 0


# --- the budget walk ----------------------------------------------------------------------


def test_no_cut_point_keeps_from_start() -> None:
    chain = Chain()
    chain.model_change("p", "m")
    chain.message(tool_result("c", "orphan output"))
    assert cut(chain, 10) == CutPoint(0, -1, False)
    assert find_cut_point(chain.entries, 1, 2, 10) == CutPoint(1, -1, False)


def test_small_conversation_is_kept_whole() -> None:
    chain = Chain()
    for n in range(10):
        chain.message(user(f"question {n}"))
        chain.message(assistant(f"answer {n}"))
    assert cut(chain, 2500) == CutPoint(0, -1, False)
    assert cut(chain, 50_000) == CutPoint(0, -1, False)


def test_single_assistant_entry() -> None:
    chain = Chain()
    chain.message(assistant("alone"))
    assert cut(chain, 1000).first_kept_index == 0


def test_budget_reached_cuts_at_the_next_user_message() -> None:
    chain = Chain()
    chain.message(user("x" * 400))  # 0: 100 tokens
    chain.message(assistant("y" * 400))  # 1
    chain.message(user("z" * 400))  # 2
    chain.message(assistant("w" * 400))  # 3
    assert cut(chain, 200) == CutPoint(2, -1, False)  # 3 + 2 reach 200 exactly at 2
    assert cut(chain, 201) == CutPoint(1, 0, True)  # runs out on the first answer
    assert cut(chain, 1) == CutPoint(3, 2, True)


def test_a_real_split_turn() -> None:
    chain = Chain()
    chain.message(user("earlier question"))  # 0
    chain.message(assistant("earlier answer"))  # 1
    turn = chain.message(user("mend the fence"))  # 2
    chain.message(assistant("", calls=[call("c1", "read", {"path": "fence.md"})]))  # 3
    chain.message(tool_result("c1", "post " * 800))  # 4: 1000 tokens
    a3 = chain.message(assistant("", calls=[call("c2", "read", {"path": "gate.md"})]))  # 5
    r2 = chain.message(tool_result("c2", "hinge " * 700))  # 6
    a4 = chain.message(assistant("both mended"))  # 7
    keep = tokens_of(chain, a4, r2) + 1  # runs out on the assistant at 5
    result = cut(chain, keep)
    assert result == CutPoint(chain.index(a3), chain.index(turn), True)


def test_huge_trailing_tool_result_cuts_at_the_last_cut_point() -> None:
    """D3: no cut point after the budget point → the last one, not "keep everything"."""
    chain = Chain()
    chain.message(user("hi"))  # 0
    chain.message(assistant("hello"))  # 1
    chain.message(user("dump the logs"))  # 2
    chain.message(assistant("", calls=[call("c1", "bash", {"command": "cat big.log"})]))  # 3
    chain.message(tool_result("c1", "log line\n" * 5000, name="bash"))  # 4
    assert cut(chain, 2000) == CutPoint(3, 2, True)


def test_custom_messages_and_branch_summaries_count_in_the_walk() -> None:
    """D6: they are in the context, so they use up the keep budget."""
    chain = Chain()
    chain.message(user("q1"))  # 0
    chain.message(assistant("a1"))  # 1
    chain.custom_message("note " * 800)  # 2: 1000 tokens
    chain.message(user("q2"))  # 3
    chain.message(assistant("a2"))  # 4
    assert cut(chain, 500) == CutPoint(2, -1, False)

    summary = Chain()
    summary.message(user("q1"))
    summary.message(assistant("a1"))
    summary.branch_summary("tried " * 800)
    summary.message(user("q2"))
    assert cut(summary, 500) == CutPoint(2, -1, False)


def test_compaction_entries_count_nothing_in_the_walk() -> None:
    chain = Chain()
    first = chain.message(user("q1"))  # 0
    chain.message(assistant("a1"))  # 1
    chain.compaction(first, summary="s" * 40_000)  # 2
    chain.message(user("q2"))  # 3
    chain.message(assistant("a2"))  # 4
    assert cut(chain, 500) == CutPoint(0, -1, False)


# --- what counts as a split: the entry the cut lands on decides -------------------------


def _turn_then(kind: str) -> tuple[Chain, int]:
    """A turn, then a big entry of ``kind`` the cut will land on, then a big tail."""
    chain = Chain()
    chain.message(user("start"))
    chain.message(assistant("sure"))
    big = "b" * 4000
    if kind == "bashExecution":
        target = chain.message(bash("make", big))
    elif kind == "custom_message":
        target = chain.custom_message(big)
    elif kind == "branch_summary":
        target = chain.branch_summary(big)
    elif kind == "custom role":
        target = chain.message(custom(big))
    else:
        target = chain.message(assistant(big))
    chain.message(assistant("t" * 4000))
    return chain, chain.index(target)


@pytest.mark.parametrize(
    ("kind", "split"),
    [
        ("bashExecution", False),
        ("custom_message", False),
        ("branch_summary", False),
        ("custom role", False),  # a migrated hookMessage: a turn start in Pi 1.6
        ("assistant", True),
    ],
)
def test_split_is_decided_by_the_entry_the_cut_lands_on(kind: str, split: bool) -> None:
    chain, target = _turn_then(kind)
    result = cut(chain, 1500)
    assert result.first_kept_index == target
    assert result.is_split_turn is split
    assert result.turn_start_index == (0 if split else -1)


def test_metadata_just_before_the_cut_is_kept_with_it() -> None:
    chain = Chain()
    chain.message(user("q1"))  # 0
    chain.message(assistant("a1"))  # 1
    chain.model_change("acme", "acme-small")  # 2
    chain.thinking("low")  # 3
    chain.label("e01", "first")  # 4
    chain.custom_message("a hint")  # 5
    chain.branch_summary("an aside")  # 6
    chain.session_info("name")  # 7
    chain.message(user("q" * 4000))  # 8
    chain.message(assistant("a2"))  # 9
    # The step back passes over metadata but stops at entries with messages (the branch
    # summary); the entry the cut lands on decides: a label is no turn start, so the turn
    # that the branch summary opened is split.
    result = cut(chain, 900)
    assert result == CutPoint(7, 6, True)


def test_the_backward_step_stops_at_a_compaction() -> None:
    chain = Chain()
    first = chain.message(user("q1"))  # 0
    chain.compaction(first)  # 1
    chain.model_change("acme", "acme-small")  # 2
    chain.message(user("q" * 4000))  # 3
    assert cut(chain, 900) == CutPoint(2, 0, True)


def test_metadata_before_a_split_cut_does_not_make_it_a_turn_start() -> None:
    chain = Chain()
    chain.message(user("q"))  # 0
    chain.message(assistant("a" * 400))  # 1
    chain.thinking("high")  # 2
    chain.message(assistant("b" * 4000))  # 3
    assert cut(chain, 900) == CutPoint(2, 0, True)


# --- message counts ------------------------------------------------------------


def test_keep_recent_messages_counts_messages() -> None:
    chain = Chain()
    for n in range(4):
        chain.message(user(f"q{n}"))
        chain.message(assistant("", calls=[call(f"c{n}", "ls", {})]))
        chain.message(tool_result(f"c{n}", "x" * 8000))
        chain.message(assistant(f"a{n}"))
    # the last 3 messages: the call's result and the answer, then the call itself
    result = cut(chain, 0, keep_recent_messages=3)
    assert result == CutPoint(13, 12, True)
    assert cut(chain, 0, keep_recent_messages=4) == CutPoint(12, -1, False)
    # landing on a result moves forward to the next cut point, never onto the result
    assert cut(chain, 0, keep_recent_messages=2).first_kept_index == 15


@pytest.mark.skipif(
    not (FIXTURES / "sessions" / "large-session.jsonl").exists(), reason="fixture absent"
)
def test_cut_on_a_recorded_session_lands_on_a_conversation_message() -> None:
    session = open_session(FIXTURES / "sessions" / "large-session.jsonl")
    branch = session.path()
    result = find_cut_point(branch, 0, len(branch), 20_000)
    entry = branch[result.first_kept_index]
    assert entry["type"] == "message"
    assert entry["message"]["role"] in ("user", "assistant")
    if entry["message"]["role"] == "assistant":
        assert result.is_split_turn
        assert branch[result.turn_start_index]["message"]["role"] == "user"
