"""Preparing a compaction of a skimmed branch decides what preparing the loaded branch does.

The oracle is ``prepare_compaction`` on the branch of the session opened the usual way
(every body decoded): the skimmed branch (``synopsis.session.skim``) must give the same
cut, counts, file lists and messages, and its streamed history the same transcript.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.compaction import (
    CompactionPreparation,
    CompactionSettings,
    FileOperations,
    prepare_compaction,
    serialize_conversation,
)
from synopsis.compaction.file_ops import calls_of
from synopsis.compaction.serialize import PART_SEPARATOR
from synopsis.compaction.skimmed_transcript import iter_transcript_parts
from synopsis.errors import SynopsisError
from synopsis.messages import convert_to_llm
from synopsis.session import Session, open_session
from synopsis.session.skim import MessageList, Unread, skim_session_file
from tests.session.test_loader import HEADER

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
FIXTURE_FILES = sorted(
    path for name in ("pi", "pi16") for path in (SHARED / name).glob("*/*.jsonl")
)


def _branches(path: Path) -> tuple[list[Any], list[Any]] | None:
    """(loaded branch, skimmed branch) of ``path``, or ``None`` if it does not skim."""
    skimmed = skim_session_file(path)
    if skimmed is None:
        return None
    try:
        loaded = open_session(path, duplicates="last-wins").path()
    except SynopsisError as error:
        with pytest.raises(type(error)):
            Session(skimmed.header, skimmed.entries, duplicates="last-wins")
        return None
    return loaded, Session(skimmed.header, skimmed.entries, duplicates="last-wins").path()


def _fields(preparation: CompactionPreparation | None) -> Any:
    if preparation is None:
        return None
    fields = {f.name: getattr(preparation, f.name) for f in dataclasses.fields(preparation)}
    for name in ("messages_to_summarize", "turn_prefix_messages"):
        fields[name] = list(fields[name])
    return fields


def _transcript(messages: Any) -> str:
    if isinstance(messages, MessageList):
        return PART_SEPARATOR.join(iter_transcript_parts(messages, convert_to_llm))
    return serialize_conversation(convert_to_llm(list(messages)))


def _check(loaded: list[Any], skimmed: list[Any], keep: int, full_pass: bool = False) -> None:
    settings = CompactionSettings(keep_recent_tokens=keep)
    expected = prepare_compaction(loaded, settings, full_pass=full_pass)
    actual = prepare_compaction(skimmed, settings, full_pass=full_pass)
    assert _fields(actual) == _fields(expected)
    if expected is None or actual is None:
        return
    for name in ("messages_to_summarize", "turn_prefix_messages"):
        assert _transcript(getattr(actual, name)) == _transcript(getattr(expected, name))
    assert not any(type(m) is Unread and m.unread for m in actual.kept_messages)


@pytest.mark.skipif(not FIXTURE_FILES, reason="shared fixtures are not present")
@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.name for p in FIXTURE_FILES])
def test_every_fixture_prepares_the_same_skimmed(path: Path) -> None:
    branches = _branches(path)
    if branches is None:
        return
    for keep in (1, 200, 2000, 20000):
        _check(*branches, keep)
    _check(*branches, 2000, full_pass=True)


# --- odd message shapes: what the reduced bodies give must be what the full ones give ----

_TEXT = st.one_of(st.text(max_size=5), st.none(), st.integers(0, 3), st.just(["x"]))
_ARGUMENTS = st.one_of(
    st.none(),
    st.just("path=a.txt"),
    st.just([1]),
    st.fixed_dictionaries(
        {"path": st.one_of(st.sampled_from(["a.txt", "b/c.md"]), st.none(), st.just(3))},
        optional={"1": st.just("x"), "oldText": st.text(max_size=3), "n": st.floats(-2, 2)},
    ),
)
_BLOCK = st.one_of(
    st.fixed_dictionaries({"type": st.just("text")}, optional={"text": _TEXT}),
    st.fixed_dictionaries(
        {"type": st.just("toolCall")},
        optional={
            "name": st.sampled_from(["read", "write", "edit", "bash", 4]),
            "arguments": _ARGUMENTS,
            "id": st.just("c1"),
        },
    ),
    st.fixed_dictionaries({"type": st.sampled_from(["thinking", "image", 7])}),
    st.sampled_from([3, "text", None]),
)
_NESTED_CALLS = st.one_of(
    st.none(),
    st.just("x"),
    st.fixed_dictionaries({"calls": st.one_of(st.just(5), st.lists(_BLOCK, max_size=2))}),
)


@st.composite
def _message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(["user", "assistant", "toolResult", "bashExecution"]))
    content = draw(st.one_of(st.text(max_size=5), st.lists(_BLOCK, max_size=3)))
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "toolResult":
        message.update(toolCallId="c1", toolName="read")
        nested = draw(_NESTED_CALLS)
        if nested is not None:
            message["nestedCalls"] = nested
    elif role == "bashExecution":
        message.update(command="ls", output=draw(st.text(max_size=4)), exitCode=1)
    return message


@settings(max_examples=200, deadline=None)
@given(st.lists(_message(), min_size=1, max_size=8))
def test_reduced_bodies_give_the_transcript_and_file_lists_of_full_ones(
    tmp_path_factory: pytest.TempPathFactory, messages: list[dict[str, Any]]
) -> None:
    lines = [orjson.dumps(HEADER)]
    for number, message in enumerate(messages):
        entry = {"type": "message", "id": f"m{number}", "parentId": None, "message": message}
        lines.append(orjson.dumps(entry))
    path = tmp_path_factory.mktemp("bodies") / "session.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    skimmed = skim_session_file(path)
    assert skimmed is not None
    heads = MessageList([entry["message"] for entry in skimmed.entries])
    assert _transcript(heads) == _transcript(messages)
    full, decoded = FileOperations(), FileOperations()
    full.add_from_messages(messages)
    decoded.add_calls(heads.file_calls(calls_of))
    # In first-seen order too (the driver prints the lists as they are).
    assert [list(decoded.read), list(decoded.written), list(decoded.edited)] == [
        list(full.read),
        list(full.written),
        list(full.edited),
    ]
