"""compact() and compact_session(): orchestration around any summarizer.

The summarizers here are small implementations of the public Summarizer protocol that
record what they were asked, standing in for a model; the orchestration under test is
the real code.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from synopsis.compaction import CompactionSettings, prepare_compaction
from synopsis.compaction.compact import TURN_PREFIX_SEPARATOR, compact
from synopsis.compaction.orchestrate import compact_session
from synopsis.errors import CompactionError, SummarizerError
from synopsis.session import Session, open_session
from synopsis.summarizers.base import SummaryKind, SummaryRequest, SummaryResult, SummaryUsage


class Recorder:
    """Answers every request with a fixed text and remembers the requests."""

    def __init__(self, delay: float = 0.0) -> None:
        self.requests: list[SummaryRequest] = []
        self.delay = delay
        self.running = 0
        self.max_running = 0

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.requests.append(request)
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        await asyncio.sleep(self.delay)
        self.running -= 1
        return SummaryResult(f"<{request.kind.value} summary>", SummaryUsage(100, 10))


class Failing:
    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        raise SummarizerError("model unreachable")


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text, "timestamp": 1}


def _assistant(text: str, calls: list[tuple[str, str, dict[str, Any]]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    content += [{"type": "toolCall", "id": i, "name": n, "arguments": a} for i, n, a in calls]
    stop = "toolUse" if calls else "stop"
    return {"role": "assistant", "content": content, "stopReason": stop, "timestamp": 1}


def _result(call_id: str, text: str, error: bool = False) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "read",
        "content": [{"type": "text", "text": text}],
        "isError": error,
        "timestamp": 1,
    }


def build_session(session: Session, turns: int = 6, body: int = 2000) -> None:
    for turn in range(turns):
        session.append_message(_user(f"request {turn}: " + "u" * body))
        call = (f"call-{turn}", "read", {"path": f"src/file{turn}.py"})
        session.append_message(_assistant(f"reading {turn}", [call]))
        session.append_message(_result(f"call-{turn}", "r" * body))
        edit = (f"edit-{turn}", "edit", {"path": f"src/file{turn}.py", "oldText": "a"})
        session.append_message(_assistant(f"editing {turn}", [edit]))
        session.append_message(_result(f"edit-{turn}", "ok"))
        session.append_message(_assistant("done " + "a" * body))


def test_compact_builds_checkpoint_with_file_lists() -> None:
    session = Session()
    build_session(session)
    preparation = prepare_compaction(session.path(), CompactionSettings(keep_recent_tokens=1500))
    assert preparation is not None
    recorder = Recorder()
    result = asyncio.run(compact(preparation, recorder))
    assert result.first_kept_entry_id == preparation.first_kept_entry_id
    assert result.tokens_before == preparation.tokens_before
    assert "<modified-files>" in result.summary and "src/file0.py" in result.summary
    assert result.details["modifiedFiles"][0] == "src/file0.py"
    assert result.usage.input_tokens == 100 * len(recorder.requests)
    first = recorder.requests[0]
    assert first.kind is SummaryKind.HISTORY
    assert "[User]: request 0" in first.conversation
    assert first.max_tokens == int(0.8 * 16384)
    assert first.messages[0]["role"] == "user"
    assert 0 < result.estimated_tokens_after < result.tokens_before


def test_split_turn_summaries_run_in_parallel_and_merge() -> None:
    session = Session()
    build_session(session, turns=3, body=4000)
    # One long last turn so the keep window lands inside it.
    session.append_message(_user("last request"))
    for n in range(6):
        session.append_message(_assistant(f"step {n}", [(f"x{n}", "bash", {"command": "ls"})]))
        session.append_message(_result(f"x{n}", "o" * 3000))
    preparation = prepare_compaction(session.path(), CompactionSettings(keep_recent_tokens=2000))
    assert preparation is not None and preparation.is_split_turn
    recorder = Recorder(delay=0.05)
    result = asyncio.run(compact(preparation, recorder))
    kinds = sorted(r.kind.value for r in recorder.requests)
    assert kinds == ["history", "turn_prefix"]
    assert recorder.max_running == 2
    assert TURN_PREFIX_SEPARATOR in result.summary
    prefix = next(r for r in recorder.requests if r.kind is SummaryKind.TURN_PREFIX)
    assert prefix.max_tokens == int(0.5 * 16384)
    assert "[User]: last request" in prefix.conversation


def test_update_mode_after_a_previous_compaction() -> None:
    session = Session()
    build_session(session)
    asyncio.run(compact_session(session, Recorder(), CompactionSettings(keep_recent_tokens=1500)))
    build_session(session, turns=3)
    recorder = Recorder()
    asyncio.run(compact_session(session, recorder, CompactionSettings(keep_recent_tokens=1500)))
    assert recorder.requests[0].kind is SummaryKind.UPDATE
    assert recorder.requests[0].previous_summary is not None
    assert recorder.requests[0].previous_summary.startswith("<history summary>")


def test_session_compaction_appends_an_entry_and_the_context_starts_with_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    build_session(session)
    result, entry_id = asyncio.run(
        compact_session(session, Recorder(), CompactionSettings(keep_recent_tokens=1500))
    )
    reloaded = open_session(path)
    entry = reloaded.require_entry(entry_id)
    assert entry["type"] == "compaction"
    assert entry["firstKeptEntryId"] == result.first_kept_entry_id
    assert entry["usage"] == {"input": 100, "output": 10, "cost": None}
    context = reloaded.build_context()
    assert context.messages[0]["role"] == "compactionSummary"
    assert context.messages[0]["summary"] == result.summary
    assert context.entry_ids[1] == result.first_kept_entry_id


def test_failing_summarizer_leaves_the_file_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    build_session(session)
    before = path.read_bytes()
    with pytest.raises(SummarizerError):
        asyncio.run(compact_session(session, Failing(), CompactionSettings(keep_recent_tokens=1)))
    assert path.read_bytes() == before
    assert len(session.entries) == len(open_session(path).entries)


def test_cancelled_compaction_leaves_the_file_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = open_session(path, create=True)
    build_session(session)
    before = path.read_bytes()

    async def cancel_midway() -> None:
        task = asyncio.ensure_future(
            compact_session(session, Recorder(delay=5), CompactionSettings(keep_recent_tokens=1))
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_midway())
    assert path.read_bytes() == before


def test_nothing_to_compact_and_already_compacted_are_clear_errors() -> None:
    session = Session()
    session.append_message(_user("hi"))
    session.append_message(_assistant("hello"))
    with pytest.raises(CompactionError, match="Nothing to compact"):
        asyncio.run(compact_session(session, Recorder()))
    build_session(session)
    asyncio.run(compact_session(session, Recorder(), CompactionSettings(keep_recent_tokens=1)))
    with pytest.raises(CompactionError, match="Already compacted"):
        asyncio.run(compact_session(session, Recorder()))


def test_every_fifth_compaction_rebuilds_the_checkpoint_from_the_log() -> None:
    """Hybrid re-consolidation: incremental updates, then a full pass from the original
    entries (which compaction never deletes), so errors of earlier summaries cannot pile up."""
    session = Session()
    settings = CompactionSettings(keep_recent_tokens=1500, full_pass_every=5)
    kinds: list[tuple[SummaryKind, bool, str]] = []
    for _ in range(6):
        build_session(session, turns=3)
        recorder = Recorder()
        asyncio.run(compact_session(session, recorder, settings))
        first = recorder.requests[0]
        kinds.append((first.kind, first.previous_summary is None, first.conversation))
    assert [k for k, _, _ in kinds] == [SummaryKind.HISTORY] + [SummaryKind.UPDATE] * 3 + [
        SummaryKind.HISTORY,
        SummaryKind.UPDATE,
    ]
    # The full pass reads the conversation from the very first request again.
    assert "[User]: request 0" in kinds[4][2] and kinds[4][1]
    assert kinds[4][2].count("[User]: request 0") == 5  # all five rounds' first requests


def test_a_summary_grown_past_its_share_triggers_a_full_pass() -> None:
    from synopsis.compaction.prepare import wants_full_pass

    session = Session()
    build_session(session)
    settings = CompactionSettings(keep_recent_tokens=1500, full_pass_every=None)
    asyncio.run(compact_session(session, Recorder(), settings))
    build_session(session, turns=2)
    assert not wants_full_pass(session.path(), settings)
    small_budget = CompactionSettings(
        reserve_tokens=20, keep_recent_tokens=1500, full_pass_every=None
    )
    assert wants_full_pass(session.path(), small_budget)  # the summary is over 50% of 16 tokens
    never = CompactionSettings(full_pass_every=None, full_pass_summary_share=None)
    assert not wants_full_pass(session.path(), never)


def test_the_embedded_summarizer_is_never_given_a_full_pass() -> None:
    """Its checkpoint is rendered from the working state carried between rounds, so
    re-reading the whole log every fifth round would cost time quadratic in the session's
    length and change nothing. A summarizer that writes text still gets its full pass."""
    from synopsis.compaction.orchestrate import plan_compaction
    from synopsis.summarizers.embedded import EmbeddedSummarizer

    session = Session()
    settings = CompactionSettings(keep_recent_tokens=1500, full_pass_every=2)
    build_session(session, turns=3)
    asyncio.run(compact_session(session, EmbeddedSummarizer(), settings))
    build_session(session, turns=3)
    branch = session.path()
    assert plan_compaction(branch, settings, summarizer=Recorder()).require().full_pass
    for embedded in (None, EmbeddedSummarizer()):
        preparation = plan_compaction(branch, settings, summarizer=embedded).require()
        assert not preparation.full_pass
        assert preparation.previous_summary is not None  # an update of the checkpoint
    result, _ = asyncio.run(compact_session(session, None, settings))
    assert not result.full_pass


class FromState(Recorder):
    """A summarizer whose checkpoint is written from the working state (as the embedded
    one's is): its history text is long, a turn part short."""

    derives_from_state = True

    async def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.requests.append(request)
        if request.kind is SummaryKind.TURN_PREFIX:
            return SummaryResult("<turn part>")
        return SummaryResult("h" * min(4 * request.max_tokens, 3000))


def test_a_history_written_from_the_state_is_written_again_within_what_a_turn_leaves() -> None:
    """Nothing new before a split turn: the previous checkpoint would be the history part
    as it stands; when it and the turn's part pass the cap together, a summarizer that
    writes from the state is asked for the history again, within what the turn leaves,
    rather than the text being cut line by line."""
    session = Session()
    build_session(session, turns=3)

    def steps(first: int, last: int) -> None:
        for n in range(first, last):
            calling = _assistant(f"step {n}", [(f"y{n}", "bash", {"command": "ls"})])
            session.append_message(calling)
            session.append_message(_result(f"y{n}", "o" * 3000))

    session.append_message(_user("one more long request"))
    steps(0, 1)  # the first compaction keeps this turn whole: its cut is where it starts
    settings = CompactionSettings(keep_recent_tokens=760)  # about the turn so far
    asyncio.run(compact_session(session, FromState(), settings))
    steps(1, 10)  # the turn goes on: the next cut falls inside it, nothing before it
    preparation = prepare_compaction(session.path(), CompactionSettings(keep_recent_tokens=2000))
    assert preparation is not None and preparation.is_split_turn
    assert not preparation.messages_to_summarize
    second = FromState()
    result = asyncio.run(compact(preparation, second, summary_max_tokens=300, guard=False))
    history = [r for r in second.requests if r.kind is not SummaryKind.TURN_PREFIX]
    assert history and not history[0].messages
    assert history[0].previous_summary == preparation.previous_summary
    assert len(result.summary) <= 300 * 4
