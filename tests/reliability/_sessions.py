"""Small, valid session files made with the library's own tree, for damaging in tests."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from synopsis.session import Session, new_header, render_session

SESSION_ID = "0badc0de-0000-4000-8000-000000000000"


def counter_ids(prefix: str) -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"{prefix}{next(counter):04d}"


def build_session(
    turns: int = 3, *, compact_after: int | None = 1, branch: bool = False
) -> Session:
    """A session of ``turns`` user turns, each with a tool call, its result and an answer.

    Every entry type appears. With ``compact_after`` a compaction follows that turn
    (keeping the turn before it); with ``branch`` the last turn gets a second answer on a
    new branch, with a branch summary.
    """
    session = Session(new_header(session_id=SESSION_ID, cwd="/work/demo"), new_id=counter_ids("e"))
    session.append_model_change("anthropic", "claude-test")
    session.append_thinking_level_change("low")
    turn_starts: list[str] = []
    for turn in range(turns):
        turn_starts.append(
            session.append_message({"role": "user", "content": f"question {turn}: fix bug #{turn}"})
        )
        call_id = f"call-{turn}"
        session.append_message(
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": f"look at file {turn}"},
                    {
                        "type": "toolCall",
                        "id": call_id,
                        "name": "read",
                        "arguments": {"path": f"src/mod{turn}.py"},
                    },
                ],
                "provider": "anthropic",
                "model": "claude-test",
                "usage": {"input": 100 + turn, "output": 10, "totalTokens": 110 + turn},
                "stopReason": "toolUse",
            }
        )
        session.append_message(
            {
                "role": "toolResult",
                "toolCallId": call_id,
                "toolName": "read",
                "content": [{"type": "text", "text": f"def f{turn}():\n    return {turn}\n"}],
                "isError": False,
            }
        )
        session.append_message(
            {"role": "assistant", "content": [{"type": "text", "text": f"fixed bug #{turn}"}]}
        )
        if compact_after is not None and turn == compact_after and turn >= 1:
            session.append_compaction(f"summary of turns up to {turn}", turn_starts[turn - 1], 5000)
    session.append_message(
        {
            "role": "bashExecution",
            "command": "ls",
            "output": "a b",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
        }
    )
    session.append_custom_message("note", "remember the order id 4711")
    session.append_custom("marker", {"k": 1})
    if branch and turn_starts:
        session.branch_with_summary(turn_starts[-1], "tried another approach")
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": "alt"}]})
    if turn_starts:
        session.append_label(turn_starts[0], "start")
    session.append_session_info("demo session")
    return session


def session_bytes(turns: int = 3, *, compact_after: int | None = 1, branch: bool = False) -> bytes:
    session = build_session(turns, compact_after=compact_after, branch=branch)
    return render_session(session.header, session.entries)
