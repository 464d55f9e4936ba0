"""What a transcript and the file lists read of a skimmed history is what they read of
the loaded one: the same parts, the same calls in the same order.

The oracle is ``iter_serialized_parts(convert_to_llm(messages))`` on the messages the
loader decoded from the same file (every body read in full); the skimmed side renders its
heads from their lines (``iter_transcript_parts``). The files hold odd inputs on purpose:
text beyond the BMP and lone surrogates (escaped or raw), escapes of every kind, invalid
UTF-8, tool results around and far past the 2,000-unit cut (a surrogate pair astride it),
blocks and arguments of any shape, and the roles that are converted before rendering.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.compaction import FileOperations, iter_serialized_parts
from synopsis.compaction.file_ops import calls_of
from synopsis.compaction.skimmed_transcript import iter_transcript_parts
from synopsis.errors import SessionFormatError
from synopsis.messages import convert_to_llm
from synopsis.session import read_session_file
from synopsis.session.skim import MessageList, Unread, skim_session_file
from tests.session.test_loader import HEADER

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
FIXTURE_FILES = sorted(
    path for name in ("pi", "pi16") for path in (SHARED / name).glob("*/*.jsonl")
)

_ODD_CHARS = st.sampled_from(
    ["a", " ", "\n", "\t", '"', "\\", "/", "\x00", "\x1f", "é", "中", "😀", "\ud800", "\udc00"]
)
_SHORT = st.text(_ODD_CHARS, max_size=6)
_LONG = st.builds(
    lambda head, units, tail: head + "x" * units + tail,
    st.text(_ODD_CHARS, max_size=4),
    st.integers(1985, 2010) | st.integers(2011, 9000),
    st.text(_ODD_CHARS, max_size=4),
)
"""Tool-result texts near and past the cut (the odd characters can land right on it)."""
_TEXT = st.one_of(_SHORT, _LONG, st.none(), st.integers(0, 3), st.just(["x"]))
_ARGUMENTS = st.one_of(
    st.none(),
    st.just("path=a.txt"),
    st.just([1]),
    st.fixed_dictionaries(
        {"path": st.one_of(_SHORT, st.none(), st.just(3))},
        optional={
            "1": st.just("x"),
            "oldText": _SHORT,
            "n": st.floats(-2, 2) | st.sampled_from([1e21, 1e-7, 0.1]),
            "nested": st.just({"b": [1, {"2": None}], "a": True}),
        },
    ),
)
_TEXT_BLOCK = st.fixed_dictionaries({"type": st.just("text"), "text": _SHORT | _LONG})
_BLOCK = st.one_of(
    _TEXT_BLOCK,
    _TEXT_BLOCK,
    st.fixed_dictionaries({"type": st.just("text")}, optional={"text": _TEXT}),
    st.fixed_dictionaries(
        {"type": st.just("toolCall")},
        optional={
            "name": st.sampled_from(["read", "write", "édit", 4]),
            "arguments": _ARGUMENTS,
            "id": st.just("c1"),
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["thinking", "image", 7])}, optional={"thinking": _SHORT}
    ),
    st.sampled_from([3, "text", None]),
)


_ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary"]
_ROLES += ["system", "unknown"]


@st.composite
def _message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(_ROLES))
    blocks = st.lists(_BLOCK, max_size=4)
    content = draw(st.one_of(blocks, blocks, _SHORT, _LONG, st.none(), st.just(2)))
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "toolResult":
        message.update(toolCallId="c1", toolName="read", isError=False)
    elif role == "assistant":
        message.update(usage={"input": 1, "output": 2}, stopReason="stop")
    elif role == "bashExecution":
        message.update(command="ls", output=draw(_SHORT), exitCode=1)
    elif role == "branchSummary":
        message.update(summary=draw(_SHORT), fromId="m0")
    return message


def _line(entry: dict[str, Any], ascii_only: bool) -> bytes:
    """The entry as JSON: escaped to ASCII, or as UTF-8 (a lone surrogate then written as
    the invalid bytes of its code point, which a reader decodes to U+FFFD)."""
    text = json.dumps(entry, ensure_ascii=ascii_only, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")


def _session_of(folder: Path, messages: list[tuple[dict[str, Any], bool]]) -> Path:
    """A session file of ``messages`` in a chain, each written ASCII-escaped or raw."""
    lines = [json.dumps(HEADER).encode()]
    for number, (message, ascii_only) in enumerate(messages):
        entry = {"type": "message", "id": f"m{number}", "parentId": None, "message": message}
        lines.append(_line(entry, ascii_only))
    path = folder / "session.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _parts_of_loaded(path: Path) -> list[str]:
    loaded = read_session_file(path)
    messages = [e["message"] for e in loaded.entries if e.get("type") == "message"]
    return list(iter_serialized_parts(convert_to_llm(messages)))


def _parts_of_skimmed(path: Path) -> list[str] | None:
    skimmed = skim_session_file(path)
    if skimmed is None:
        return None
    heads = [e["message"] for e in skimmed.entries if e.get("type") == "message"]
    return list(iter_transcript_parts(MessageList(heads), convert_to_llm))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_message(), st.booleans()), min_size=1, max_size=8))
def test_the_transcript_of_skimmed_heads_is_that_of_the_loaded_messages(
    tmp_path_factory: pytest.TempPathFactory, messages: list[tuple[dict[str, Any], bool]]
) -> None:
    path = _session_of(tmp_path_factory.mktemp("transcript"), messages)
    parts = _parts_of_skimmed(path)
    assert parts is not None
    assert parts == _parts_of_loaded(path)


def test_heads_stay_unread_and_full_messages_pass_as_they_are(tmp_path: Path) -> None:
    long_text = "😀" * 1500  # 3,000 units: cut between two pairs
    lines = [json.dumps(HEADER).encode()]
    body = {"role": "toolResult", "content": [{"type": "text", "text": long_text}]}
    lines.append(_line({"type": "message", "id": "a", "parentId": None, "message": body}, False))
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    skimmed = skim_session_file(path)
    assert skimmed is not None
    head = skimmed.entries[0]["message"]
    full = {"role": "user", "content": "said"}
    parts = list(iter_transcript_parts([head, full], convert_to_llm))
    assert parts == [
        "[Tool result]: " + "😀" * 1000 + "\n\n[... 1000 more characters truncated]",
        "[User]: said",
    ]
    assert type(head) is Unread and head.unread


@pytest.mark.skipif(not FIXTURE_FILES, reason="shared fixtures are not present")
@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.name for p in FIXTURE_FILES])
def test_every_fixture_gives_the_transcript_of_its_loaded_messages(path: Path) -> None:
    try:
        expected = _parts_of_loaded(path)
    except SessionFormatError:  # refused by the skim too (tests/session/test_skim.py)
        return
    parts = _parts_of_skimmed(path)
    if parts is not None:
        assert parts == expected


# --- the calls the file lists read -------------------------------------------------------

_CALL = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["toolCall", "toolCall", "toolCall", "text", 5]),
        "name": st.sampled_from(["read", "write", "edit", "bash", "réad", 4]),
        "arguments": st.one_of(
            st.fixed_dictionaries(
                {"path": st.sampled_from(["a.txt", "b/c.md", "ü/😀.md", "a.txt"]) | _SHORT},
                optional={"oldText": _LONG, "path2": st.just(1)},
            ),
            st.fixed_dictionaries({}, optional={"path": st.none() | st.just(3)}),
            st.just("path=a.txt"),
        ),
    },
    optional={"id": st.just("c1"), "text": _SHORT},
)


@st.composite
def _calling_message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(["assistant", "assistant", "toolResult", "user"]))
    calls = draw(st.lists(_CALL, max_size=4))
    odd = draw(st.sampled_from([None, None, None, 3, "text"]))
    content: Any = calls if odd is None else [*calls, odd]
    if role == "assistant" and draw(st.booleans()) and not calls:
        content = draw(_SHORT)
    message: dict[str, Any] = {"role": role, "content": content}
    if role == "toolResult" and draw(st.booleans()):
        message["nestedCalls"] = {"calls": draw(st.lists(_CALL, max_size=3))}
    return message


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_calling_message(), st.booleans()), min_size=1, max_size=8))
def test_the_calls_of_skimmed_heads_are_those_of_the_loaded_messages(
    tmp_path_factory: pytest.TempPathFactory, messages: list[tuple[dict[str, Any], bool]]
) -> None:
    path = _session_of(tmp_path_factory.mktemp("calls"), messages)
    skimmed = skim_session_file(path)
    assert skimmed is not None
    heads = MessageList([e["message"] for e in skimmed.entries])
    loaded = [e["message"] for e in read_session_file(path).entries]
    expected = [call for message in loaded for call in calls_of(message)]
    assert list(heads.file_calls(calls_of)) == expected
    ops = FileOperations()
    ops.add_calls(heads.file_calls(calls_of))
    assert ops.file_lists() == _file_lists(loaded)


def _file_lists(messages: list[Any]) -> tuple[list[str], list[str]]:
    ops = FileOperations()
    ops.add_from_messages(messages)
    return ops.file_lists()
