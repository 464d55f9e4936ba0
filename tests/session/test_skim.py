"""Skimming a session file reads the tree the loader reads, with message bodies left unread.

The oracle is the loader (``read_session_file``): same entries on the same lines, the
same lines skipped for the same reasons, and every head's body, once read, the message
the loader decoded. Files the loader refuses, migrates or reads as empty are not skimmed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.errors import SessionFormatError
from synopsis.session import read_session_file
from synopsis.session.skim import (
    UNREAD_CONTENT,
    MessageList,
    SkimmedFile,
    Unread,
    full_message,
    messages_of,
    skim_session_file,
)
from tests.session.test_loader import _LINES, _NESTED, HEADER

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
FIXTURE_FILES = sorted(
    path for name in ("pi", "pi16") for path in (SHARED / name).glob("*/*.jsonl")
)


def _read_heads(skimmed: SkimmedFile) -> list[dict[str, Any]]:
    """The skimmed entries as the loader gives them, heads read (fields it does not keep
    for a message entry, such as its timestamp, left out)."""
    return [
        {**entry, "message": entry["message"].read()}
        if type(entry.get("message")) is Unread
        else entry
        for entry in skimmed.entries
    ]


def _loaded_like_skimmed(entries: list[dict[str, Any]], skimmed: SkimmedFile) -> list[Any]:
    """The loader's entries cut to the fields the skim keeps for each."""
    cut = []
    for loaded, skim in zip(entries, skimmed.entries, strict=True):
        if type(skim.get("message")) is Unread:
            cut.append({key: loaded.get(key) for key in ("type", "id", "parentId", "message")})
        else:
            cut.append(loaded)
    return cut


def _check_against_loader(path: Path) -> SkimmedFile | None:
    try:
        loaded = read_session_file(path)
    except SessionFormatError as error:
        with pytest.raises(SessionFormatError) as raised:
            if skim_session_file(path) is None:
                raise error  # the usual open then gives the loader's own error
        assert str(raised.value) == str(error)
        return None
    skimmed = skim_session_file(path)
    if loaded.header is None or loaded.migrated:
        assert skimmed is None
        return None
    assert skimmed is not None
    assert skimmed.header == loaded.header
    assert skimmed.entry_lines == loaded.entry_lines
    assert skimmed.skipped == loaded.skipped
    assert skimmed.version_before == loaded.version_before
    assert _read_heads(skimmed) == _loaded_like_skimmed(loaded.entries, skimmed)
    return skimmed


@pytest.mark.skipif(not FIXTURE_FILES, reason="shared fixtures are not present")
@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.name for p in FIXTURE_FILES])
def test_every_fixture_skims_to_what_the_loader_reads(path: Path) -> None:
    _check_against_loader(path)


_CONTENT = st.one_of(
    st.none(),
    st.text(max_size=4),
    st.lists(
        st.one_of(
            st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=4)}),
            st.just(7),
            st.just({"type": "toolCall", "name": "read", "arguments": {"path": "a"}}),
        ),
        max_size=3,
    ),
)


@st.composite
def _message_line(draw: st.DrawFn) -> bytes:
    """A message entry, ordinary or odd (role, content, where ``message`` is)."""
    message: dict[str, Any] = {"role": draw(st.sampled_from(["user", "assistant", 5]))}
    if draw(st.booleans()):
        message["content"] = draw(_CONTENT)
    entry: dict[str, Any] = {
        "type": "message",
        "id": draw(st.sampled_from(["m1", "m2", "a1"])),
        "parentId": draw(st.sampled_from([None, "m1", "a1"])),
        "message": message if draw(st.integers(0, 5)) else draw(st.sampled_from([None, 3])),
    }
    line = orjson.dumps(entry)
    if draw(st.integers(0, 6)) == 0:
        line = line.replace(b'"id"', b'"id":"dup","id"', 1)  # a repeated key
    return line


_SKIM_LINES = st.one_of(_LINES, _message_line(), st.just(_NESTED.replace(b"x", b"message")))


@settings(max_examples=300, deadline=None)
@given(st.lists(_SKIM_LINES, max_size=10), st.booleans(), st.booleans(), st.sampled_from([3, 2]))
def test_a_skimmed_file_holds_what_the_loader_reads(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    crlf: bool,
    final_newline: bool,
    version: int,
) -> None:
    end = b"\r\n" if crlf else b"\n"
    data = end.join([orjson.dumps({**HEADER, "version": version}), *lines])
    path = tmp_path_factory.mktemp("skim") / "session.jsonl"
    path.write_bytes(data + (end if final_newline else b""))
    _check_against_loader(path)


@pytest.mark.parametrize(
    "data",
    [b"", b"\xef\xbb\xbf" + orjson.dumps(HEADER), b"junk\n" + orjson.dumps({"type": "x"})],
)
def test_files_the_loader_does_not_read_as_they_are_are_not_skimmed(
    tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(data)
    if data.startswith(b"junk"):
        with pytest.raises(SessionFormatError):
            read_session_file(path)
    assert skim_session_file(path) is None


def test_a_head_holds_its_role_and_reads_its_body_once_for_good(tmp_path: Path) -> None:
    body = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "usage": {}}
    entry = {"type": "message", "id": "a", "parentId": None, "message": body}
    path = tmp_path / "session.jsonl"
    path.write_bytes(orjson.dumps(HEADER) + b"\n" + orjson.dumps(entry) + b"\n")
    skimmed = skim_session_file(path)
    assert skimmed is not None
    head = skimmed.entries[0]["message"]
    assert type(head) is Unread and head.unread
    assert dict(head) == {"role": "assistant", "content": UNREAD_CONTENT}
    assert head.read() == body and head.unread  # reading afresh keeps it a head
    assert full_message(head) is head and not head.unread
    assert dict(head) == body and list(head) == list(body)


def test_a_message_list_reads_bodies_per_pass_and_keeps_none(tmp_path: Path) -> None:
    bodies = [{"role": "user", "content": f"turn {n}"} for n in range(3)]
    lines = [
        orjson.dumps({"type": "message", "id": f"m{n}", "parentId": None, "message": body})
        for n, body in enumerate(bodies)
    ]
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n".join([orjson.dumps(HEADER), *lines]))
    skimmed = skim_session_file(path)
    assert skimmed is not None
    heads = [entry["message"] for entry in skimmed.entries]
    messages = messages_of(heads)
    assert isinstance(messages, MessageList)
    assert list(messages) == bodies == list(messages)
    assert messages[1] == bodies[1] and list(messages[1:]) == bodies[1:]
    assert messages == bodies and len(messages) == 3
    assert all(head.unread for head in heads)
    assert messages.heads() is heads
    assert messages_of(bodies) is bodies  # no heads: the list as it is
