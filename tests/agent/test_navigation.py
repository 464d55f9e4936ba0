"""Moving the leaf with `navigate`: the abandoned branch becomes a branch summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.branching import BRANCH_PREAMBLE
from synopsis.agent.events import BranchSummarized
from synopsis.agent.session import AgentSession
from synopsis.errors import EntryNotFoundError
from synopsis.messages import DEFAULT_WRAPPING, text_of
from synopsis.session.store import FileSession
from tests.agent._support import (
    Events,
    chat_model,
    file_tool,
    new_session,
    reopen,
    run,
)
from tests.llm_server import LLMServer, Reply, ToolCall

FILES = {"a.py": "def a(): return 1", "b.py": "def b(): return 2", "c.py": "C = 3"}


def tool_turn(server: LLMServer, agent: AgentSession, prompt: str, name: str, path: str) -> None:
    """One prompt in which the model calls ``name`` on ``path`` and then answers."""
    server.enqueue(
        Reply(tool_calls=[ToolCall(name, {"path": path})]),
        Reply(text=f"Done with {path}."),
    )
    run(agent.prompt(prompt))


def setup(server: LLMServer, tmp_path: Path) -> tuple[AgentSession, Events, FileSession]:
    session = new_session(tmp_path)
    agent = AgentSession(
        session,
        chat_model(server, "openai"),
        tools=[file_tool(FILES, "read"), file_tool(FILES, "edit")],
    )
    events = Events()
    agent.subscribe(events)
    tool_turn(server, agent, "Read a.py please.", "read", "a.py")
    tool_turn(server, agent, "Now edit b.py.", "edit", "b.py")
    return agent, events, session


def user_entry(session: FileSession, text: str) -> dict[str, Any]:
    return next(
        e
        for e in session.entries
        if e["type"] == "message"
        and e["message"]["role"] == "user"
        and e["message"]["content"][0]["text"] == text
    )


def test_navigating_to_a_user_message_summarizes_the_abandoned_branch(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = setup(llm_server, tmp_path)
    target = user_entry(session, "Now edit b.py.")
    old_leaf = session.leaf_id
    abandoned = [e["id"] for e in session.path()][-4:]

    result = run(agent.navigate(target["id"], summarize=True))

    assert result.editor_text == "Now edit b.py."
    assert result.summary_entry_id is not None
    assert result.leaf_id == result.summary_entry_id == session.leaf_id
    entries = {e["id"]: e for e in reopen(session).entries}
    summary = entries[result.summary_entry_id]
    assert summary["type"] == "branch_summary"
    assert summary["parentId"] == target["parentId"]  # the user message goes to the editor
    assert summary["fromId"] == target["parentId"]
    assert summary["details"] == {"readFiles": [], "modifiedFiles": ["b.py"]}
    assert summary["summary"].startswith(BRANCH_PREAMBLE)
    assert "b.py" in summary["summary"]
    assert old_leaf in entries  # the old branch stays in the file
    assert abandoned[0] == target["id"]
    [event] = events.of(BranchSummarized)
    assert (event.entry_id, event.summary) == (summary["id"], summary["summary"])

    context = session.build_context().messages
    assert [m["role"] for m in context][-1] == "branchSummary"
    assert all(m.get("content") != [{"type": "text", "text": "Done with b.py."}] for m in context)

    llm_server.clear()
    llm_server.enqueue(Reply(text="Fresh start."))
    run(agent.prompt("Edit c.py instead."))
    [sent] = llm_server.requests
    texts = sent.texts("user")
    assert any(t.startswith(DEFAULT_WRAPPING.branch_prefix) for t in texts)
    assert texts[-1] == "Edit c.py instead."
    assert "Now edit b.py." not in texts
    assert len(sent.messages) == 6  # turn 1 (user, call, result, answer), summary, prompt


def test_navigating_to_an_assistant_message_keeps_it_as_the_parent(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, _, session = setup(llm_server, tmp_path)
    answer = next(
        e
        for e in session.entries
        if e["type"] == "message"
        and e["message"]["content"] == [{"type": "text", "text": "Done with a.py."}]
    )
    result = run(agent.navigate(answer["id"]))
    assert result.editor_text is None
    summary = session.require_entry(str(result.summary_entry_id))
    assert summary["parentId"] == answer["id"]
    # The abandoned part is the whole second turn: the user's words and the edit.
    assert summary["details"]["modifiedFiles"] == ["b.py"]


def test_file_lists_travel_through_earlier_branch_summaries(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, _, session = setup(llm_server, tmp_path)
    run(agent.navigate(user_entry(session, "Now edit b.py.")["id"]))
    tool_turn(llm_server, agent, "Read c.py.", "read", "c.py")
    first = user_entry(session, "Read a.py please.")

    result = run(agent.navigate(first["id"]))

    summary = session.require_entry(str(result.summary_entry_id))
    assert summary["parentId"] is None  # the first message had no parent
    assert summary["fromId"] == "root"
    assert summary["details"] == {"readFiles": ["a.py", "c.py"], "modifiedFiles": ["b.py"]}


def test_navigation_without_summary_only_moves_the_leaf(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = setup(llm_server, tmp_path)
    count = len(reopen(session).entries)
    target = user_entry(session, "Now edit b.py.")
    result = run(agent.navigate(target["id"], summarize=False))
    assert result.summary_entry_id is None
    assert result.leaf_id == target["parentId"] == session.leaf_id
    assert result.editor_text == "Now edit b.py."
    assert len(reopen(session).entries) == count
    assert events.of(BranchSummarized) == []


def test_navigating_to_the_leaf_is_a_no_op(llm_server: LLMServer, tmp_path: Path) -> None:
    agent, _, session = setup(llm_server, tmp_path)
    leaf = session.leaf_id
    assert leaf is not None
    result = run(agent.navigate(leaf))
    assert (result.leaf_id, result.editor_text, result.summary_entry_id) == (leaf, None, None)
    with pytest.raises(EntryNotFoundError):
        run(agent.navigate("no-such-entry"))


def test_the_request_follows_every_change_of_the_session(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    """Appends and leaf moves made straight on the session, not through the agent, are
    in the next request and the next context size."""
    session = new_session(tmp_path)
    agent = AgentSession(session, chat_model(llm_server, "openai"))
    first = session.append_message({"role": "user", "content": "first question"})
    assert [text_of(m) for m in agent.llm_messages()] == ["first question"]
    before = agent.context_tokens().tokens

    session.append_message({"role": "assistant", "content": [{"type": "text", "text": "ok"}]})
    session.append_message({"role": "user", "content": "second question " * 20})
    assert [text_of(m) for m in agent.llm_messages()] == [
        "first question",
        "ok",
        "second question " * 20,
    ]
    assert agent.context_tokens().tokens > before

    session.branch(first)
    assert [text_of(m) for m in agent.llm_messages()] == ["first question"]
    assert agent.context_tokens().tokens == before
    assert llm_server.requests == []
