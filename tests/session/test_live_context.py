"""The context a session keeps up to date as entries are appended equals a fresh build.

A state machine appends every kind of entry (messages of every role, with and without
usage, system prompts and their patches, custom messages, model and thinking changes,
labels, compactions, context edits), moves the leaf (branching, navigating with a branch
summary, resetting), reloads the session from its file, and lets another writer append
to that file. After every step the session's context and its size under two token
counters must equal what the pure functions give for the path built from scratch, and
a context taken earlier must still be what it was then.
"""

from __future__ import annotations

import contextlib
import copy
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from synopsis.errors import StaleSessionError
from synopsis.session import FileSession, Session, build_session_context, open_session
from synopsis.session.context import SessionContext, model_and_level_after
from synopsis.tokens import CJK_ESTIMATE, current_context_tokens, estimate_tokens
from tests.session.builders import assistant, call, tool_result, usage, user

COUNTERS = (estimate_tokens, CJK_ESTIMATE.count)

words = st.text(alphabet="ab 汉字\n", max_size=12)


def _system(data: st.DataObject) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "system", "content": data.draw(words)}
    if data.draw(st.booleans()):
        message["sections"] = {data.draw(st.sampled_from("xyz")): data.draw(st.none() | words)}
    if data.draw(st.booleans()):
        key = data.draw(st.sampled_from(("toolsAdded", "toolsRemoved")))
        message[key] = [{"name": data.draw(st.sampled_from(("read", "bash")))}]
    if data.draw(st.booleans()):
        message["timestamp"] = 5
    return message


def _message(data: st.DataObject) -> dict[str, Any]:
    kind = data.draw(
        st.sampled_from(
            ("user", "assistant", "reply-with-usage", "failed", "tool", "system", "bash", "null")
        )
    )
    text = data.draw(words)
    if kind == "user":
        return user(text, as_string=data.draw(st.booleans()))
    if kind == "assistant":
        return assistant(text, calls=[call("c1", "read", {"path": text})])
    if kind in ("reply-with-usage", "failed"):
        spent = usage(input=data.draw(st.integers(0, 5000)), output=data.draw(st.integers(0, 50)))
        stop = (
            "stop"
            if kind == "reply-with-usage"
            else data.draw(st.sampled_from(("error", "aborted")))
        )
        return assistant(text, usage_=spent, stop=stop)
    if kind == "tool":
        return tool_result("c1", text)
    if kind == "system":
        return _system(data)
    if kind == "bash":
        return {"role": "bashExecution", "command": text, "output": text, "timestamp": 1}
    return {"role": data.draw(st.sampled_from(("user", "assistant", "system"))), "content": None}


class LiveContextMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="live-context-"))
        self.file = self.directory / "session.jsonl"
        self.numbers = 0
        self.session: Session = self._open()
        self.taken: list[tuple[SessionContext, SessionContext]] = []

    def _new_id(self) -> str:
        self.numbers += 1
        return f"{self.numbers:08x}"

    def _open(self) -> FileSession:
        return open_session(
            self.file, create=True, durable=False, new_id=self._new_id, on_stale="fork"
        )

    def _any_id(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from([e["id"] for e in self.session.entries]))

    def teardown(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    # --- appending -----------------------------------------------------------------------

    @rule(data=st.data(), count=st.integers(1, 6))
    def append_messages(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):  # a run of turns: what the live context mostly sees
            self.session.append_message(_message(data))  # type: ignore[arg-type]

    @rule(data=st.data(), display=st.booleans())
    def append_custom_message(self, data: st.DataObject, display: bool) -> None:
        content = data.draw(st.none() | words)
        self.session.append_custom_message("note", content, display=display)  # type: ignore[arg-type]

    @rule(provider=st.sampled_from(("acme", "other")), level=st.sampled_from(("off", "high")))
    def append_settings(self, provider: str, level: str) -> None:
        self.session.append_model_change(provider, f"{provider}-1")
        self.session.append_thinking_level_change(level)

    @precondition(lambda self: len(self.session.entries) > 0)
    @rule(data=st.data())
    def append_bookkeeping(self, data: st.DataObject) -> None:
        self.session.append_label(self._any_id(data), data.draw(st.none() | words))
        self.session.append_session_info(data.draw(words))
        self.session.append_custom("state", {"n": 1})

    @precondition(lambda self: len(self.session.entries) > 0)
    @rule(data=st.data(), system=st.booleans())
    def append_compaction(self, data: st.DataObject, system: bool) -> None:
        path_ids = [e["id"] for e in self.session.path()] or ["missing"]
        first_kept = data.draw(st.sampled_from([*path_ids, "missing"]))
        extra = {} if system else {"systemMessage": None}
        # refused when another writer added to the branch (the leaf moves to theirs)
        with contextlib.suppress(StaleSessionError):
            self.session.append_compaction(data.draw(words), first_kept, 100, extra=extra)

    @precondition(lambda self: len(self.session.entries) > 0)
    @rule(data=st.data())
    def append_context_edit(self, data: st.DataObject) -> None:
        replacement = data.draw(st.none() | st.builds(lambda t: {"content": t}, words))
        self.session.append_context_edit(self._any_id(data), replacement)

    @rule()
    def append_edit_of_the_next_entry(self) -> None:
        """An edit naming an id no entry has yet (a file may hold one): the entry that
        later gets that id is edited as it is appended."""
        upcoming = (
            f"{self.numbers + 2:08x}"  # this edit takes the next id, the entry after it that one
        )
        self.session._append("context_edit", {"targetId": upcoming, "replacement": None})

    # --- moving the leaf -----------------------------------------------------------------

    @precondition(lambda self: len(self.session.entries) > 0)
    @rule(data=st.data())
    def branch(self, data: st.DataObject) -> None:
        self.session.branch(self._any_id(data))

    @rule()
    def reset_leaf(self) -> None:
        self.session.reset_leaf()

    @precondition(lambda self: len(self.session.entries) > 0)
    @rule(data=st.data())
    def navigate_with_summary(self, data: st.DataObject) -> None:
        target = data.draw(st.none() | st.sampled_from([e["id"] for e in self.session.entries]))
        self.session.branch_with_summary(target, data.draw(words))

    # --- the file ------------------------------------------------------------------------

    @rule()
    def reload(self) -> None:
        leaf = self.session.leaf_id
        self.session = self._open()
        if leaf is None:
            self.session.reset_leaf()
        elif leaf in self.session:
            self.session.branch(leaf)

    @precondition(lambda self: self.file.exists())
    @rule(data=st.data())
    def another_writer_appends(self, data: st.DataObject) -> None:
        other = self._open()
        other.append_message(_message(data))  # type: ignore[arg-type]
        # read in by our session with its next append, at its own leaf (on_stale="fork")

    @rule()
    def take_context(self) -> None:
        context = self.session.build_context()
        self.taken.append((context, copy.deepcopy(build_session_context(self.session.path()))))

    # --- the property --------------------------------------------------------------------

    def _walked_path(self) -> list[Any]:
        """The path root → leaf walked afresh from the entries (the last of an id wins)."""
        by_id = {entry["id"]: entry for entry in self.session.entries}
        walked = []
        entry = by_id.get(self.session.leaf_id) if self.session.leaf_id is not None else None
        while entry is not None:
            walked.append(entry)
            entry = by_id.get(entry.get("parentId"))
        return walked[::-1]

    @invariant()
    def path_equals_a_fresh_walk(self) -> None:
        walked = self._walked_path()
        assert self.session.path() == walked
        assert self.session.path(self.session.leaf_id) == walked

    @invariant()
    def model_and_level_fold_over_the_path(self) -> None:
        model, level = None, "off"
        for entry in self._walked_path():
            model, level = model_and_level_after(entry, model, level)
        context = self.session.build_context()
        assert (context.model, context.thinking_level) == (model, level)

    @invariant()
    def equals_a_fresh_build(self) -> None:
        fresh = build_session_context(self._walked_path())
        assert self.session.build_context() == fresh
        for count in COUNTERS:
            expected = current_context_tokens(fresh.messages, fresh.new_messages_start, count)
            assert self.session.context_tokens(count) == expected

    @invariant()
    def earlier_contexts_are_unchanged(self) -> None:
        for context, then in self.taken[-4:-1]:  # the newest is read first one step on
            assert context == then


LiveContextMachine.TestCase.settings = settings(max_examples=50, stateful_step_count=40)
test_live_context = LiveContextMachine.TestCase
