"""Loading session files: what is accepted, what is skipped (and reported), what is an error."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.errors import (
    DuplicateEntryIdError,
    ParentCycleError,
    SessionChangedError,
    SessionFormatError,
    SynopsisError,
)
from synopsis.session import Session, open_session, parse_session, read_session_file
from synopsis.session import jsonl as jsonl_module
from synopsis.session.entries import entry_problem
from synopsis.session.jsonl import describe_parse_error, parse_line

HEADER = {
    "type": "session",
    "version": 3,
    "id": "0c5e1d2a-0000-4000-8000-00000000beef",
    "timestamp": "2026-03-01T10:00:00.000Z",
    "cwd": "/home/ada/garden",
}


def entry(entry_id: str, parent: str | None, text: str = "hello") -> dict[str, Any]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-03-01T10:00:01.000Z",
        "message": {"role": "user", "content": text},
    }


def jsonl(*values: Any, newline: bytes = b"\n") -> bytes:
    return b"".join(orjson.dumps(v) + newline for v in values)


def test_plain_file_loads_with_line_numbers() -> None:
    loaded = parse_session(jsonl(HEADER, entry("a1", None), entry("a2", "a1")))
    assert loaded.header == HEADER
    assert [e["id"] for e in loaded.entries] == ["a1", "a2"]
    assert loaded.entry_lines == [2, 3]
    assert loaded.skipped == []
    assert loaded.version_before == 3
    assert not loaded.migrated


def test_crlf_and_blank_lines_are_accepted() -> None:
    data = (
        orjson.dumps(HEADER)
        + b"\r\n\r\n"
        + orjson.dumps(entry("a1", None))
        + b"\r\n   \t\r\n\n"
        + orjson.dumps(entry("a2", "a1"))  # no final newline
    )
    loaded = parse_session(data)
    assert loaded.header == HEADER
    assert [e["id"] for e in loaded.entries] == ["a1", "a2"]
    assert loaded.entry_lines == [3, 6]
    assert loaded.skipped == []  # blank lines are not worth a report


def test_a_byte_order_mark_before_the_header_is_not_a_session() -> None:
    """Pi 1.6 refuses such a file; reading it anyway would let a Pi-unreadable file pass."""
    data = b"\xef\xbb\xbf" + jsonl(HEADER, entry("a1", None))
    with pytest.raises(SessionFormatError, match="byte order mark"):
        parse_session(data)
    assert parse_session(data, invalid_header="new-session").header is None
    assert parse_session(data[3:]).header == HEADER


def test_malformed_line_is_skipped_and_reported_with_its_line_number() -> None:
    data = (
        jsonl(HEADER, entry("a1", None))
        + b'{"type":"message", "id": "a2"\n'
        + jsonl(entry("a3", "a1"))
    )
    loaded = parse_session(data, path="s.jsonl")
    assert [e["id"] for e in loaded.entries] == ["a1", "a3"]
    assert [s.line for s in loaded.skipped] == [3]
    assert "not valid JSON" in loaded.skipped[0].reason
    assert loaded.skipped[0].describe("s.jsonl").startswith("s.jsonl:3: skipped: not valid JSON")


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_lines_with_nan_or_infinity_are_not_json(constant: bytes) -> None:
    bad = b'{"type":"custom","id":"c1","parentId":"a1","timestamp":"t","data":' + constant + b"}\n"
    loaded = parse_session(jsonl(HEADER, entry("a1", None)) + bad)
    assert [e["id"] for e in loaded.entries] == ["a1"]
    assert [s.line for s in loaded.skipped] == [3]


def test_strict_mode_makes_a_skipped_line_an_error() -> None:
    data = jsonl(HEADER, entry("a1", None)) + b"{oops\n"
    with pytest.raises(SessionFormatError) as raised:
        parse_session(data, path="work.jsonl", strict=True)
    assert raised.value.line == 3
    assert str(raised.value).startswith("work.jsonl:3: ")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"[1, 2]", "JSON object"),
        (b'"just a string"', "JSON object"),
        (b'{"id":"x1","parentId":null}', "type"),
        (b'{"type":"custom","parentId":null}', "id"),
        (b'{"type":"custom","id":7,"parentId":null}', "id"),
        (b'{"type":"custom","id":"x1","parentId":5}', "parentId"),
        (b'{"type":"message","id":"x1","parentId":null}', "message"),
        (b'{"type":"message","id":"x1","parentId":null,"message":{"content":"hi"}}', "role"),
    ],
)
def test_json_lines_that_are_not_entries_are_skipped(line: bytes, why: str) -> None:
    loaded = parse_session(jsonl(HEADER) + line + b"\n" + jsonl(entry("a1", None)))
    assert [e["id"] for e in loaded.entries] == ["a1"]
    assert [s.line for s in loaded.skipped] == [2]
    assert why in loaded.skipped[0].reason
    with pytest.raises(SessionFormatError):
        parse_session(jsonl(HEADER) + line + b"\n", strict=True)


def test_the_child_of_a_skipped_line_becomes_a_root() -> None:
    data = jsonl(HEADER, entry("a1", None)) + b"{broken\n" + jsonl(entry("a3", "a2"))
    session = Session(parse_session(data).header, parse_session(data).entries)
    assert [e["id"] for e in session.path()] == ["a3"]
    assert [e["id"] for e in session.children(None)] == ["a1", "a3"]


def test_what_javascript_parses_loads_too() -> None:
    lone = b'{"type":"message","id":"s1","parentId":null,"timestamp":"t",'
    lone += b'"message":{"role":"user","content":"\\ud83d!"}}\n'
    big = b'{"type":"custom","id":"b1","parentId":"s1","timestamp":"t",'
    big += b'"n":123456789012345678901234}\n'
    bad_utf8 = b'{"type":"custom","id":"u1","parentId":"b1","timestamp":"t","s":"a\xffb"}\n'
    loaded = parse_session(jsonl(HEADER) + lone + big + bad_utf8)
    assert loaded.skipped == []
    assert loaded.entries[0]["message"]["content"] == "\ud83d!"
    assert loaded.entries[1]["n"] == float("123456789012345678901234")  # a double, as in JS
    assert loaded.entries[2]["s"] == "a\ufffdb"


def test_deeply_nested_line_is_skipped_not_a_crash() -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    loaded = parse_session(jsonl(HEADER) + deep + b"\n" + jsonl(entry("a1", None)))
    assert [e["id"] for e in loaded.entries] == ["a1"]
    assert [s.line for s in loaded.skipped] == [2]


def test_empty_and_header_only_files() -> None:
    empty = parse_session(b"")
    assert (empty.header, empty.entries, empty.skipped) == (None, [], [])
    blank = parse_session(b"\n \r\n")
    assert (blank.header, blank.entries) == (None, [])
    only = parse_session(jsonl(HEADER))
    assert (only.header, only.entries) == (HEADER, [])


@pytest.mark.parametrize(
    "first",
    [
        entry("a1", None),
        {"type": "session", "version": 3},  # no id
        {"type": "session", "id": 12},
        [HEADER],
    ],
)
def test_first_line_that_is_not_a_header_is_an_error_by_default(first: Any) -> None:
    data = jsonl(first, entry("a2", None))
    with pytest.raises(SessionFormatError) as raised:
        parse_session(data, path="x.jsonl")
    assert raised.value.line == 1
    lenient = parse_session(data, invalid_header="new-session")
    assert (lenient.header, lenient.entries) == (None, [])


def test_malformed_lines_before_the_header_do_not_hide_it() -> None:
    loaded = parse_session(b"{nope\n" + jsonl(HEADER, entry("a1", None)))
    assert loaded.header == HEADER
    assert [s.line for s in loaded.skipped] == [1]


def test_duplicate_id_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    path.write_bytes(jsonl(HEADER, entry("a1", None), entry("a2", "a1"), entry("a1", None)))
    with pytest.raises(DuplicateEntryIdError) as raised:
        open_session(path)
    assert raised.value.entry_id == "a1"
    assert f"{path}:4:" in str(raised.value)
    kept = open_session(path, duplicates="last-wins")
    assert len(kept.entries) == 3
    assert kept.get_entry("a1") is kept.entries[2]


@pytest.mark.parametrize(
    "entries",
    [
        [entry("a1", "a1")],
        [entry("a1", "a2"), entry("a2", "a1")],
        [entry("r", None), entry("a1", "a3"), entry("a2", "a1"), entry("a3", "a2")],
    ],
    ids=["self-parent", "two-cycle", "three-cycle-beside-a-root"],
)
def test_parent_cycles_are_an_error_not_a_hang(tmp_path: Path, entries: list[Any]) -> None:
    path = tmp_path / "cycle.jsonl"
    path.write_bytes(jsonl(HEADER, *entries))
    with pytest.raises(ParentCycleError) as raised:
        open_session(path)
    assert raised.value.repeated_id in {e["id"] for e in entries}


def test_duplicate_ids_that_close_a_cycle_are_an_error_even_when_duplicates_are_allowed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "dupcycle.jsonl"
    path.write_bytes(jsonl(HEADER, entry("a1", None), entry("a2", "a1"), entry("a1", "a2")))
    with pytest.raises(ParentCycleError):
        open_session(path, duplicates="last-wins")


def test_every_tree_error_is_a_synopsis_error() -> None:
    assert issubclass(DuplicateEntryIdError, SynopsisError)
    assert issubclass(ParentCycleError, SynopsisError)
    assert issubclass(SessionFormatError, SynopsisError)


def test_missing_file_and_directory_are_format_errors(tmp_path: Path) -> None:
    with pytest.raises(SessionFormatError, match="no such session file"):
        read_session_file(tmp_path / "absent.jsonl")
    with pytest.raises(SessionFormatError, match="directory"):
        read_session_file(tmp_path)
    with pytest.raises(SessionFormatError):
        open_session(tmp_path / "absent.jsonl")


def test_file_of_garbage_is_an_error_unless_asked_to_start_fresh(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_bytes(b"this is not json\n")
    with pytest.raises(SessionFormatError):
        open_session(path)
    fresh = open_session(path, invalid_header="new-session")
    assert fresh.entries == []
    assert not fresh.header_valid


def _snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), os.stat(path).st_mtime_ns


@pytest.mark.parametrize(
    "data",
    [
        jsonl(HEADER, entry("a1", None)),
        b"\xef\xbb\xbf" + jsonl(HEADER, entry("a1", None), newline=b"\r\n") + b"{bad\r\n",
        jsonl({"type": "session", "id": "v1", "timestamp": "t", "cwd": "/"}, {"type": "custom"}),
        jsonl(entry("a1", None)),  # invalid header
        b"",
    ],
    ids=["v3", "bom-crlf-malformed", "v1", "invalid-header", "empty"],
)
def test_opening_and_reading_never_writes_the_file(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = _snapshot(path)
    session = open_session(path, invalid_header="new-session")
    session.build_context()
    session.tree()
    read_session_file(path, invalid_header="new-session")
    assert _snapshot(path) == before


# --- the loader against a line-by-line reading --------------------------------------------

_NESTED = b'{"type":"message","id":"deep","parentId":null,"x":' + b"[" * 300 + b"]" * 300 + b"}"
_ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-9, 9), st.text(max_size=3), st.just([]), st.just({})
)


@st.composite
def _entry_like(draw: st.DrawFn) -> dict[str, Any]:
    """An entry, or something close to one with a field of the wrong kind."""
    value: dict[str, Any] = {
        "type": draw(st.sampled_from(["message", "label", "custom", "session"])),
        "id": draw(st.sampled_from(["a1", "b2", "c3"])),
        "parentId": draw(st.sampled_from([None, "a1", "b2"])),
        "message": {"role": "user", "content": "hi"},
    }
    for field in draw(st.lists(st.sampled_from(["type", "id", "parentId", "message"]))):
        value[field] = draw(_ODD_VALUES)
    if draw(st.booleans()) and isinstance(value.get("message"), dict):
        value["message"] = {**value["message"], "role": draw(_ODD_VALUES)}
    if draw(st.booleans()):
        del value[draw(st.sampled_from(sorted(value)))]
    return value


_LINES = st.one_of(
    _entry_like().map(orjson.dumps),
    _ODD_VALUES.map(orjson.dumps),
    st.sampled_from([b"", b"  \t", b"{not json", b'{"type":"message",', _NESTED, b"NaN"]),
    st.binary(max_size=12),
)


def _line_by_line(data: bytes) -> tuple[list[Any], list[int], list[tuple[int, str, bool]]]:
    """What a v3 file holds, read one line at a time with the documented single-line
    rules (``parse_line``, ``entry_problem``): entries, their lines, and the skipped
    lines (number, reason, is it JSON at all)."""
    entries: list[Any] = []
    lines: list[int] = []
    skipped: list[tuple[int, str, bool]] = []
    for number, raw in enumerate(data.split(b"\n")[1:], start=2):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if not line.strip(b" \t\r\n\x0b\x0c"):
            continue
        try:
            value = parse_line(line)
        except ValueError as error:
            torn = number == data.count(b"\n") + 1 and not data.endswith(b"\n")
            skipped.append((number, describe_parse_error(error, torn=torn), False))
            continue
        problem = entry_problem(value, needs_id=True)
        if problem is None:
            entries.append(value)
            lines.append(number)
        else:
            skipped.append((number, problem, True))
    return entries, lines, skipped


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=12), st.booleans(), st.booleans())
def test_the_loader_reads_what_a_line_by_line_reading_reads(
    lines: list[bytes], crlf: bool, final_newline: bool
) -> None:
    end = b"\r\n" if crlf else b"\n"
    data = end.join([orjson.dumps(HEADER), *lines]) + (end if final_newline else b"")
    entries, numbers, skipped = _line_by_line(data)
    loaded = parse_session(data)
    assert loaded.entries == entries
    assert loaded.entry_lines == numbers
    assert [(s.line, s.reason) for s in loaded.skipped] == [(n, r) for n, r, _ in skipped]
    # strict: the first line that is no JSON is the error, else the first that is no entry
    if not skipped:
        assert parse_session(data, strict=True).entries == entries
        return
    first = min(skipped, key=lambda s: (s[2], s[0]))
    with pytest.raises(SessionFormatError) as raised:
        parse_session(data, strict=True)
    assert raised.value.line == first[0]
    assert first[1] in str(raised.value)


# --- large files, read piece by piece -------------------------------------------------------


@pytest.fixture
def in_small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as large, and is read a few bytes at a time."""
    monkeypatch.setattr(jsonl_module, "_STREAM_BYTES", 0)
    monkeypatch.setattr(jsonl_module, "_PIECE_BYTES", 7)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_LINES, max_size=10),
    st.booleans(),
    st.booleans(),
    st.sampled_from([3, 3, 2, 1]),
    st.booleans(),
)
def test_a_file_read_in_pieces_loads_as_its_bytes_do(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    crlf: bool,
    final_newline: bool,
    version: int,
    strict: bool,
) -> None:
    end = b"\r\n" if crlf else b"\n"
    head = orjson.dumps({**HEADER, "version": version})
    data = end.join([head, *lines]) + (end if final_newline else b"")
    path = tmp_path_factory.mktemp("pieces") / "session.jsonl"
    path.write_bytes(data)
    expected: Any
    try:
        expected = parse_session(data, path=str(path), strict=strict)
    except SessionFormatError as error:
        expected = str(error)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonl_module, "_STREAM_BYTES", 0)
        patch.setattr(jsonl_module, "_PIECE_BYTES", 7)
        try:
            loaded: Any = read_session_file(path, strict=strict)
        except SessionFormatError as error:
            loaded = str(error)
    if isinstance(expected, str):
        assert loaded == expected
        return
    assert (loaded.header, loaded.entries, loaded.entry_lines) == (
        expected.header,
        expected.entries,
        expected.entry_lines,
    )
    assert (loaded.skipped, loaded.version_before, loaded.migrated) == (
        expected.skipped,
        expected.version_before,
        expected.migrated,
    )
    assert loaded.ends_with_newline == expected.ends_with_newline
    assert loaded.source_bytes() == data
    assert loaded.on_disk is not None or loaded.source == data


@pytest.mark.usefixtures("in_small_pieces")
def test_a_session_read_in_pieces_saves_and_appends_as_one_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    data = jsonl(HEADER, entry("a1", None), entry("b2", "a1")) + b'{"torn": '
    path.write_bytes(data)
    session = open_session(path, durable=False)
    assert session.to_bytes() == data  # the bytes loaded, read back from the file
    session.append_message({"role": "user", "content": "and then?"})
    reloaded = open_session(path, durable=False)
    assert [e["id"] for e in reloaded.entries] == ["a1", "b2", session.leaf_id]
    assert reloaded.to_bytes() == path.read_bytes()


@pytest.mark.usefixtures("in_small_pieces")
@pytest.mark.parametrize("change", ["truncate", "replace", "rewrite", "delete"])
def test_saving_a_session_read_in_pieces_refuses_a_file_that_changed(
    tmp_path: Path, change: str
) -> None:
    path = tmp_path / "session.jsonl"
    data = jsonl(HEADER, entry("a1", None), entry("b2", "a1"))
    path.write_bytes(data)
    session = open_session(path, durable=False)
    if change == "truncate":
        path.write_bytes(data[:-10])
    elif change == "replace":  # the same bytes in another file
        (tmp_path / "other.jsonl").write_bytes(data)
        os.replace(tmp_path / "other.jsonl", path)
    elif change == "delete":
        path.unlink()
    else:
        path.write_bytes(data.replace(b"beef", b"cafe"))
    with pytest.raises(SessionChangedError):
        session.save(tmp_path / "copy.jsonl")
    assert not (tmp_path / "copy.jsonl").exists()


@pytest.mark.usefixtures("in_small_pieces")
@pytest.mark.parametrize(
    "start",
    [
        b"\xef\xbb\xbf",  # a byte order mark before the header
        b'{"type":"message","id":"x1"}\n',  # a first line that is no header
        b"{not json\n\n  \n",  # junk and blank lines before the header
    ],
)
@pytest.mark.parametrize("invalid_header", ["error", "new-session"])
def test_a_file_read_in_pieces_that_opens_oddly_loads_as_its_bytes_do(
    tmp_path: Path, start: bytes, invalid_header: Any
) -> None:
    """Until its header is read, a large file may still have to be read whole (a BOM, no
    header): the pieces already read are given up and the loader answers as on its bytes."""
    data = start + jsonl(HEADER, entry("a1", None), entry("b2", "a1")) + b'{"torn": '
    path = tmp_path / "session.jsonl"
    path.write_bytes(data)
    expected: Any
    try:
        expected = parse_session(data, path=str(path), invalid_header=invalid_header)
    except SessionFormatError as error:
        expected = str(error)
    try:
        loaded: Any = read_session_file(path, invalid_header=invalid_header)
    except SessionFormatError as error:
        loaded = str(error)
    if isinstance(expected, str):
        assert loaded == expected
        return
    assert (loaded.header, loaded.entries, loaded.entry_lines, loaded.skipped) == (
        expected.header,
        expected.entries,
        expected.entry_lines,
        expected.skipped,
    )
    assert loaded.source_bytes() == data
    assert (loaded.on_disk is None) == (expected.header is None)


class _FailingRead:
    """A file whose reads fail once ``good`` bytes were read (a disk error mid-file)."""

    def __init__(self, handle: Any, good: int) -> None:
        self._handle, self._good = handle, good

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _FailingRead:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def read(self, size: int = -1) -> bytes:
        if size < 0 or self._handle.tell() + size > self._good:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return bytes(self._handle.read(size))


@pytest.mark.parametrize("in_pieces", [True, False])
def test_a_read_error_mid_file_is_a_format_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_pieces: bool
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(jsonl(HEADER, entry("a1", None), entry("b2", "a1")))
    if in_pieces:
        monkeypatch.setattr(jsonl_module, "_STREAM_BYTES", 0)
        monkeypatch.setattr(jsonl_module, "_PIECE_BYTES", 7)
    fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: _FailingRead(fdopen(*a, **k), 30))
    with pytest.raises(SessionFormatError, match="cannot read: Input/output error"):
        read_session_file(path)


# --- repeated words are one string each ------------------------------------------------------

_WORDS = st.sampled_from(["assistant", "user", "toolResult", "anthropic", "read", "toolUse"])
_FIELD_VALUES = st.one_of(_WORDS, st.text(max_size=4), st.none(), st.integers(-2, 2), st.just([]))


@st.composite
def _message_entries(draw: st.DrawFn) -> dict[str, Any]:
    """A message entry whose role, model fields and blocks repeat a few words (or are odd)."""
    message: dict[str, Any] = {"role": draw(_WORDS)}
    for key in draw(
        st.lists(
            st.sampled_from(["api", "provider", "model", "stopReason", "toolName", "usage"]),
            unique=True,
        )
    ):
        message[key] = draw(_FIELD_VALUES)
    blocks = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(["text", "toolCall"]), _FIELD_VALUES)},
        optional={"name": _FIELD_VALUES, "text": st.text(max_size=3)},
    )
    message["content"] = draw(
        st.one_of(st.lists(st.one_of(blocks, _FIELD_VALUES), max_size=3), st.text(max_size=3))
    )
    keys = draw(st.permutations(["type", "id", "parentId", "message"]))
    fields = {
        "type": "message",
        "id": draw(st.text(min_size=1, max_size=3)),
        "parentId": None,
        "message": message,
    }
    return {key: fields[key] for key in keys}


def _strings_at(entry: dict[str, Any]) -> list[tuple[str, Any]]:
    """(where, value) of every value the loader shares, for identity checks."""
    found: list[tuple[str, Any]] = [("type", entry["type"])]
    message = entry["message"]
    fields = {
        "assistant": ("role", "api", "provider", "model", "stopReason"),
        "toolResult": ("role", "toolName"),
    }.get(message["role"], ("role",))
    found += [(key, message[key]) for key in fields if isinstance(message.get(key), str)]
    for block in message["content"] if isinstance(message["content"], list) else []:
        if isinstance(block, dict) and isinstance(block.get("type"), str):
            found.append(("block type", block["type"]))
            if block["type"] == "toolCall" and isinstance(block.get("name"), str):
                found.append(("tool name", block["name"]))
    return found


@settings(max_examples=150, deadline=None)
@given(st.lists(_message_entries(), min_size=1, max_size=6))
def test_loaded_entries_share_repeated_words_and_keep_every_value_and_key_order(
    entries: list[dict[str, Any]],
) -> None:
    lines = [orjson.dumps(entry) for entry in entries]
    data = b"\n".join([orjson.dumps(HEADER), *lines]) + b"\n"
    loaded = parse_session(data)
    # the same values in the same key order: rendering them again gives the line read
    assert [orjson.dumps(entry) for entry in loaded.entries] == lines
    shared: dict[str, Any] = {}
    for entry in loaded.entries:
        for _, value in _strings_at(entry):
            assert shared.setdefault(value, value) is value
