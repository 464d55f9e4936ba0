"""Auto-compaction in the running loop, over real HTTP: threshold, overflow, hooks, manual."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.agent.events import (
    AgentError,
    BeforeCompact,
    CancelCompaction,
    CompactionEnd,
    CompactionStart,
    HookError,
    MessageEnd,
)
from synopsis.agent.session import OVERFLOW_RECOVERY_FAILED, AgentSession
from synopsis.compaction.compact import CompactionResult
from synopsis.compaction.orchestrate import STALE_ATTEMPTS
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import CompactionError, StaleSessionError, SummarizerError
from synopsis.messages import DEFAULT_WRAPPING, text_of
from synopsis.providers._retry import RetryPolicy
from synopsis.session.store import FileSession
from synopsis.summarizers.model import OpenAISummarizer
from synopsis.summarizers.prompts import SYSTEM_PROMPT as SUMMARIZER_PROMPT
from tests.agent._support import (
    PROTOCOLS,
    SYSTEM_PROMPT,
    Events,
    Protocol,
    assert_wire_paired,
    chat_model,
    file_tool,
    new_session,
    reopen,
    request_tokens,
    run,
    words,
)
from tests.llm_server import LLMServer, RecordedRequest, Reply, ToolCall

WINDOW = 12_000
SETTINGS = CompactionSettings(reserve_tokens=2_000, keep_recent_tokens=1_000)
OVERFLOW_TEXT: dict[Protocol, str] = {
    "openai": "This model's maximum context length is 12000 tokens. However, you requested 15000.",
    "anthropic": "prompt is too long: 15000 tokens > 12000 maximum",
}


def agent_for(
    server: LLMServer,
    protocol: Protocol,
    session: FileSession,
    *,
    settings: CompactionSettings = SETTINGS,
    files: dict[str, str] | None = None,
) -> tuple[AgentSession, Events]:
    agent = AgentSession(
        session,
        chat_model(server, protocol, context_window=WINDOW),
        tools=[file_tool(files or {})],
        settings=settings,
        system_prompt=SYSTEM_PROMPT,
    )
    events = Events()
    agent.subscribe(events)
    return agent, events


def compaction_events(events: Events) -> list[CompactionStart | CompactionEnd]:
    return [e for e in events.events if isinstance(e, CompactionStart | CompactionEnd)]


def assert_started_and_ended_in_pairs(events: Events) -> None:
    kinds = compaction_events(events)
    assert [type(e) for e in kinds] == [CompactionStart, CompactionEnd] * (len(kinds) // 2)
    for start, end in zip(kinds[::2], kinds[1::2], strict=True):
        assert start.reason == end.reason


def first_text(request: RecordedRequest) -> str:
    """The text of the first message after the system prompt, in either protocol."""
    message = next(m for m in request.messages if m.get("role") != "system")
    content = message["content"]
    if isinstance(content, str):
        return content
    return str(content[0].get("text", ""))


def chat(server: LLMServer, agent: AgentSession, turns: int, size: int = 240) -> None:
    """Some conversation history: ``turns`` prompts with answers of ``size`` words."""
    for turn in range(turns):
        server.enqueue(Reply(text=f"Answer {turn}: " + words(turn, size)))
        run(agent.prompt(f"Question {turn} about the ledger module."))


def fill(session: FileSession, turns: int, size: int = 300) -> None:
    """Write history straight into the session (no model involved)."""
    for turn in range(turns):
        session.append_message(
            {"role": "user", "content": [{"type": "text", "text": f"Turn {turn}: go on"}]}
        )
        session.append_message(
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolCall",
                        "id": f"t{turn}",
                        "name": "read",
                        "arguments": {"path": f"src/m{turn}.py"},
                    }
                ],
                "stopReason": "toolUse",
            }
        )
        session.append_message(
            {
                "role": "toolResult",
                "toolCallId": f"t{turn}",
                "toolName": "read",
                "content": [{"type": "text", "text": words(100 + turn, size)}],
                "isError": False,
            }
        )
        session.append_message(
            {
                "role": "assistant",
                "content": [{"type": "text", "text": f"Read src/m{turn}.py."}],
                "stopReason": "stop",
            }
        )


# --- threshold, between the turns of one long run ----------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_threshold_compaction_between_turns_of_one_run(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    files = {f"f{i}.txt": words(i, 700) for i in range(8)}
    llm_server.enqueue(
        *[
            Reply(tool_calls=[ToolCall("read", {"path": f"f{i}.txt"}, f"call_{i}")])
            for i in range(8)
        ],
        Reply(text="All eight files read."),
    )
    session = new_session(tmp_path)
    settings = CompactionSettings(reserve_tokens=2_000, keep_recent_tokens=2_000)
    agent, events = agent_for(llm_server, protocol, session, settings=settings, files=files)
    sent_before: list[int] = []
    agent.subscribe(
        lambda e: (
            sent_before.append(len(llm_server.requests)) if isinstance(e, CompactionEnd) else None
        )
    )

    final = run(agent.prompt("Read f0.txt to f7.txt one by one."))

    assert final is not None and final["content"][0]["text"] == "All eight files read."
    assert not events.of(AgentError)
    assert_started_and_ended_in_pairs(events)
    starts, ends = events.of(CompactionStart), events.of(CompactionEnd)
    assert starts and all(s.reason == "threshold" for s in starts)
    first_end = ends[0]
    assert first_end.result is not None
    assert (first_end.aborted, first_end.will_retry, first_end.error) == (False, False, None)
    assert first_end.result.tokens_before > settings.threshold(WINDOW)
    assert starts[0].tokens_before == first_end.result.tokens_before
    # Mid-run: the compaction came before the last model call of this one prompt.
    requests = llm_server.requests
    assert 1 < sent_before[0] < len(requests)
    before, after = requests[sent_before[0] - 1], requests[sent_before[0]]
    assert request_tokens(after) < request_tokens(before)
    assert first_text(after).startswith(DEFAULT_WRAPPING.compaction_prefix)
    assert first_end.result.summary in first_text(after)
    for request in requests:
        assert request_tokens(request) <= WINDOW
        assert_wire_paired(request)
    # Every message is in the file, and the checkpoint too.
    stored = reopen(session).entries
    messages = [e["message"] for e in stored if e["type"] == "message"]
    assert [m["role"] for m in messages] == ["user"] + ["assistant", "toolResult"] * 8 + [
        "assistant"
    ]
    compactions = [e for e in stored if e["type"] == "compaction"]
    assert [c["id"] for c in compactions] == [end.entry_id for end in ends]
    assert compactions[0]["summary"] == first_end.result.summary
    assert compactions[0]["firstKeptEntryId"] == first_end.result.first_kept_entry_id


# --- overflow: compact and retry once ----------------------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_overflow_compacts_and_retries_once(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    session = new_session(tmp_path)
    agent, events = agent_for(llm_server, protocol, session)
    chat(llm_server, agent, 4)
    assert not events.of(CompactionStart)
    llm_server.clear()
    llm_server.enqueue(Reply.error(400, OVERFLOW_TEXT[protocol]), Reply(text="Recovered."))

    final = run(agent.prompt("Now summarize the ledger work."))

    assert final is not None and final["content"] == [{"type": "text", "text": "Recovered."}]
    assert not events.of(AgentError)
    assert_started_and_ended_in_pairs(events)
    [start], [end] = events.of(CompactionStart), events.of(CompactionEnd)
    assert start.reason == end.reason == "overflow"
    assert end.will_retry and not end.aborted and end.result is not None
    failed, retried = llm_server.requests
    assert request_tokens(retried) < request_tokens(failed)
    assert first_text(retried).startswith(DEFAULT_WRAPPING.compaction_prefix)
    assert text_of(retried.messages[-1]) == "Now summarize the ledger work."
    assert text_of(failed.messages[-1]) == "Now summarize the ledger work."
    assert_wire_paired(retried)
    # The failed reply is on record, hidden from the context by an edit (as Pi 1.6
    # records it), right before the checkpoint that recovered from it.
    entries = reopen(session).entries
    error_entry = next(
        e for e in entries if e["type"] == "message" and e["message"].get("stopReason") == "error"
    )
    assert error_entry["message"]["errorMessage"] == OVERFLOW_TEXT[protocol]
    edit = next(e for e in entries if e["type"] == "context_edit")
    assert edit["parentId"] == error_entry["id"]
    assert (edit["targetId"], edit["replacement"]) == (error_entry["id"], None)
    assert error_entry["message"] not in reopen(session).build_context().messages
    compaction = next(e for e in entries if e["type"] == "compaction")
    assert compaction["parentId"] == edit["id"]
    assert compaction["id"] == end.entry_id
    assert entries[-1]["message"]["content"] == [{"type": "text", "text": "Recovered."}]
    # ...and it is not part of what the model is sent any more.
    assert all(m.get("stopReason") != "error" for m in agent.llm_messages())


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_second_overflow_ends_with_an_error_event(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    session = new_session(tmp_path)
    agent, events = agent_for(llm_server, protocol, session)
    chat(llm_server, agent, 4)
    llm_server.clear()
    overflow = Reply.error(400, OVERFLOW_TEXT[protocol])
    llm_server.enqueue(overflow, overflow, Reply(text="must not be asked for"))

    final = run(agent.prompt("Try again."))

    assert final is not None and final["stopReason"] == "error"
    assert len(llm_server.requests) == 2
    assert llm_server.pending == 1
    assert [e.message for e in events.of(AgentError)] == [OVERFLOW_RECOVERY_FAILED]
    [end] = events.of(CompactionEnd)
    assert end.reason == "overflow" and end.will_retry
    assert events.types[-2:] == ["agent_error", "agent_end"]
    stored = [e["message"] for e in reopen(session).entries if e["type"] == "message"]
    assert [m.get("stopReason") for m in stored[-2:]] == ["error", "error"]


def test_a_new_prompt_after_a_failed_recovery_gets_its_own_retry(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    session = new_session(tmp_path)
    agent, events = agent_for(llm_server, "openai", session)
    chat(llm_server, agent, 4)
    overflow = Reply.error(400, OVERFLOW_TEXT["openai"])
    llm_server.enqueue(overflow, overflow)
    run(agent.prompt("First try."))
    assert len(events.of(AgentError)) == 1
    llm_server.clear()
    llm_server.enqueue(overflow, Reply(text="Second prompt recovered."))

    final = run(agent.prompt("Here is the full log: " + words(99, 600)))

    assert final is not None and final["content"][0]["text"] == "Second prompt recovered."
    assert len(events.of(AgentError)) == 1
    assert [e.will_retry for e in events.of(CompactionEnd)] == [True, True]
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_good_reply_over_the_window_is_kept_and_compaction_runs_without_retry(
    llm_server: LLMServer, tmp_path: Path, protocol: Protocol
) -> None:
    session = new_session(tmp_path)
    agent, events = agent_for(llm_server, protocol, session)
    chat(llm_server, agent, 4)
    llm_server.clear()
    llm_server.enqueue(Reply(text="A good answer.", usage=(WINDOW + 1_000, 20)))

    final = run(agent.prompt("One more question."))

    assert final is not None and final["stopReason"] == "stop"
    assert len(llm_server.requests) == 1
    assert not events.of(AgentError)
    [start], [end] = events.of(CompactionStart), events.of(CompactionEnd)
    assert start.reason == end.reason == "overflow"
    assert not end.will_retry and end.result is not None
    entries = reopen(session).entries
    assert entries[-1]["type"] == "compaction"
    assert entries[-2]["message"]["content"] == [{"type": "text", "text": "A good answer."}]
    # The kept answer is still what the model sees next.
    assert agent.llm_messages()[-1]["content"] == [{"type": "text", "text": "A good answer."}]


# --- hooks ---------------------------------------------------------------------------------


def filled_agent(
    llm_server: LLMServer, tmp_path: Path, turns: int = 6
) -> tuple[AgentSession, Events, FileSession]:
    session = new_session(tmp_path)
    fill(session, turns)
    agent, events = agent_for(llm_server, "openai", session)
    return agent, events, session


def compaction_entries(session: FileSession) -> list[dict[str, Any]]:
    return [e for e in reopen(session).entries if e["type"] == "compaction"]


def test_hook_cancel_stops_a_manual_compaction(llm_server: LLMServer, tmp_path: Path) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path)
    agent.before_compact(lambda event: CancelCompaction("user said no"))
    with pytest.raises(CompactionError, match="cancelled"):
        run(agent.compact())
    [start], [end] = events.of(CompactionStart), events.of(CompactionEnd)
    assert start.reason == end.reason == "manual"
    assert end.aborted and end.result is None and end.error == "user said no"
    assert compaction_entries(session) == []


def test_hook_cancel_of_a_threshold_compaction_lets_the_run_go_on(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path, turns=16)
    assert agent.context_tokens().tokens > agent.threshold
    seen: list[BeforeCompact] = []

    def cancel(event: BeforeCompact) -> CancelCompaction:
        seen.append(event)
        return CancelCompaction()

    agent.before_compact(cancel)
    llm_server.enqueue(Reply(text="Answered anyway."))
    final = run(agent.prompt("Continue."))
    assert final is not None and final["content"][0]["text"] == "Answered anyway."
    assert [e.reason for e in seen] == ["threshold", "threshold"]  # before the call and after
    assert all(e.aborted for e in events.of(CompactionEnd))
    assert compaction_entries(session) == []


def test_hook_result_replaces_the_summary_and_is_marked(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path)
    path_before = [e["id"] for e in session.path()]
    seen: list[BeforeCompact] = []

    async def replace(event: BeforeCompact) -> CompactionResult:
        seen.append(event)
        await asyncio.sleep(0)
        return CompactionResult(
            summary="HOOK CHECKPOINT: ledger refactor, keep API stable.",
            first_kept_entry_id=event.preparation.first_kept_entry_id,
            tokens_before=event.preparation.tokens_before,
            estimated_tokens_after=100,
            details={"source": "hook"},
        )

    agent.before_compact(lambda event: None)  # a hook with no opinion changes nothing
    agent.before_compact(replace)
    result = run(agent.compact("focus on the ledger"))

    [event] = seen
    assert (event.reason, event.will_retry, event.custom_instructions) == (
        "manual",
        False,
        "focus on the ledger",
    )
    assert [e["id"] for e in event.branch_entries] == path_before
    assert event.preparation.first_kept_entry_id in path_before
    assert result.summary.startswith("HOOK CHECKPOINT")
    [entry] = compaction_entries(session)
    assert entry["fromHook"] is True
    assert entry["summary"] == result.summary
    assert entry["details"] == {"source": "hook"}
    [end] = events.of(CompactionEnd)
    assert end.from_hook and end.result is result and end.entry_id == entry["id"]
    llm_server.enqueue(Reply(text="ok"))
    run(agent.prompt("next"))
    assert "HOOK CHECKPOINT" in first_text(llm_server.requests[0])


def test_a_raising_hook_is_reported_and_default_compaction_runs(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path)

    def broken(event: BeforeCompact) -> None:
        raise RuntimeError("hook exploded")

    agent.before_compact(broken)
    result = run(agent.compact())

    [error] = events.of(HookError)
    assert error.hook == "before_compact"
    assert error.error == "RuntimeError: hook exploded"
    assert [e.type for e in events.events] == ["compaction_start", "hook_error", "compaction_end"]
    [entry] = compaction_entries(session)
    assert "fromHook" not in entry
    assert entry["summary"] == result.summary
    assert events.of(CompactionEnd)[0].result is result


def test_a_cancel_wins_over_earlier_hook_results(llm_server: LLMServer, tmp_path: Path) -> None:
    agent, _, session = filled_agent(llm_server, tmp_path)
    agent.before_compact(
        lambda event: CompactionResult("never stored", event.preparation.first_kept_entry_id, 1, 1)
    )
    agent.before_compact(lambda event: CancelCompaction())
    with pytest.raises(CompactionError):
        run(agent.compact())
    assert compaction_entries(session) == []


# --- a second writer -----------------------------------------------------------------------


def another_writer(session: FileSession, times: int) -> Any:
    """A before_compact hook through which another process' appends land while the
    checkpoint is being written: the first ``times`` compactions find the file changed."""
    calls: list[BeforeCompact] = []

    def hook(event: BeforeCompact) -> None:
        calls.append(event)
        if len(calls) <= times:
            other = reopen(session)
            other.append_message({"role": "user", "content": f"note {len(calls)}", "timestamp": 1})

    hook.calls = calls  # type: ignore[attr-defined]
    return hook


def test_a_compaction_on_a_file_another_writer_changed_is_planned_again(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path)
    hook = another_writer(session, times=1)
    agent.before_compact(hook)
    result = run(agent.compact())
    _, second = hook.calls
    assert second.branch_entries[-1]["message"]["content"] == "note 1"  # planned on it
    [entry] = compaction_entries(session)
    on_disk = {e["id"]: e for e in reopen(session).entries}
    assert on_disk[entry["parentId"]]["message"]["content"] == "note 1"
    assert entry["summary"] == result.summary
    stale, stored = events.of(CompactionEnd)
    assert stale.aborted and stale.result is None and "another writer" in (stale.error or "")
    assert stored.result is result and stored.entry_id == entry["id"]
    assert_started_and_ended_in_pairs(events)


def test_a_file_that_keeps_changing_fails_a_manual_compaction_and_not_a_run(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, _, session = filled_agent(llm_server, tmp_path)
    agent.before_compact(another_writer(session, times=STALE_ATTEMPTS))
    with pytest.raises(StaleSessionError):
        run(agent.compact())
    assert compaction_entries(session) == []

    (tmp_path / "run").mkdir()
    agent, events, session = filled_agent(llm_server, tmp_path / "run", turns=16)
    agent.before_compact(another_writer(session, times=10 * STALE_ATTEMPTS))
    llm_server.enqueue(Reply(text="Answered anyway."))
    final = run(agent.prompt("Continue."))
    assert final is not None and final["content"][0]["text"] == "Answered anyway."
    assert compaction_entries(session) == []
    assert all(end.aborted for end in events.of(CompactionEnd))


# --- manual compaction ----------------------------------------------------------------------


def test_manual_compaction_emits_events_and_stores_the_checkpoint(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path)
    result = run(agent.compact())
    [start], [end] = events.of(CompactionStart), events.of(CompactionEnd)
    assert start.reason == end.reason == "manual"
    assert end.result is result and not end.will_retry and not end.aborted
    [entry] = compaction_entries(session)
    assert end.entry_id == entry["id"]
    assert entry["tokensBefore"] == result.tokens_before == start.tokens_before
    assert agent.context_tokens().tokens < result.tokens_before
    assert llm_server.requests == []  # the embedded summarizer needs no model


def test_manual_compaction_errors(llm_server: LLMServer, tmp_path: Path) -> None:
    agent, events, session = filled_agent(llm_server, tmp_path, turns=1)
    with pytest.raises(CompactionError, match="Nothing to compact"):
        run(agent.compact())
    assert events.events == []
    fill(session, 6)
    run(agent.compact())
    with pytest.raises(CompactionError, match="Already compacted"):
        run(agent.compact())
    assert len(compaction_entries(session)) == 1


def test_message_events_come_in_file_order(llm_server: LLMServer, tmp_path: Path) -> None:
    session = new_session(tmp_path)
    agent, events = agent_for(llm_server, "openai", session)
    chat(llm_server, agent, 2)
    ids = [e.entry_id for e in events.of(MessageEnd)]
    assert ids == [e["id"] for e in reopen(session).entries if e["type"] == "message"]


# --- a model summarizer in the loop ----------------------------------------------------------


def summarizing_agent(server: LLMServer, tmp_path: Path) -> tuple[AgentSession, FileSession]:
    """An agent over a session past the threshold, writing checkpoints with a model."""
    session = new_session(tmp_path)
    fill(session, 16)
    summarizer = OpenAISummarizer(
        "summary-model",
        base_url=server.openai_url,
        api_key="test-key",
        retry=RetryPolicy(max_attempts=1),
    )
    agent = AgentSession(
        session,
        chat_model(server, "openai", context_window=WINDOW),
        settings=SETTINGS,
        summarizer=summarizer,
    )
    return agent, session


def test_a_model_summarizer_writes_the_checkpoint(llm_server: LLMServer, tmp_path: Path) -> None:
    def respond(request: RecordedRequest) -> Reply:
        if request.system == SUMMARIZER_PROMPT:
            return Reply(text="## Goal\nModel-written checkpoint about the ledger.")
        return Reply(text="Noted.")

    llm_server.set_default(respond)
    agent, session = summarizing_agent(llm_server, tmp_path)
    run(agent.prompt("Continue."))
    [entry] = compaction_entries(session)
    assert "Model-written checkpoint about the ledger." in entry["summary"]
    summary_requests = [r for r in llm_server.requests if r.system == SUMMARIZER_PROMPT]
    assert summary_requests and summary_requests[0].body["model"] == "summary-model"
    agent_request = llm_server.requests[-1]
    assert "Model-written checkpoint" in first_text(agent_request)


def test_a_failing_summarizer_is_reported_and_the_run_goes_on(
    llm_server: LLMServer, tmp_path: Path
) -> None:
    def respond(request: RecordedRequest) -> Reply:
        if request.system == SUMMARIZER_PROMPT:
            return Reply.error(400, "summaries are switched off on this server")
        return Reply(text="Answered without a checkpoint.")

    llm_server.set_default(respond)
    agent, session = summarizing_agent(llm_server, tmp_path)
    events = Events()
    agent.subscribe(events)
    final = run(agent.prompt("Continue."))
    assert final is not None and final["content"][0]["text"] == "Answered without a checkpoint."
    ends = events.of(CompactionEnd)
    assert ends and all(e.result is None for e in ends)
    assert all(
        e.error and e.error.startswith("Compaction failed") and "switched off" in e.error
        for e in ends
    )
    assert compaction_entries(session) == []
    with pytest.raises(SummarizerError, match="switched off"):
        run(agent.compact())


def test_checkpoint_can_travel_in_the_system_prompt(tmp_path: Path) -> None:
    """With checkpoint_role="system" the checkpoint ends the system prompt instead of
    opening the messages; the stored entry is the same."""
    from synopsis.agent.replay import ReplayModel
    from synopsis.session import open_session

    def reply(text: str) -> Any:
        return {
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "stopReason": "stop",
        }

    session = open_session(tmp_path / "s.jsonl", create=True)
    settings = CompactionSettings(
        reserve_tokens=1000, keep_recent_tokens=300, checkpoint_role="system"
    )
    model = ReplayModel([reply("x" * 4000) for _ in range(6)], context_window=4000)
    agent = AgentSession(session, model, settings=settings, system_prompt="Be brief.")
    for n in range(6):
        asyncio.run(agent.prompt(f"question {n}"))
    assert any(e["type"] == "compaction" for e in session.entries)
    request = agent.build_request()
    assert request.system_prompt is not None
    assert request.system_prompt.startswith("Be brief.\n\n")
    assert "<checkpoint>" in request.system_prompt
    assert all("<checkpoint>" not in str(m.get("content")) for m in request.messages)
