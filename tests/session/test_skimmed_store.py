"""A session file opened with ``skim=True`` reads as the same session as a full open.

The oracle is ``open_session`` without skim (every line decoded). The files come from the
live-context state machine, which writes every kind of entry (messages of every role,
with and without usage, model and thinking changes, labels, compactions, context edits,
branches, another writer's appends); at any step the file may be opened both ways, and
the tree, the previews ``tree`` prints and the figures ``context`` prints (the context at
the leaf and at any entry, each message's estimate, the context's size) must be equal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import rule
from typer.testing import CliRunner

from synopsis.cli import app, session_commands
from synopsis.cli.session_commands import _context_figures, _preview, _tree_rows
from synopsis.errors import SessionFormatError
from synopsis.session import FileSession, open_session
from synopsis.session.skim import MessageList, Unread
from synopsis.tokens import CJK_ESTIMATE, PI_ESTIMATE
from tests.session.builders import assistant, usage, user
from tests.session.test_live_context import LiveContextMachine
from tests.synthetic import write_session


def _read(entry: dict[str, Any]) -> dict[str, Any]:
    """A skimmed entry with its head read, as the fields a skim keeps of a message entry."""
    message = entry.get("message")
    if type(message) is not Unread:
        return entry
    return {"type": "message", "id": entry["id"], "parentId": entry["parentId"],
            "message": message.read()}  # fmt: skip


def _kept(full: dict[str, Any], skimmed: dict[str, Any]) -> dict[str, Any]:
    if type(skimmed.get("message")) is not Unread:
        return full
    return {key: full.get(key) for key in ("type", "id", "parentId", "message")}


def assert_reads_the_same(path: Path, leaves: list[str | None]) -> None:
    full = open_session(path, durable=False)
    skim = open_session(path, durable=False, skim=True)
    assert skim.skimmed and not full.skimmed
    assert skim.header == full.header and skim.skipped == full.skipped
    assert skim.leaf_id == full.leaf_id and skim.labels() == full.labels()
    assert [_read(e) for e in skim.entries] == [
        _kept(f, s) for f, s in zip(full.entries, skim.entries, strict=True)
    ]
    rows = [(e["id"], depth, opens) for e, depth, opens in _tree_rows(skim)]
    assert rows == [(e["id"], depth, opens) for e, depth, opens in _tree_rows(full)]
    assert [_preview(e) for e in skim.entries] == [_preview(e) for e in full.entries]
    for leaf in leaves:
        for counter in (PI_ESTIMATE, CJK_ESTIMATE):
            # the full session first: a skimmed one reads some heads for good as it goes
            built, per_message, tokens = _context_figures(full, leaf, counter)
            s_built, s_per_message, s_tokens = _context_figures(
                open_session(path, durable=False, skim=True), leaf, counter
            )
            assert list(MessageList(s_built.messages)) == built.messages
            assert s_built.entry_ids == built.entry_ids
            assert (s_built.model, s_built.thinking_level) == (built.model, built.thinking_level)
            assert s_built.new_messages_start == built.new_messages_start
            assert s_built.first_kept_entry_missing == built.first_kept_entry_missing
            assert (s_per_message, s_tokens) == (per_message, tokens)


class SkimmedFileMachine(LiveContextMachine):
    """The live-context machine, with a step that opens its file both ways."""

    @rule(data=st.data())
    def open_the_file_skimmed(self, data: st.DataObject) -> None:
        if not self.file.exists():
            return
        ids = [e["id"] for e in open_session(self.file).entries]
        leaves: list[str | None] = [None]
        if ids:
            leaves.append(data.draw(st.sampled_from(ids)))
        assert_reads_the_same(self.file, leaves)


SkimmedFileMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=30)
test_skimmed_file = SkimmedFileMachine.TestCase


def _write(path: Path, *lines: dict[str, Any]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return path


HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}


def test_the_model_is_the_last_assistant_message_s_when_its_body_is_unread(
    tmp_path: Path,
) -> None:
    """The head of an assistant message holds only its role: the message that names the
    model is read before the context is built."""
    reply = assistant("done", usage_=usage(input=90, output=9))
    reply["provider"], reply["model"] = "acme", "acme-large-2"
    path = _write(
        tmp_path / "s.jsonl",
        HEADER,
        {"type": "model_change", "id": "a", "parentId": None, "provider": "x", "modelId": "y"},
        {"type": "message", "id": "b", "parentId": "a", "message": user("hi")},
        {"type": "message", "id": "c", "parentId": "b", "message": reply},
        {"type": "message", "id": "d", "parentId": "c", "message": user("and now")},
    )
    built, _, tokens = _context_figures(open_session(path, skim=True), None, PI_ESTIMATE)
    assert built.model is not None and built.model.provider == "acme"
    assert tokens.usage_tokens == 99
    assert_reads_the_same(path, [None, "b", "c"])


def test_a_skimmed_session_refuses_appends(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.jsonl", HEADER)
    session = open_session(path, skim=True)
    before = path.read_bytes()
    with pytest.raises(SessionFormatError, match="skim=True"):
        session.append_message(user("more"))
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "header", [{**HEADER, "version": 2}, {"type": "message", "id": "x"}], ids=["v2", "no header"]
)
def test_a_file_the_skim_does_not_take_is_read_in_full(
    tmp_path: Path, header: dict[str, Any]
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        header,
        {"type": "message", "id": "m", "parentId": None, "message": user("hi")},
    )
    try:
        full: FileSession | None = open_session(path, invalid_header="new-session")
    except SessionFormatError:
        full = None
    if full is None:
        with pytest.raises(SessionFormatError):
            open_session(path, skim=True, invalid_header="new-session")
        return
    skim = open_session(path, skim=True, invalid_header="new-session")
    assert not skim.skimmed and skim.entries == full.entries


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated session with a branch, a label and a checkpoint on the path."""
    path = tmp_path_factory.mktemp("generated") / "session.jsonl"
    write_session(path, seed=5, entries=400)
    session = open_session(path, durable=False)
    fork = session.entries[150]["id"]
    session.branch(fork)
    session.append_message(user("another way"))
    session.append_label(fork, "fork here")
    session.append_compaction("the story so far", session.path()[-2]["id"], 1234)
    session.append_message(user("and on"))
    return path


@pytest.mark.parametrize(
    "args",
    [["tree"], ["tree", "--all"], ["tree", "--json"], ["context"], ["context", "--all"],
     ["context", "--counter", "cjk", "--limit", "7"], ["context", "--leaf", "LEAF"],
     ["plan"], ["plan", "--json", "--keep-recent", "300"]],
    ids=" ".join,
)  # fmt: skip
def test_the_commands_print_the_same_of_a_skimmed_file(
    generated: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI's output with every file skimmed equals its output with none skimmed."""
    leaf = open_session(generated).entries[120]["id"]
    args = [leaf if arg == "LEAF" else arg for arg in args]
    outputs = []
    for threshold in (0, 1 << 62):
        monkeypatch.setattr(session_commands, "SKIM_FROM_BYTES", threshold)
        done = CliRunner().invoke(app, [args[0], str(generated), *args[1:]])
        assert done.exit_code == 0, done.output
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].strip()
