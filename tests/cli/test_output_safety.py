"""What the CLI prints is safe whatever a session file holds: no terminal control
sequences, no Rich markup read from data, lone surrogates as U+FFFD, ``--json`` valid
UTF-8, and usage errors on one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli._run import one_error_line, synopsis
from tests.synthetic import write_session

# Control sequences an attacker would plant: set the window title, clear the screen,
# move the cursor, ring the bell, a C1 CSI, a bidirectional override.
HOSTILE_TEXT = (
    "\x1b]0;pwned\x07 \x1b[2J\x1b[H \x9b31m \u202eevil\u202c "
    "[/] [bold red]not markup[/bold red] [link=file:///etc/passwd]x[/link]"
)
HOSTILE_ID = "id-\x1b[31m-[/]"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated session with hostile ids, labels, text and paths on its leaf's branch."""
    path = tmp_path_factory.mktemp("hostile") / "s.jsonl"
    write_session(path, seed=4, entries=200)
    lines = path.read_bytes().splitlines(keepends=True)
    parent = json.loads(lines[-1])["id"]

    def entry(entry_id: str, parent_id: str, **fields: object) -> bytes:
        value = {"id": entry_id, "parentId": parent_id, "timestamp": "t", **fields}
        return json.dumps(value).encode() + b"\n"

    tool_call = {
        "type": "toolCall",
        "id": "call-1",
        "name": "read",
        "arguments": {"path": "/tmp/\x1b[2Jx[/].py"},
    }
    extra = (
        entry(
            HOSTILE_ID,
            parent,
            type="message",
            message={"role": "user", "content": HOSTILE_TEXT + " lone \\ud800 end"},
        ).replace(b"\\\\ud800", b"\\ud800")
        + entry(
            "a-1",
            HOSTILE_ID,
            type="message",
            message={"role": "assistant", "content": [tool_call]},
        )
        + entry("l-1", "a-1", type="label", targetId=HOSTILE_ID, label="[/]\x1b[5m")
    )
    path.write_bytes(b"".join(lines) + extra)
    return path


def _assert_safe(data: bytes) -> str:
    text = data.decode("utf-8")  # valid UTF-8, or this raises
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\ud800"):
        assert raw not in text, repr(raw)
    return text


@pytest.mark.parametrize(
    "args",
    [
        ("tree",),
        ("context",),
        ("context", "--leaf", HOSTILE_ID),
        ("plan", "--keep-recent", "2000"),
        ("compact", "--dry-run", "--keep-recent", "2000"),
        ("doctor",),
    ],
    ids=["tree", "context", "context-leaf", "plan", "compact", "doctor"],
)
def test_human_output_escapes_hostile_data(hostile: Path, args: tuple[str, ...]) -> None:
    command, *options = args
    done = synopsis(command, hostile, *options, ok=None)
    assert done.returncode in (0, 1), done.stderr  # doctor: 1 (the file has findings)
    text = _assert_safe(done.stdout)
    _assert_safe(done.stderr)
    if command in ("tree", "context"):
        assert "\\x1b" in text  # shown, escaped
        assert "[/]" in text  # printed as text, not read as markup


@pytest.mark.parametrize(
    "command", ["tree", "context", "plan", "compact", "doctor"], ids=lambda c: c
)
def test_json_output_is_valid_utf8_json(hostile: Path, command: str) -> None:
    extra = ("--dry-run", "--keep-recent", "2000") if command == "compact" else ()
    done = synopsis(command, hostile, "--json", *extra, ok=None)
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout.decode("utf-8"))
    assert isinstance(document, dict)
    if command == "tree":
        ids = {entry["id"] for entry in document["entries"]}
        assert HOSTILE_ID in ids  # machine output keeps the data exactly


def test_an_error_naming_hostile_data_is_one_safe_line(hostile: Path) -> None:
    error = one_error_line(synopsis("context", hostile, "--leaf", "no\x1b[2Jsuch[/]", ok=False))
    assert "\x1b" not in error and "\\x1b" in error and "[/]" in error


@pytest.mark.parametrize(
    "args",
    [(), ("tree",), ("tree", "--bogus", "x.jsonl"), ("no-such-command",), ("plan", "--reserve")],
    ids=["nothing", "missing-file", "bad-option", "bad-command", "missing-value"],
)
def test_usage_errors_are_one_line(args: tuple[str, ...]) -> None:
    done = synopsis(*args, ok=False)
    if not args:  # no arguments: the help, as Typer shows it
        assert done.returncode in (0, 2) and b"Usage" in done.stdout + done.stderr
        return
    one_error_line(done)


@pytest.mark.parametrize("name", ["dir", "fifo", "garbage"])
def test_an_unreadable_file_is_one_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    if name == "dir":
        path.mkdir()
    elif name == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(b"\xff\xfe not a session \x00")
    # doctor reads a garbage file as damaged (exit 1, a report), not as unreadable.
    for command in ("tree", "context") if name == "garbage" else ("tree", "context", "doctor"):
        one_error_line(synopsis(command, path, ok=False))
