"""Invariants of the session engine and compaction preparation, on random session trees.

A session is described by a list of operations (plain data, so hypothesis can shrink it)
and built by replaying them through the public :class:`Session` API: messages of every
role, assistant replies with 1–3 tool calls followed by their results, metadata, labels,
branches, branch summaries and compactions. A compaction entry either points at a random
entry (anything a damaged or foreign file could hold) or is placed where
:func:`prepare_compaction` says, as a real compaction would be.

The default run keeps example counts small; ``-m slow`` runs the same properties harder.
"""

from __future__ import annotations

import copy
import itertools
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from synopsis.compaction import CompactionSettings, prepare_compaction, serialize_conversation
from synopsis.errors import SynopsisError
from synopsis.messages import convert_to_llm
from synopsis.session import (
    Session,
    build_session_context,
    open_session,
    parse_session,
    render_session,
)
from synopsis.session.context import entry_message
from synopsis.tokens import current_context_tokens, estimate_context_tokens

pytestmark = pytest.mark.timeout(120)

Op = tuple[Any, ...]

# --- building sessions from operations ----------------------------------------------------

_FILLERS = {
    "ascii": "lorem ipsum ",
    "wide": "é中文\U0001f600\U00020000 ",
    "lone": "ok \ud83d ",  # a lone surrogate: JSON can hold it, orjson cannot write it
}
_USAGES = ("none", "valid", "total", "zero", "aborted", "error")
_TOOLS = ("read", "write", "edit", "bash", "ls")


def _counter(prefix: str) -> Callable[[], str]:
    count = 0

    def next_id() -> str:
        nonlocal count
        count += 1
        return f"{prefix}{count:07x}"

    return next_id


class _Script:
    """Replays operations on a session; every text is unique so messages can be told apart."""

    def __init__(self, session: Session, prepared_compactions: bool) -> None:
        self.session = session
        self.prepared = prepared_compactions
        self.serial = 0

    def _text(self, size: int, filler: str = "ascii") -> str:
        self.serial += 1
        head = f"#{self.serial} "
        pattern = _FILLERS[filler]
        body = (pattern * (size // len(pattern) + 1))[:size]
        return head + body

    def _pick(self, pick: int) -> str | None:
        entries = self.session.entries
        return entries[pick % len(entries)]["id"] if entries else None

    def _assistant(self, text: str, calls: list[dict[str, Any]], usage: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content.extend(calls)
        message: dict[str, Any] = {
            "role": "assistant",
            "content": content,
            "provider": "acme",
            "model": "acme-large-2",
            "stopReason": {"aborted": "aborted", "error": "error"}.get(
                usage, "toolUse" if calls else "stop"
            ),
            "timestamp": self.serial,
        }
        if usage != "none":
            amount = 0 if usage == "zero" else 100 * self.serial
            message["usage"] = {"input": amount, "output": 10 if amount else 0}
            if usage == "total":
                message["usage"]["totalTokens"] = amount + 10
        return message

    def apply(self, op: Op) -> None:
        s = self.session
        kind = op[0]
        if kind == "user":
            _, size, images, filler = op
            content: list[dict[str, Any]] = [{"type": "text", "text": self._text(size, filler)}]
            content += [{"type": "image", "data": "AA==", "mimeType": "image/png"}] * images
            s.append_message({"role": "user", "content": content, "timestamp": self.serial})
        elif kind == "assistant":
            _, size, usage = op
            s.append_message(self._assistant(self._text(size), [], usage))
        elif kind == "tools":
            _, calls, usage = op
            blocks = []
            for name, path, _size, _error in calls:
                self.serial += 1
                arguments = {"path": f"src/f{path}.py" if path >= 0 else path, "n": 1.5}
                blocks.append(
                    {"type": "toolCall", "id": f"call{self.serial}", "name": name,
                     "arguments": arguments}
                )  # fmt: skip
            s.append_message(self._assistant("", blocks, usage))
            for block, (name, _path, size, error) in zip(blocks, calls, strict=True):
                s.append_message(
                    {
                        "role": "toolResult",
                        "toolCallId": block["id"],
                        "toolName": name,
                        "content": [{"type": "text", "text": self._text(size)}],
                        "isError": error,
                        "timestamp": self.serial,
                    }
                )
        elif kind == "bash":
            _, size, excluded = op
            message = {
                "role": "bashExecution",
                "command": f"run {self.serial}",
                "output": self._text(size),
                "exitCode": 0,
                "cancelled": False,
                "truncated": False,
                "timestamp": self.serial,
            }
            if excluded:
                message["excludeFromContext"] = True
            s.append_message(message)
        elif kind == "custom_role":
            s.append_message(
                {"role": "custom", "customType": "note", "content": self._text(op[1]),
                 "display": True, "timestamp": self.serial}
            )  # fmt: skip
        elif kind == "custom_message":
            s.append_custom_message("hint", self._text(op[1]))
        elif kind == "custom":
            s.append_custom("state", {"serial": self.serial})
        elif kind == "model_change":
            s.append_model_change("acme", f"acme-{op[1]}")
        elif kind == "thinking":
            s.append_thinking_level_change(op[1])
        elif kind == "session_info":
            s.append_session_info(self._text(op[1]))
        elif kind == "label":
            _, pick, clear = op
            target = self._pick(pick)
            if target is not None:
                s.append_label(target, None if clear else self._text(3))
        elif kind == "branch":
            target = self._pick(op[1])
            if target is not None:
                s.branch(target)
        elif kind == "reset":
            s.reset_leaf()
        elif kind == "branch_summary":
            _, pick, size = op
            origin = None if pick is None else self._pick(pick)
            summary = self._text(size) if size else ""  # empty summaries exist (D13)
            s.branch_with_summary(origin, summary, {"readFiles": [f"doc{self.serial}.md"]})
        elif kind == "compaction":
            self._compaction(*op[1:])
        else:  # pragma: no cover - the strategies make only the kinds above
            raise AssertionError(kind)

    def _compaction(self, mode: str, pick: int, keep: int, from_hook: bool) -> None:
        s = self.session
        path = s.path()
        if not path:
            return
        if self.prepared or mode == "prepared":
            preparation = prepare_compaction(path, CompactionSettings(keep_recent_tokens=keep))
            if preparation is None:
                return
            first_kept = preparation.first_kept_entry_id
            read_files, modified = preparation.file_ops.file_lists()
            tokens = preparation.tokens_before
        else:
            first_kept = "f0f0f0f0" if mode == "missing" else path[pick % len(path)]["id"]
            read_files, modified, tokens = [f"r{self.serial}"], [], 1
        details = {"readFiles": read_files, "modifiedFiles": modified}
        s.append_compaction(self._text(40), first_kept, tokens, details, from_hook=from_hook)


def build(ops: Sequence[Op], *, prepared: bool = False, session: Session | None = None) -> Session:
    session = session if session is not None else Session(new_id=_counter("a"))
    script = _Script(session, prepared)
    for op in ops:
        script.apply(op)
    return session


# --- strategies ---------------------------------------------------------------------------

_size = st.one_of(st.integers(0, 60), st.integers(0, 6000), st.integers(0, 60_000))
_pick = st.integers(0, 10_000)
_tool_call = st.tuples(st.sampled_from(_TOOLS), st.integers(-2, 5), _size, st.booleans())

_OPS = st.one_of(
    st.tuples(st.just("user"), _size, st.integers(0, 1), st.sampled_from(sorted(_FILLERS))),
    st.tuples(st.just("assistant"), _size, st.sampled_from(_USAGES)),
    st.tuples(st.just("tools"), st.lists(_tool_call, min_size=1, max_size=3),
              st.sampled_from(_USAGES)),
    st.tuples(st.just("bash"), _size, st.booleans()),
    st.tuples(st.just("custom_role"), _size),
    st.tuples(st.just("custom_message"), _size),
    st.tuples(st.just("custom")),
    st.tuples(st.just("model_change"), st.integers(0, 3)),
    st.tuples(st.just("thinking"), st.sampled_from(["off", "low", "high"])),
    st.tuples(st.just("session_info"), st.integers(0, 20)),
    st.tuples(st.just("label"), _pick, st.booleans()),
    st.tuples(st.just("branch"), _pick),
    st.tuples(st.just("reset")),
    st.tuples(st.just("branch_summary"), st.none() | _pick, st.integers(0, 400)),
    st.tuples(st.just("compaction"), st.sampled_from(["prepared", "path", "path", "missing"]),
              _pick, st.integers(0, 30_000), st.booleans()),
)  # fmt: skip
_compaction_op = st.tuples(
    st.just("compaction"),
    st.sampled_from(["prepared", "prepared", "path", "missing"]),
    _pick,
    st.integers(0, 8000),
    st.booleans(),
)

_user_op = st.tuples(
    st.just("user"), _size, st.integers(0, 1), st.sampled_from(["ascii", "ascii", "wide"])
)
_tools_op = st.tuples(
    st.just("tools"), st.lists(_tool_call, min_size=1, max_size=3), st.sampled_from(_USAGES)
)
_assistant_op = st.tuples(st.just("assistant"), _size, st.sampled_from(_USAGES))


def _flatten(turns: list[tuple[Op, list[Op], Op, list[Op]]]) -> list[Op]:
    return [op for start, tools, end, extra in turns for op in (start, *tools, end, *extra)]


# A session is a run of turns (a user message, tool rounds, an answer) with anything at all
# (metadata, branches, compactions...) between them, so random trees hold real conversations.
operations = st.lists(
    st.tuples(
        st.one_of(_user_op, _user_op, _OPS),
        st.lists(_tools_op, max_size=4),
        _assistant_op,
        st.lists(st.one_of(_compaction_op, _OPS), max_size=2),
    ),
    min_size=1,
    max_size=16,
).map(_flatten)

_budgets = st.one_of(st.integers(0, 3000), st.integers(0, 50_000))


def _run(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


FEW, MANY = 100, 1000


# --- (a) paths ----------------------------------------------------------------------------


def check_paths(ops: list[Op]) -> None:
    session = build(ops)
    rebuilt = Session(session.header, session.entries)  # as a loader would see the entries
    for tree in (session, rebuilt):
        leaves = [None, *(e["id"] for e in tree.entries)]
        for leaf in leaves:
            path = tree.path(leaf) if leaf is not None else tree.path()
            ids = [e["id"] for e in path]
            assert len(ids) == len(set(ids))
            if path:
                assert path[-1]["id"] == (leaf if leaf is not None else tree.leaf_id)
                first_parent = path[0]["parentId"]
                assert first_parent is None or first_parent not in tree
            for parent, child in itertools.pairwise(path):
                assert child["parentId"] == parent["id"]
    if session.leaf_id is not None:
        assert session.path() == rebuilt.path(session.leaf_id)


@_run(FEW)
@given(operations)
def test_path_runs_root_to_leaf_without_repeats(ops: list[Op]) -> None:
    check_paths(ops)


@pytest.mark.slow
@_run(MANY)
@given(operations)
def test_path_runs_root_to_leaf_without_repeats_many(ops: list[Op]) -> None:
    check_paths(ops)


# --- (b) save and load --------------------------------------------------------------------


def check_round_trip(ops: list[Op]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "s.jsonl"
        on_disk = open_session(path, create=True, new_id=_counter("b"), cwd="/w")
        build(ops, session=on_disk)
        if not on_disk.entries:
            assert not path.exists()
            return
        again = open_session(path)
        assert again.skipped == []
        assert again.header == on_disk.header
        assert again.entries == on_disk.entries
        assert again.leaf_id == on_disk.entries[-1]["id"]  # the file's leaf: its last entry
        assert again.to_bytes() == path.read_bytes()

        rendered = render_session(on_disk.header, on_disk.entries)
        assert rendered == path.read_bytes()
        parsed = parse_session(rendered)
        assert parsed.skipped == []
        assert (parsed.header, parsed.entries) == (on_disk.header, on_disk.entries)


@_run(FEW)
@given(operations)
def test_saved_session_loads_equal(ops: list[Op]) -> None:
    check_round_trip(ops)


@pytest.mark.slow
@_run(MANY)
@given(operations)
def test_saved_session_loads_equal_many(ops: list[Op]) -> None:
    check_round_trip(ops)


# --- (c) the loader on damaged input ------------------------------------------------------


@st.composite
def damaged_files(draw: st.DrawFn) -> bytes:
    session = build(draw(st.lists(_OPS, max_size=12)))
    data = bytearray(render_session(session.header, session.entries))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        action = draw(st.sampled_from(["flip", "cut", "insert", "truncate", "swap-lines"]))
        if action == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at : at + draw(st.integers(1, 40))]
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=20))
        elif action == "truncate":
            del data[at:]
        elif action == "swap-lines":
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def check_loader(data: bytes, strict: bool, lenient_header: bool, keep: int) -> None:
    policy: Literal["error", "new-session"] = "new-session" if lenient_header else "error"
    try:
        loaded = parse_session(data, strict=strict, invalid_header=policy)
        if loaded.header is None:
            assert loaded.entries == []
            return
        session = Session(loaded.header, loaded.entries)
        session.tree()
        branch = session.path()
        context = build_session_context(branch)
        estimate_context_tokens(context.messages)
        serialize_conversation(convert_to_llm(context.messages))
        prepare_compaction(branch, CompactionSettings(keep_recent_tokens=keep))
    except SynopsisError:
        pass


_loader_inputs = st.one_of(st.binary(max_size=3000), damaged_files())


@_run(FEW * 2)
@given(_loader_inputs, st.booleans(), st.booleans(), _budgets)
def test_loader_fails_only_with_synopsis_errors(
    data: bytes, strict: bool, lenient_header: bool, keep: int
) -> None:
    check_loader(data, strict, lenient_header, keep)


@pytest.mark.slow
@_run(MANY * 3)
@given(_loader_inputs, st.booleans(), st.booleans(), _budgets)
def test_loader_fails_only_with_synopsis_errors_many(
    data: bytes, strict: bool, lenient_header: bool, keep: int
) -> None:
    check_loader(data, strict, lenient_header, keep)


# --- (d) preparation ----------------------------------------------------------------------


def _call_ids(messages: Sequence[Any]) -> set[str]:
    return {
        block.get("id")
        for message in messages
        if message.get("role") == "assistant"
        for block in message.get("content", [])
        if block.get("type") == "toolCall"
    }


def check_preparation(ops: list[Op], keep: int, keep_messages: int | None) -> None:
    session = build(ops)
    branch = session.path()
    options = CompactionSettings(keep_recent_tokens=keep, keep_recent_messages=keep_messages)
    preparation = prepare_compaction(branch, options)

    # deterministic, and independent of object identity
    assert prepare_compaction(branch, options) == preparation
    assert prepare_compaction(copy.deepcopy(branch), options) == preparation
    event(f"branch of {len(branch) // 20 * 20}+ entries")
    if preparation is None:
        event("nothing to compact")
        return
    event("split turn" if preparation.is_split_turn else "cut at a turn start")
    if preparation.previous_compaction_index >= 0:
        event("after a previous compaction")

    context = build_session_context(branch)
    messages = context.messages[1:] if context.compaction_index >= 0 else context.messages
    first_kept = preparation.first_kept_index
    assert branch[first_kept]["id"] == preparation.first_kept_entry_id
    # the cut may lie inside the previous compaction's kept part (Pi 1.6), never before it
    assert (
        first_kept >= preparation.range_start or first_kept > preparation.previous_compaction_index
    )
    kept: list[Any] = preparation.kept_messages

    # the kept part never starts with a tool result ...
    if kept:
        assert kept[0]["role"] != "toolResult"
    # ... and every kept result has its call kept or in the turn prefix
    calls = _call_ids(kept) | _call_ids(preparation.turn_prefix_messages)
    for message in kept:
        if message["role"] == "toolResult":
            assert message["toolCallId"] in calls

    # summarized + prefix + kept partition the branch's context: nothing lost, nothing twice
    summarized = preparation.messages_to_summarize + preparation.turn_prefix_messages
    assert summarized + kept == messages
    by_object = {id(e["message"]) for e in branch if e["type"] == "message"}
    pieces = [id(m) for m in summarized + kept if id(m) in by_object]
    assert pieces == [id(m) for m in messages if id(m) in by_object]
    assert preparation.messages_to_summarize or preparation.turn_prefix_messages

    # what the preparation itself reports about the two parts agrees
    assert len(preparation.source_entry_ids) == len(summarized)
    by_id = {e["id"]: e for e in branch}
    for entry_id, message in zip(preparation.source_entry_ids, summarized, strict=True):
        assert entry_message(by_id[entry_id]) == message

    # a full pass summarizes the whole log before the same cut: again nothing lost or doubled
    full = prepare_compaction(branch, options, full_pass=True)
    assert full is not None
    assert full.first_kept_entry_id == preparation.first_kept_entry_id
    assert full.previous_summary is None
    everything = [m for m in map(entry_message, branch) if m is not None]
    assert full.messages_to_summarize + full.turn_prefix_messages + kept == everything

    # the split flag agrees with the prefix, and tokens before is the context estimate
    # without usage from before the compaction in force
    assert preparation.is_split_turn == (preparation.turn_start_index >= 0)
    if not preparation.is_split_turn:
        assert preparation.turn_prefix_messages == []
    fresh = current_context_tokens(context.messages, context.new_messages_start)
    assert preparation.tokens_before == fresh.tokens


@_run(FEW * 2)
@given(operations, _budgets, st.none() | st.integers(1, 30))
def test_preparation_partitions_the_context(
    ops: list[Op], keep: int, keep_messages: int | None
) -> None:
    check_preparation(ops, keep, keep_messages)


@pytest.mark.slow
@_run(MANY * 2)
@given(operations, _budgets, st.none() | st.integers(1, 30))
def test_preparation_partitions_the_context_many(
    ops: list[Op], keep: int, keep_messages: int | None
) -> None:
    check_preparation(ops, keep, keep_messages)


# --- (e) the context never holds an orphaned tool result ------------------------------------


def check_no_orphan_results(ops: list[Op]) -> None:
    session = build(ops, prepared=True)
    for entry in session.entries:  # every position a user could navigate to
        context = session.build_context(entry["id"])
        if context.compaction_index >= 0:
            event("context after a compaction")
        seen: set[str] = set()
        messages: list[Any] = context.messages
        for message in messages:
            if message.get("role") == "assistant":
                seen |= _call_ids([message])
            elif message.get("role") == "toolResult":
                assert message["toolCallId"] in seen, "tool result without its call"


@_run(FEW)
@given(operations)
def test_context_never_holds_a_result_without_its_call(ops: list[Op]) -> None:
    check_no_orphan_results(ops)


@pytest.mark.slow
@_run(MANY)
@given(operations)
def test_context_never_holds_a_result_without_its_call_many(ops: list[Op]) -> None:
    check_no_orphan_results(ops)


@_run(FEW)
@given(operations)
def test_projected_context_tokens_equals_the_built_context_estimate(ops: list[Op]) -> None:
    """The shortcut used for tokensBefore gives exactly the estimate of the built context."""
    from synopsis.session.context import build_projection, projected_context_tokens

    session = build(ops, prepared=True)
    for leaf in [None, *(entry["id"] for entry in session.entries)]:
        path = session.path(leaf)
        context = build_session_context(path)
        expected = current_context_tokens(context.messages, context.new_messages_start).tokens
        assert projected_context_tokens(build_projection(path)) == expected
